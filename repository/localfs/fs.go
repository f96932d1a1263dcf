// Package localfs is the local disk behind the library's ports: reading
// folders for the scanner, opening video and subtitle files, the
// search_dirs.json list of library folders and the lock that keeps two
// scans apart.
package localfs

import (
	"io/fs"
	"os"
	"path/filepath"

	"mediateka/domain"
)

// FS is the operating system's file system.
type FS struct{}

// ReadDir lists a folder sorted by name.
func (FS) ReadDir(path string) ([]fs.DirEntry, error) { return os.ReadDir(path) }

// Stat describes a file, following symbolic links.
func (FS) Stat(path string) (fs.FileInfo, error) { return os.Stat(path) }

// RealPath resolves every symbolic link in path.
func (FS) RealPath(path string) (string, error) { return filepath.EvalSymlinks(path) }

// Open opens a file for reading.
func (FS) Open(path string) (domain.FileReader, error) { return os.Open(path) }

// ReadFile reads a whole (small) file.
func (FS) ReadFile(path string) ([]byte, error) { return os.ReadFile(path) }
