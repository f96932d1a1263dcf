package library

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"mediateka/domain"
)

// maxDepth stops a walk that goes deeper than any real library does.
const maxDepth = 48

// errTooDeep reports a folder below maxDepth.
var errTooDeep = errors.New("folders nested too deep")

// videoExts are the containers the scanner catalogues.
func isVideo(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".mkv", ".mp4", ".m4v", ".avi", ".mov", ".wmv", ".asf", ".ts", ".m2ts", ".mts", ".webm",
		".mpg", ".mpeg", ".vob", ".iso", ".flv", ".3gp", ".ogv", ".divx", ".rm", ".rmvb":
		return true
	}
	return false
}

// skipName reports folders and files that never hold a library: hidden
// ones and the bookkeeping folders of NAS boxes and operating systems.
func skipName(name string) bool {
	if strings.HasPrefix(name, ".") {
		return true
	}
	switch name {
	case "@eaDir", "#recycle", "$RECYCLE.BIN", "System Volume Information", "lost+found":
		return true
	}
	return false
}

// fileEntry is one video file as the walk saw it.
type fileEntry struct {
	path  string
	size  int64
	mtime time.Time
}

// listing is the video files of one folder.
type listing struct {
	dir   string
	tgt   *target
	files []fileEntry
}

type dirJob struct {
	path  string
	real  string // the folder with symbolic links resolved
	tgt   *target
	depth int
}

// walkSink hears what the walk could not read, and where it is.
type walkSink interface {
	// fail reports a path that could not be read; nothing under it may be
	// taken as gone.
	fail(path string, err error)
	// problem reports something skipped on purpose (a loop, too deep).
	problem(path, what string)
	// reading says which folder is being read now.
	reading(path string)
}

// walker reads folders with bounded concurrency. Jobs wait in an unbounded
// queue (a worker that finds subfolders must never block on a full
// channel), while listings go out through a bounded channel, which is the
// back-pressure on the walk.
type walker struct {
	fs      FileSystem
	targets []target
	sink    walkSink
	out     chan<- listing
	mu      sync.Mutex
	cond    *sync.Cond
	queue   []dirJob
	pending int
	// followed holds the resolved targets of symbolic links already walked,
	// and the roots, so a link into a walked tree is not walked twice.
	followed map[string]bool
}

func newWalker(fsys FileSystem, targets []target, sink walkSink, out chan<- listing) *walker {
	w := &walker{fs: fsys, targets: targets, sink: sink, out: out, followed: map[string]bool{}}
	w.cond = sync.NewCond(&w.mu)
	return w
}

// walk reads every target and closes out when done or cancelled.
func (w *walker) walk(ctx context.Context, workers int) {
	defer close(w.out)
	for i := range w.targets {
		t := &w.targets[i]
		if t.isFile {
			w.emitFile(ctx, t)
			continue
		}
		real, err := w.fs.RealPath(t.path)
		if err != nil {
			w.sink.fail(t.path, err)
			continue
		}
		w.followed[real] = true
		w.push(dirJob{path: t.path, real: real, tgt: t})
	}
	stop := context.AfterFunc(ctx, func() { w.mu.Lock(); w.cond.Broadcast(); w.mu.Unlock() })
	defer stop()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() { w.work(ctx) })
	}
	wg.Wait()
}

func (w *walker) push(j dirJob) {
	w.mu.Lock()
	w.queue = append(w.queue, j)
	w.pending++
	w.cond.Signal()
	w.mu.Unlock()
}

// next waits for a job; false when the walk is over or cancelled.
func (w *walker) next(ctx context.Context) (dirJob, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for len(w.queue) == 0 && w.pending > 0 && ctx.Err() == nil {
		w.cond.Wait()
	}
	if len(w.queue) == 0 || ctx.Err() != nil {
		return dirJob{}, false
	}
	j := w.queue[len(w.queue)-1]
	w.queue = w.queue[:len(w.queue)-1]
	return j, true
}

