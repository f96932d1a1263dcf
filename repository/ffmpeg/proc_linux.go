package ffmpeg

import (
	"os/exec"
	"syscall"
)

// ownGroup runs cmd as the leader of a process group of its own, killed
// whole when cmd's context ends, and killed by the kernel if this server
// dies first (Pdeathsig), so no ffmpeg outlives the request it serves.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
