// Package procgroup makes an external program's process die with the
// request it serves: ffmpeg, espeak-ng and the like run in a process group
// of their own that the command's context kills whole.
package procgroup

import (
	"os/exec"
	"syscall"
)

// Own runs cmd as the leader of a process group of its own, killed whole
// when cmd's context ends, and killed by the kernel if this server dies
// first (Pdeathsig), so no child outlives the request it serves. Call it
// on a command made with exec.CommandContext, before Start.
func Own(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
