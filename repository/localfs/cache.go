package localfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Cache is a folder of files the server can make again (spoken text), held
// under a size cap: when the files pass it, the least recently used go
// until a tenth of the cap is free. A file is written under a temporary
// name and renamed into place, so a reader, or a second writer of the same
// name, never sees half a file; a served file that is evicted stays
// readable to whoever opened it. Names are bare file names of the shape
// its owner gives (owns): the folder may be shared by mistake (the data
// folder, with the database in it), and eviction must never count or
// remove a file the cache did not make.
type Cache struct {
	dir      string
	maxBytes int64
	owns     func(name string) bool
	now      func() time.Time

	mu    sync.Mutex
	total int64 // bytes in the folder as this process knows it; -1 until first counted
}

// tempPrefix starts every file still being written; they are never served
// and a start removes those a crash left.
const tempPrefix = ".part-"

// NewCache is the cache in dir holding at most maxBytes (unbounded when
// <= 0) of the files whose names owns accepts: only those are served,
// written, counted and evicted; any other file in dir is left alone. It
// creates dir and removes unfinished files of an earlier run.
func NewCache(dir string, maxBytes int64, owns func(name string) bool) (*Cache, error) {
	if owns == nil {
		return nil, errors.New("a cache needs the shape of the names it owns")
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("create the cache folder %s: %w", dir, err)
	}
	c := &Cache{dir: dir, maxBytes: maxBytes, owns: owns, now: time.Now, total: -1}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read the cache folder %s: %w", dir, err)
	}
	for _, e := range entries {
		if c.ownsTemp(e.Name()) {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
	return c, nil
}

// Path is where the file name lies, when it is in the cache. A hit counts
// as a use: its time is renewed so eviction keeps what is asked for.
func (c *Cache) Path(name string) (string, bool) {
	p, err := c.file(name)
	if err != nil {
		return "", false
	}
	info, err := os.Stat(p)
	if err != nil || !info.Mode().IsRegular() {
		return "", false
	}
	now := c.now()
	_ = os.Chtimes(p, now, now)
	return p, true
}

// Put writes name through fill: into a temporary file that is renamed
// into place when fill succeeds, and removed when it fails, so nothing
// half-made is ever served. It returns the file's path, then keeps the
// cache under its cap.
func (c *Cache) Put(name string, fill func(w io.Writer) error) (path string, err error) {
	p, err := c.file(name)
	if err != nil {
		return "", err
	}
	f, err := os.CreateTemp(c.dir, tempPrefix+name+"-*")
	if err != nil {
		return "", fmt.Errorf("cache %s: %w", name, err)
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(f.Name())
		}
	}()
	if err = fill(f); err != nil {
		return "", err
	}
	info, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("cache %s: %w", name, err)
	}
	if err = f.Close(); err != nil {
		return "", fmt.Errorf("cache %s: %w", name, err)
	}
	if err = os.Rename(f.Name(), p); err != nil {
		return "", fmt.Errorf("cache %s: %w", name, err)
	}
	c.added(info.Size(), p)
	return p, nil
}

// added counts a committed file and evicts when the cap is passed. The
// running total is an estimate between recounts (a file replaced by the
// same name is counted twice), so eviction recounts from the folder and
// never removes more than it must.
func (c *Cache) added(size int64, keep string) {
	if c.maxBytes <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.total >= 0 {
		c.total += size
		if c.total <= c.maxBytes {
			return
		}
	}
	c.total = c.evict(keep)
}

// cached is one file of the folder as eviction sees it.
type cached struct {
	path string
	size int64
	used time.Time
}

// evict removes the least recently used files (never keep, the file just
// made) until the folder is 90 % of the cap, and returns what is left.
func (c *Cache) evict(keep string) int64 {
	entries, err := os.ReadDir(c.dir)
	if err != nil {
		return -1
	}
	var files []cached
	var total int64
	for _, e := range entries {
		if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") || !c.owns(e.Name()) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		files = append(files, cached{filepath.Join(c.dir, e.Name()), info.Size(), info.ModTime()})
		total += info.Size()
	}
	if total <= c.maxBytes {
		return total
	}
	slices.SortFunc(files, func(a, b cached) int { return a.used.Compare(b.used) })
	target := c.maxBytes - c.maxBytes/10
	for _, f := range files {
		if total <= target {
			break
		}
		if f.path == keep {
			continue
		}
		if err := os.Remove(f.path); err == nil || errors.Is(err, fs.ErrNotExist) {
			total -= f.size
		}
	}
	return total
}

// ownsTemp reports whether name is an unfinished file of this cache:
// tempPrefix, a name it owns, "-" and CreateTemp's random digits.
func (c *Cache) ownsTemp(name string) bool {
	rest, ok := strings.CutPrefix(name, tempPrefix)
	if !ok {
		return false
	}
	i := strings.LastIndexByte(rest, '-')
	return i > 0 && c.owns(rest[:i])
}

// file joins a bare, visible name of the cache's own shape to the folder.
func (c *Cache) file(name string) (string, error) {
	if name == "" || name != filepath.Base(name) || strings.HasPrefix(name, ".") || strings.ContainsRune(name, 0) {
		return "", fmt.Errorf("%q is not a bare file name", name)
	}
	if !c.owns(name) {
		return "", fmt.Errorf("%q is not a name of this cache", name)
	}
	return filepath.Join(c.dir, name), nil
}
