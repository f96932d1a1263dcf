//go:build !linux

package ffmpeg

import "os/exec"

// ownGroup leaves cmd as exec makes it: its context's end kills the
// process itself (ffmpeg starts no children of its own).
func ownGroup(*exec.Cmd) {}
