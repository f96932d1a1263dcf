package localfs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"mediateka/domain"
)

// RootsFile is search_dirs.json as the running server knows it: the current
// library folders in memory, replaced together with the file, so a change
// through the API takes effect at once and survives a restart. Everything
// that reads the roots (scan, audit, streaming, torrent relocation) asks it
// for the current list.
type RootsFile struct {
	path  string
	mu    sync.RWMutex
	roots []domain.Root
}

// OpenRoots reads search_dirs.json as LoadRoots does and keeps it for
// changes at run time; an absent file is an empty list, created on the
// first change.
func OpenRoots(path string) (*RootsFile, []string, error) {
	roots, warnings, err := LoadRoots(path)
	if err != nil {
		return nil, warnings, err
	}
	return &RootsFile{path: path, roots: roots}, warnings, nil
}

// Roots returns a copy of the current library folders.
func (f *RootsFile) Roots() []domain.Root {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return slices.Clone(f.roots)
}

// SaveRoots writes roots (already validated) to search_dirs.json atomically
// and then makes them current: a crash leaves the old file or the new one,
// never half of one, and a failed write changes nothing.
func (f *RootsFile) SaveRoots(roots []domain.Root) error {
	entries := make([]rootEntry, len(roots))
	for i, r := range roots {
		entries[i] = rootEntry{Path: r.Path, Disk: r.Disk}
	}
	raw, err := json.MarshalIndent(rootsFile{Dirs: entries}, "", "  ")
	if err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := writeAtomic(f.path, append(raw, '\n')); err != nil {
		return err
	}
	f.roots = slices.Clone(roots)
	return nil
}

// writeAtomic replaces path with data: a temporary file in the same folder,
// synced, renamed over path, then the folder synced so the rename itself
// survives a power cut. The file keeps the mode of the one it replaces
// (0644 when new: it names folders, nothing secret).
func writeAtomic(path string, data []byte) (err error) {
	mode := fs.FileMode(0o644)
	if info, err := os.Stat(path); err == nil {
		mode = info.Mode().Perm()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("write %s: %w", path, err)
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
			err = fmt.Errorf("write %s: %w", path, err)
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Chmod(mode); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	// The rename is the commit point: the new file is what the next start
	// reads, so the caller must switch to it too. A folder that cannot be
	// synced only leaves the rename's durability across a power cut to the
	// file system, which is no reason to report a change that happened as
	// failed.
	_ = syncDir(dir)
	return nil
}

// syncDir flushes a folder's entries (a rename) to the disk.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
