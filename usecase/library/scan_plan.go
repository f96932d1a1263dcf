package library

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
)

// maxParents is how many folder names above a file the parser sees.
const maxParents = 8

// job is one video file that needs a write: new, changed, or back after
// being missing (revive: only its status changes).
type job struct {
	file   fileEntry
	known  *knownRec
	revive bool
	media  domain.Media
	// parent is the season of an episode or of a season pack, nil for movies.
	parent *container
}

// container is a series or season record an episode hangs under, created
// on first need.
type container struct {
	path   string
	media  domain.Media
	parent *container
}

// folderKind classifies a folder for the series → season → episode tree.
type folderKind int

const (
	folderPlain   folderKind = iota // may name a series or a movie
	folderShelf                     // a root, a category or a generic shelf: names no work
	folderSeason                    // carries a season marker
	folderEpisode                   // holds one episode (scene releases)
)

type folderInfo struct {
	kind   folderKind
	season int
	rel    Release
}

// planner turns listings into jobs for one plan worker: the parser is its
// own (it need not be safe for concurrent use), the folder cache is shared
// by all the workers of a scan.
type planner struct {
	run    *scanRun
	parse  Parser
	shared *folderCache
}

// folderCache holds each folder's classification, made once per scan.
type folderCache struct {
	mu      sync.Mutex
	folders map[string]folderInfo
}

func newFolderCache() *folderCache { return &folderCache{folders: map[string]folderInfo{}} }

func newPlanner(run *scanRun, shared *folderCache) *planner {
	return &planner{run: run, parse: run.s.opt.NewParser(), shared: shared}
}

// plan returns the jobs of one folder's files; unchanged files only count
// as seen.
func (p *planner) plan(l listing) []job {
	var jobs []job
	add := func(j job) {
		if jobs == nil { // a job holds a whole record: grow the list once
			jobs = make([]job, 0, len(l.files))
		}
		jobs = append(jobs, j)
	}
	for _, f := range l.files {
		k := p.run.known[f.path]
		if k != nil {
			k.seen.Store(true)
		}
		if k != nil && k.sameFile(f) {
			if k.missing {
				add(job{file: f, known: k, revive: true})
			}
			continue
		}
		add(p.fileJob(l, f, k))
	}
	return jobs
}

// fileJob parses a new or changed file into its record and lineage.
func (p *planner) fileJob(l listing, f fileEntry, k *knownRec) job {
	rel := p.parse(filepath.Base(f.path), p.parents(l.dir, l.tgt.root.Path))
	j := job{file: f, known: k}
	m := domain.Media{DiskName: l.tgt.root.Disk, Path: f.path, Status: domain.StatusOK, Size: f.size,
		ModTime: f.mtime.UTC(), MainCategory: rel.Category}
	if !rel.Episode {
		m.MediaType = domain.MediaMovie
		m.Title = cleanTitle(rel.Title, f.path)
		m.TitleRu, m.TitleOrig, m.Year = clean(rel.TitleRu), clean(rel.TitleOrig), yearPtr(rel.Year)
		j.media = m
		return j
	}
	series := p.series(l, rel)
	season := rel.Season
	if !rel.HasSeason {
		season = 1 // an episode with no season belongs to the first
	}
	if rel.HasSeason && rel.EpisodeNum == 0 && !p.numberedBeside(l, f, rel.Season) {
		// A whole season in one file: the file is the season record.
		m.MediaType, m.EpisodeScanSkipped, m.Number = domain.MediaSeason, 1, intPtr(season)
		copyTitles(&m, series.media)
		j.media, j.parent = m, series
		return j
	}
	m.MediaType, m.Year = domain.MediaEpisode, yearPtr(rel.Year)
	if rel.EpisodeNum > 0 {
		m.Number = intPtr(rel.EpisodeNum)
	}
	copyTitles(&m, series.media)
	if t := clean(rel.EpisodeTitle); t != "" {
		m.Title = t
	}
	j.media, j.parent = m, p.season(l, series, season)
	return j
}

// maxSiblingsRead bounds how many other files of a folder numberedBeside
// parses, so a folder of many unnumbered files costs little.
const maxSiblingsRead = 16

// numberedBeside reports whether another file of f's folder is a numbered
// episode of season: then f, a file of that season without a number of its
// own ("Dark/Season 1/c48db7d2e1.mkv"), is one more episode of the season
// the folder holds, not a whole season in one file beside it.
func (p *planner) numberedBeside(l listing, f fileEntry, season int) bool {
	read, parents := 0, p.parents(l.dir, l.tgt.root.Path)
	for _, g := range l.files {
		if g.path == f.path {
			continue
		}
		if read++; read > maxSiblingsRead {
			return false
		}
		r := p.parse(filepath.Base(g.path), parents)
		if r.Episode && r.EpisodeNum > 0 && r.Season == season {
			return true
		}
	}
	return false
}

