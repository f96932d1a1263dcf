package logfile

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"mediateka/domain"
)

// ReportsFolder is the reports' folder inside the log folder.
const ReportsFolder = "reports"

// Dir is the log folder as the logs use case sees it: listing, reading
// (forwards, decompressing .gz; backwards for the tail), line counts,
// clearing, and the reports folder. Names reach it already checked as
// bare names; it refuses anything that still leads out of the folder.
type Dir struct {
	path    string
	reports string
	active  *Writer // nil: no logger writes here (tools, tests)
	lines   lineCache
}

// NewDir opens the log folder at path, creating it and its reports
// folder; active is the logger's writer, through which the active file is
// cleared (nil when no logger writes into this folder).
func NewDir(path string, active *Writer) (*Dir, error) {
	reports := filepath.Join(path, ReportsFolder)
	if err := os.MkdirAll(reports, 0o750); err != nil {
		return nil, fmt.Errorf("create the reports folder: %w", err)
	}
	return &Dir{path: path, reports: reports, active: active, lines: lineCache{m: map[string]lineCount{}}}, nil
}

// Path is the log folder.
func (d *Dir) Path() string { return d.path }

// List returns the regular files of the log folder (symlinks that stay
// inside it count as the file they lead to).
func (d *Dir) List() ([]domain.LogFile, error) { return list(d.path) }

// Reports returns the files of the reports folder.
func (d *Dir) Reports() ([]domain.LogFile, error) { return list(d.reports) }

func list(dir string) ([]domain.LogFile, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", filepath.Base(dir), err)
	}
	out := make([]domain.LogFile, 0, len(entries))
	for _, e := range entries {
		path, err := resolve(dir, e.Name())
		if err != nil {
			continue // a symlink out of the folder, or gone meanwhile
		}
		fi, err := os.Stat(path)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		out = append(out, domain.LogFile{Name: e.Name(), Size: fi.Size(), Modified: fi.ModTime().UTC()})
	}
	return out, nil
}

// resolve is the path of name inside dir: a regular file, or a symlink
// whose target is inside dir (anything else leading out is
// ErrInvalidFilename); absent, or not a regular file (a directory, also
// one a symlink leads to), is ErrLogFileNotFound. name must be bare.
func resolve(dir, name string) (string, error) {
	if name == "" || name != filepath.Base(name) || strings.ContainsAny(name, `/\`+"\x00") || name == "." || name == ".." {
		return "", domain.ErrInvalidFilename
	}
	path := filepath.Join(dir, name)
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", domain.ErrLogFileNotFound
	}
	if err != nil {
		return "", fmt.Errorf("stat %s: %w", name, err)
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		// Not a link: name is a bare name (checked above), so this entry
		// sits directly in dir, whatever dir itself is (a symlinked log
		// folder included): there is nowhere outside it could lead.
		if !fi.Mode().IsRegular() {
			return "", domain.ErrLogFileNotFound
		}
		return path, nil
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", domain.ErrLogFileNotFound // a dangling link
	}
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("resolve the log folder: %w", err)
	}
	rel, err := filepath.Rel(realDir, target)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", domain.ErrInvalidFilename
	}
	if tfi, err := os.Stat(target); err != nil || !tfi.Mode().IsRegular() {
		return "", domain.ErrLogFileNotFound // a folder (dir.log → reports), a device: no log file
	}
	return target, nil
}

// Stat describes one log file.
func (d *Dir) Stat(name string) (domain.LogFile, error) {
	path, err := resolve(d.path, name)
	if err != nil {
		return domain.LogFile{}, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return domain.LogFile{}, domain.ErrLogFileNotFound.Wrap(err)
	}
	return domain.LogFile{Name: name, Size: fi.Size(), Modified: fi.ModTime().UTC()}, nil
}

// Open reads a log file from the start, decompressed when it ends in .gz
// (an empty .gz, as a clear leaves it, reads as empty).
func (d *Dir) Open(name string) (io.ReadCloser, error) {
	f, err := d.open(name)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(name, ".gz") {
		return f, nil
	}
	if fi, err := f.Stat(); err == nil && fi.Size() == 0 {
		return f, nil
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return gzFile{Reader: z, f: f}, nil
}

func (d *Dir) open(name string) (*os.File, error) {
	path, err := resolve(d.path, name)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, domain.ErrLogFileNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", name, err)
	}
	return f, nil
}

type gzFile struct {
	*gzip.Reader
	f *os.File
}

func (g gzFile) Close() error {
	err := g.Reader.Close()
	if cerr := g.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Truncate empties one log file. The active file is cleared through the
// logger's writer, so the logger keeps writing into it from offset 0.
func (d *Dir) Truncate(name string) error {
	path, err := resolve(d.path, name)
	if err != nil {
		return err
	}
	defer d.lines.forget(name)
	if d.isActive(path) {
		return d.active.Truncate()
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("open %s: %w", name, err)
	}
	err = f.Truncate(0)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("truncate %s: %w", name, err)
	}
	return nil
}

// isActive tells whether path is the logger's file, by identity, so a
// symlink to it is cleared through the logger too.
func (d *Dir) isActive(path string) bool {
	if d.active == nil {
		return false
	}
	a, err1 := os.Stat(d.active.path)
	p, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, p)
}

// ReadReport returns a report's content, at most limit bytes.
func (d *Dir) ReadReport(name string, limit int64) ([]byte, error) {
	path, err := resolve(d.reports, name)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, domain.ErrLogFileNotFound.Wrap(err)
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
}

// WriteReport writes a report whole or not at all: into a temporary file,
// synced to the disk, that is renamed to name once write succeeded.
func (d *Dir) WriteReport(name string, write func(w io.Writer) error) error {
	if name != filepath.Base(name) || strings.ContainsAny(name, `/\`+"\x00") {
		return domain.ErrInvalidFilename
	}
	tmp, err := os.CreateTemp(d.reports, ".report-*.tmp")
	if err != nil {
		return fmt.Errorf("create the report: %w", err)
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	err = write(tmp)
	if err == nil {
		// On the disk before the name: after a crash the rename may have
		// happened while the data had not, leaving an empty or partial
		// report under its final name.
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write the report: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(d.reports, name)); err != nil {
		return fmt.Errorf("save the report: %w", err)
	}
	return nil
}

// lineCache remembers how many lines each file had up to an offset, so
// the count of the growing active file costs only its new bytes. It holds
// at most maxCounted files, the least recently asked about going first:
// names come from requests, and a folder of many backups must not make it
// grow without end.
type lineCache struct {
	mu   sync.Mutex
	m    map[string]lineCount
	tick uint64
}

// maxCounted bounds the line cache; the active file is asked about most,
// so it stays.
const maxCounted = 64

type lineCount struct {
	id       os.FileInfo
	offset   int64
	newlines int
	used     uint64
}

func (c *lineCache) get(name string) (lineCount, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	lc, ok := c.m[name]
	return lc, ok
}

// put keeps a copy of name: the caller's string may share memory that is
// reused after the call (a web framework's request buffer), and a map
// key that changes under the map is both a wrong entry and a data race.
func (c *lineCache) put(name string, lc lineCount) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tick++
	lc.used = c.tick
	if _, ok := c.m[name]; !ok && len(c.m) >= maxCounted {
		oldest, first := "", true
		for k, v := range c.m {
			if first || v.used < c.m[oldest].used {
				oldest, first = k, false
			}
		}
		delete(c.m, oldest)
	}
	c.m[strings.Clone(name)] = lc
}

func (c *lineCache) forget(name string) {
	c.mu.Lock()
	delete(c.m, name)
	c.mu.Unlock()
}
