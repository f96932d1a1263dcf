package torrent

import (
	"cmp"
	"context"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"mediateka/domain"
)

// Bounds of the relocation's walk: a library is a few levels deep, and a
// folder tree of a million entries is read in seconds; a deeper or larger
// one (a link loop the visited set missed, a mistaken folder) stops there
// and the result says it was cut short.
const (
	maxWalkDepth   = 16
	maxWalkEntries = 1_000_000
)

// fileKey is what a torrent's file is looked for by: its base name and size.
type fileKey struct {
	name string
	size int64
}

// wantedFiles are the files of every torrent being relocated.
type wantedFiles struct {
	keys  map[fileKey]bool
	names map[string]bool
}

// want adds the files a torrent needs on disk.
func (w *wantedFiles) want(files []domain.TorrentFile) {
	for _, f := range required(files) {
		base := path.Base(f.Name)
		w.keys[fileKey{base, f.Size}] = true
		w.names[base] = true
	}
}

// required are the files that must be on disk: chosen for download and
// not empty (an empty file need not exist for the data to be complete).
func required(files []domain.TorrentFile) []domain.TorrentFile {
	return slices.DeleteFunc(slices.Clone(files), func(f domain.TorrentFile) bool { return f.Skipped || f.Size == 0 })
}

// foundFiles are the files of the walk that some torrent wants.
type foundFiles struct {
	sizes map[string]int64     // full path → size
	byKey map[fileKey][]string // name and size → full paths, in walk order
}

// locate finds the folder that holds every required file of a torrent at
// its relative path with its size: the torrent's save path. The largest
// file's places are tried in turn, so a film found twice takes the first
// place where the whole torrent is.
func (f foundFiles) locate(files []domain.TorrentFile) (string, bool) {
	need := required(files)
	if len(need) == 0 {
		return "", false
	}
	anchor := slices.MaxFunc(need, func(a, b domain.TorrentFile) int { return cmp.Compare(a.Size, b.Size) })
	rel := string(filepath.Separator) + filepath.FromSlash(anchor.Name)
	for _, p := range f.byKey[fileKey{path.Base(anchor.Name), anchor.Size}] {
		dir, ok := strings.CutSuffix(p, rel)
		if !ok {
			continue
		}
		if dir == "" {
			dir = "/"
		}
		if slices.IndexFunc(need, func(n domain.TorrentFile) bool {
			size, ok := f.sizes[filepath.Join(dir, filepath.FromSlash(n.Name))]
			return !ok || size != n.Size
		}) < 0 {
			return dir, true
		}
	}
	return "", false
}

// walker reads the folders breadth first, keeping the files wanted. A
// link is followed only when it resolves inside the walked folders, and a
// folder reached through links is walked once.
type walker struct {
	ctx       context.Context
	fs        FileSystem
	want      wantedFiles
	realDirs  []string
	visited   map[string]bool
	entries   int
	truncated bool
	out       foundFiles
	queue     []walkItem
}

type walkItem struct {
	path  string
	depth int
}

// walkFor walks dirs for the wanted files.
func walkFor(ctx context.Context, fsys FileSystem, dirs []string, want wantedFiles) (foundFiles, bool, error) {
	w := &walker{ctx: ctx, fs: fsys, want: want, visited: map[string]bool{},
		out: foundFiles{sizes: map[string]int64{}, byKey: map[fileKey][]string{}}}
	for _, d := range dirs {
		real := d
		if rp, err := fsys.RealPath(d); err == nil {
			real = rp
		}
		w.realDirs = append(w.realDirs, real)
		w.visited[real] = true
		w.queue = append(w.queue, walkItem{path: d})
	}
	err := w.run()
	return w.out, w.truncated, err
}

func (w *walker) run() error {
	for len(w.queue) > 0 {
		if err := w.ctx.Err(); err != nil {
			return err
		}
		it := w.queue[0]
		w.queue = w.queue[1:]
		list, err := w.fs.ReadDir(it.path)
		if err != nil {
			continue // unreadable or gone: nothing of it can be found
		}
		for _, e := range list {
			if w.entries++; w.entries > maxWalkEntries {
				w.truncated = true
				return nil
			}
			w.entry(it, e)
		}
	}
	return nil
}

// entry handles one folder entry.
func (w *walker) entry(it walkItem, e fs.DirEntry) {
	full := filepath.Join(it.path, e.Name())
	switch t := e.Type(); {
	case t&fs.ModeSymlink != 0:
		w.link(it, full, e.Name())
	case t.IsDir():
		w.enqueue(full, it.depth+1)
	case t.IsRegular() && w.want.names[e.Name()]:
		if info, err := e.Info(); err == nil {
			w.file(full, e.Name(), info.Size())
		}
	}
}

// link follows a symbolic link that resolves inside the walked folders.
func (w *walker) link(it walkItem, full, name string) {
	real, err := w.fs.RealPath(full)
	if err != nil || !slices.ContainsFunc(w.realDirs, func(d string) bool { return domain.PathWithin(d, real) }) {
		return
	}
	info, err := w.fs.Stat(full)
	switch {
	case err != nil:
	case info.IsDir() && !w.visited[real]:
		w.visited[real] = true
		w.enqueue(full, it.depth+1)
	case info.Mode().IsRegular() && w.want.names[name]:
		w.file(full, name, info.Size())
	}
}

func (w *walker) enqueue(p string, depth int) {
	if depth > maxWalkDepth {
		w.truncated = true
		return
	}
	w.queue = append(w.queue, walkItem{path: p, depth: depth})
}

func (w *walker) file(full, name string, size int64) {
	k := fileKey{name, size}
	if !w.want.keys[k] {
		return
	}
	w.out.sizes[full] = size
	w.out.byKey[k] = append(w.out.byKey[k], full)
}