// series finds the series an episode in folder l.dir belongs to: the
// folder itself, or the folder above its season folder, when that folder
// names a work; otherwise a series without a folder, "<folder>#<title>",
// shared by every season folder of that title on the same shelf.
func (p *planner) series(l listing, rel Release) *container {
	dir := p.skipEpisodeFolders(l.dir, l.tgt.root.Path)
	info := p.folder(dir, l.tgt.root.Path)
	var seasonRel *Release
	if info.kind == folderSeason && (!rel.HasSeason || info.season == rel.Season) {
		seasonRel = &info.rel
		dir = filepath.Dir(dir)
		info = p.folder(dir, l.tgt.root.Path)
	}
	title := firstOf(clean(rel.SeriesTitle), clean(rel.Title))
	m := domain.Media{DiskName: l.tgt.root.Disk, MediaType: domain.MediaSeries, Status: domain.StatusOK,
		MainCategory: rel.Category}
	var path string
	// A season folder that does not match the episode's season (a pack
	// of seasons, "Show.S01-S05") names the series like a plain folder.
	if info.kind == folderPlain || info.kind == folderSeason {
		path = dir
		mergeTitles(&m, info.rel, rel)
		m.Title = firstOf(m.Title, title, filepath.Base(dir))
	} else {
		key := textmatch.Normalize(title)
		if key == "" {
			key = "untitled"
		}
		path = dir + "#" + key
		if seasonRel != nil {
			mergeTitles(&m, *seasonRel, rel)
		} else {
			mergeTitles(&m, Release{}, rel)
		}
		m.Title = firstOf(m.Title, title, "untitled")
	}
	m.Path = path
	return &container{path: path, media: m}
}

// season returns the season record of an episode: its season folder, or
// "<series path>#S01" when the season has no folder of its own.
func (p *planner) season(l listing, series *container, number int) *container {
	path := fmt.Sprintf("%s#S%02d", series.path, number)
	dir := p.skipEpisodeFolders(l.dir, l.tgt.root.Path)
	if info := p.folder(dir, l.tgt.root.Path); info.kind == folderSeason && info.season == number &&
		(series.path == filepath.Dir(dir) || strings.HasPrefix(series.path, filepath.Dir(dir)+"#")) {
		path = dir
	}
	m := domain.Media{DiskName: series.media.DiskName, Path: path, MediaType: domain.MediaSeason,
		Status: domain.StatusOK, Number: intPtr(number), MainCategory: series.media.MainCategory}
	copyTitles(&m, series.media)
	return &container{path: path, media: m, parent: series}
}

// skipEpisodeFolders climbs out of folders that hold a single episode
// ("Show.S01E01.720p/show.s01e01.mkv"): they name no season or series.
func (p *planner) skipEpisodeFolders(dir, root string) string {
	for dir != root && domain.PathWithin(root, dir) && p.folder(dir, root).kind == folderEpisode {
		dir = filepath.Dir(dir)
	}
	return dir
}

// folder classifies a folder once per scan.
func (p *planner) folder(dir, root string) folderInfo {
	c := p.shared
	c.mu.Lock()
	info, ok := c.folders[dir]
	c.mu.Unlock()
	if ok {
		return info
	}
	info = p.classify(dir, root)
	c.mu.Lock()
	c.folders[dir] = info
	c.mu.Unlock()
	return info
}

func (p *planner) classify(dir, root string) folderInfo {
	name := filepath.Base(dir)
	if dir == root || !domain.PathWithin(root, dir) || isShelf(name) {
		return folderInfo{kind: folderShelf}
	}
	parse := p.parse
	rel := parse(name, p.parents(filepath.Dir(dir), root))
	if own := parse(name, nil); own.Episode && own.EpisodeNum > 0 {
		return folderInfo{kind: folderEpisode, rel: rel}
	}
	if probe := parse("video.mkv", []string{name}); probe.HasSeason {
		return folderInfo{kind: folderSeason, season: probe.Season, rel: rel}
	}
	return folderInfo{kind: folderPlain, rel: rel}
}

// parents lists the folder names from dir up to the root's own name,
// nearest first, as the parser wants them.
func (p *planner) parents(dir, root string) []string {
	var out []string
	for len(out) < maxParents {
		out = append(out, filepath.Base(dir))
		if dir == root || !domain.PathWithin(root, dir) {
			break
		}
		dir = filepath.Dir(dir)
	}
	return out
}

// isShelf reports folder names that group works without naming one: a
// category ("Боевики") or a generic shelf ("Сериалы", "Movies").
func isShelf(name string) bool {
	if domain.CategoryForName(name) != "" {
		return true
	}
	switch textmatch.Normalize(name) {
	case "фильмы", "кино", "сериалы", "мультсериалы", "видео", "загрузки", "торренты", "новое",
		"movies", "films", "series", "tv", "tv series", "video", "videos", "downloads", "torrents", "new", "media":
		return true
	}
	return false
}

func mergeTitles(m *domain.Media, folder, file Release) {
	m.TitleRu = firstOf(clean(folder.TitleRu), clean(file.TitleRu))
	m.TitleOrig = firstOf(clean(folder.TitleOrig), clean(file.TitleOrig))
	m.Title = firstOf(clean(folder.Title), m.TitleRu, m.TitleOrig)
	m.Year = yearPtr(folder.Year)
	if m.Year == nil {
		m.Year = yearPtr(file.Year)
	}
}

func copyTitles(dst *domain.Media, src domain.Media) {
	dst.Title, dst.TitleRu, dst.TitleOrig = src.Title, src.TitleRu, src.TitleOrig
}

// clean makes parsed text safe to store and show: valid UTF-8, trimmed.
func clean(s string) string {
	return strings.TrimSpace(strings.ToValidUTF8(s, "\uFFFD"))
}

// cleanTitle falls back to the file name when the parser found no title.
func cleanTitle(title, path string) string {
	if t := clean(title); t != "" {
		return t
	}
	base := filepath.Base(path)
	return clean(strings.TrimSuffix(base, filepath.Ext(base)))
}

func firstOf(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

func yearPtr(y int) *int {
	if y <= 0 {
		return nil
	}
	return &y
}

func intPtr(n int) *int { return &n }
