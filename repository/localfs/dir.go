package localfs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Dir is a folder of small files the server makes and keeps, such as
// thumbnails. Each is written whole (a temporary file renamed over it), so
// a reader never sees half a picture, even from two writers at once.
// Names are bare file names; anything else is refused.
type Dir struct {
	path string
}

// NewDir is the folder at path, created on the first write.
func NewDir(path string) Dir { return Dir{path: path} }

// file joins a bare name to the folder.
func (d Dir) file(name string) (string, error) {
	if name == "" || name != filepath.Base(name) || strings.HasPrefix(name, ".") {
		return "", fmt.Errorf("%q is not a bare file name", name)
	}
	return filepath.Join(d.path, name), nil
}

// Read returns the file name's content; an absent file's error satisfies
// errors.Is(err, fs.ErrNotExist).
func (d Dir) Read(name string) ([]byte, error) {
	p, err := d.file(name)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(p)
}

// Write stores data under name, replacing what was there.
func (d Dir) Write(name string, data []byte) error {
	p, err := d.file(name)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(d.path, 0o750); err != nil {
		return fmt.Errorf("create %s: %w", d.path, err)
	}
	return writeAtomic(p, data)
}

// RemoveOthers deletes the files whose names start with prefix, except
// keep: the pictures of an earlier version of the same file.
func (d Dir) RemoveOthers(prefix, keep string) error {
	entries, err := os.ReadDir(d.path)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if n := e.Name(); strings.HasPrefix(n, prefix) && n != keep && !e.IsDir() {
			if err := os.Remove(filepath.Join(d.path, n)); err != nil {
				return err
			}
		}
	}
	return nil
}
