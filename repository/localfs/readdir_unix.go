//go:build unix

package localfs

import (
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// ReadDirStat lists a folder sorted by name, as ReadDir does; the regular
// files stat accepts come with their Info already read relative to the
// open folder (fstatat), so the system resolves one name per file instead
// of its whole path again. A rescan of an unchanged library is mostly these
// reads, and they cost half as much this way. An entry whose read failed
// (the file went away in between) keeps the lazy Info, which reports why.
func (FS) ReadDirStat(path string, stat func(name string) bool) ([]fs.DirEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	if err != nil {
		return entries, err
	}
	raw, err := f.SyscallConn()
	if err != nil {
		return entries, nil // Info stays lazy
	}
	_ = raw.Control(func(fd uintptr) {
		for i, e := range entries {
			if e.Type().IsRegular() && stat(e.Name()) {
				entries[i] = statAt(int(fd), e)
			}
		}
	})
	return entries, nil
}

// statAt reads e's Info relative to the folder dirfd; e itself when that
// fails or e is no longer a regular file.
func statAt(dirfd int, e fs.DirEntry) fs.DirEntry {
	var st unix.Stat_t
	if err := unix.Fstatat(dirfd, e.Name(), &st, unix.AT_SYMLINK_NOFOLLOW); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return e
	}
	mode := fs.FileMode(st.Mode & 0o777)
	if st.Mode&unix.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if st.Mode&unix.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if st.Mode&unix.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return statEntry{DirEntry: e, info: fileInfo{name: e.Name(), size: st.Size, mode: mode,
		mtime: time.Unix(st.Mtim.Unix())}}
}

// statEntry is a directory entry whose Info was read with it.
type statEntry struct {
	fs.DirEntry
	info fileInfo
}

func (e statEntry) Info() (fs.FileInfo, error) { return e.info, nil }

// fileInfo is what fstatat said about a regular file. Sys is nil: nothing
// reads it, and keeping the whole stat of every file of a library would
// be most of what a rescan allocates.
type fileInfo struct {
	name  string
	size  int64
	mode  fs.FileMode
	mtime time.Time
}

func (i fileInfo) Name() string       { return i.name }
func (i fileInfo) Size() int64        { return i.size }
func (i fileInfo) Mode() fs.FileMode  { return i.mode }
func (i fileInfo) ModTime() time.Time { return i.mtime }
func (i fileInfo) IsDir() bool        { return false }
func (i fileInfo) Sys() any           { return nil }
