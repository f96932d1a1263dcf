//go:build !unix

package localfs

import (
	"io/fs"
	"os"
)

// ReadDirStat lists a folder sorted by name; on this system Info is read
// when asked for, by path.
func (FS) ReadDirStat(path string, _ func(name string) bool) ([]fs.DirEntry, error) {
	return os.ReadDir(path)
}
