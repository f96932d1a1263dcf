// Package exectest lets integration tests demand the real programs they
// drive (ffmpeg, espeak-ng, qbittorrent-nox, chromium). On a developer's
// machine a missing program skips the test with the install hint; under
// CI=true it fails, so CI can never go green by skipping the real thing.
package exectest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Require returns the path of each program, or stops the test: a failure
// when CI is set, a skip otherwise. debPackage names the Debian package to
// install (`make test` installs it when run as root).
func Require(t testing.TB, debPackage string, programs ...string) []string {
	t.Helper()
	paths := make([]string, 0, len(programs))
	for _, p := range programs {
		path, err := exec.LookPath(p)
		if err != nil {
			msg := p + " is not installed: apt-get install " + debPackage + " (make test does it when run as root)"
			if inCI() {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
		paths = append(paths, path)
	}
	return paths
}

func inCI() bool {
	v := strings.ToLower(os.Getenv("CI"))
	return v != "" && v != "0" && v != "false"
}