func (w *walker) done() {
	w.mu.Lock()
	w.pending--
	if w.pending == 0 {
		w.cond.Broadcast()
	}
	w.mu.Unlock()
}

func (w *walker) work(ctx context.Context) {
	for {
		j, ok := w.next(ctx)
		if !ok {
			return
		}
		w.read(ctx, j)
		w.done()
	}
}

// read lists one folder: subfolders become jobs, video files a listing.
func (w *walker) read(ctx context.Context, j dirJob) {
	w.sink.reading(j.path)
	entries, err := w.fs.ReadDirStat(j.path, isVideo)
	if err != nil {
		w.sink.fail(j.path, err)
		return
	}
	l := listing{dir: j.path, tgt: j.tgt}
	// Subfolders are queued last-first, so that the last-in-first-out
	// queue hands them out in name order: records then reach the database
	// roughly sorted by path, which keeps its path index writes local.
	for i := len(entries) - 1; i >= 0; i-- {
		if e := entries[i]; e.IsDir() && !skipName(e.Name()) {
			w.subdir(j, join(j.path, e.Name()), j.real+"/"+e.Name())
		}
	}
	for _, e := range entries {
		if skipName(e.Name()) || e.IsDir() {
			continue
		}
		p := join(j.path, e.Name())
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			w.symlink(j, p, e.Name(), &l)
		case e.Type().IsRegular() && isVideo(e.Name()):
			if info, err := e.Info(); err == nil {
				l.files = append(l.files, fileEntry{path: p, size: info.Size(), mtime: info.ModTime()})
			} else {
				w.sink.fail(p, err)
			}
		}
	}
	if len(l.files) > 0 {
		select {
		case w.out <- l:
		case <-ctx.Done():
		}
	}
}

// join is filepath.Join for a clean folder and a name read from it, without
// cleaning the whole path again for every file of the library.
func join(dir, name string) string {
	if dir != "" && os.IsPathSeparator(dir[len(dir)-1]) {
		return dir + name
	}
	return dir + string(filepath.Separator) + name
}

func (w *walker) subdir(parent dirJob, p, real string) {
	if parent.depth+1 > maxDepth {
		w.sink.fail(p, errTooDeep)
		return
	}
	w.push(dirJob{path: p, real: real, tgt: parent.tgt, depth: parent.depth + 1})
}

// symlink follows a link: to a video file it is a file; to a folder it is
// walked unless that folder is already part of the walk (a link into the
// library) or contains the link (a loop, reported as an error).
func (w *walker) symlink(parent dirJob, p, name string, l *listing) {
	info, err := w.fs.Stat(p)
	if err != nil {
		w.sink.fail(p, err)
		return
	}
	if !info.IsDir() {
		if info.Mode().IsRegular() && isVideo(name) {
			l.files = append(l.files, fileEntry{path: p, size: info.Size(), mtime: info.ModTime()})
		}
		return
	}
	real, err := w.fs.RealPath(p)
	if err != nil {
		w.sink.fail(p, err)
		return
	}
	if domain.PathWithin(real, parent.real) {
		w.sink.problem(p, "symbolic link loop: it points to a folder that contains it")
		return
	}
	w.mu.Lock()
	seen := w.followed[real] || w.insideFollowed(real)
	w.followed[real] = true
	w.mu.Unlock()
	if !seen {
		w.subdir(parent, p, real)
	}
}

// insideFollowed reports whether real lies in a tree already walked; the
// caller holds w.mu.
func (w *walker) insideFollowed(real string) bool {
	for f := range w.followed {
		if domain.PathWithin(f, real) {
			return true
		}
	}
	return false
}

// emitFile sends a target that is a single video file.
func (w *walker) emitFile(ctx context.Context, t *target) {
	info, err := w.fs.Stat(t.path)
	if err != nil {
		w.sink.fail(t.path, err)
		return
	}
	l := listing{dir: filepath.Dir(t.path), tgt: t,
		files: []fileEntry{{path: t.path, size: info.Size(), mtime: info.ModTime()}}}
	select {
	case w.out <- l:
	case <-ctx.Done():
	}
}
