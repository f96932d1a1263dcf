// Package release reads what a video file's name and its folders say about
// it: titles in Russian and the original language, year, season and episode,
// quality, source, codec, other release tags and the library category. The
// scanner uses it to build movie and series → season → episode records; the
// torrent use cases use it on torrent names. Everything here is a pure
// function of its input: no I/O, no clock except the one passed in.
package release

import (
	"strings"
	"time"

	"mediateka/domain"
)

// Release is what a name says about a video file. Zero values mean unknown.
type Release struct {
	// Title is the best display title: Russian when the name has it, else
	// the original title, else the transliterated one (see Translit). For an
	// episode whose file name has no title it is the series title.
	Title string
	// TitleRu is the title written in Cyrillic, TitleOrig the one in another
	// script (usually English), as in "Русское / Original".
	TitleRu   string
	TitleOrig string
	// Translit is true when Title is Russian written in Latin letters
	// ("Polnoch' v Parizhe"); TitleRu and TitleOrig are then empty, since the
	// name holds neither spelling.
	Translit bool
	// Year is the release year, from 1900 to the year after "now"; 0 when
	// unknown. Numbers such as 1080 or 2160 are never years.
	Year int
	// MediaType is domain.MediaEpisode for a file with season or episode
	// information (in its name or its folders), domain.MediaMovie otherwise.
	MediaType string
	// Season is the season number; HasSeason tells season 0 (specials, S00)
	// from an unknown season.
	Season    int
	HasSeason bool
	// Episode is the first episode number (0 when unknown) and EpisodeEnd the
	// last of a range (S01E01-E08, "Серии 1-8 из 10"); without a range
	// EpisodeEnd equals Episode. EpisodesTotal is the "из 10" / "of 10" count.
	Episode       int
	EpisodeEnd    int
	EpisodesTotal int
	// EpisodeTitle is the text after the episode marker ("Pilot" in
	// Breaking.Bad.S01E01.Pilot.720p), or the title of a file with no marker
	// in a season folder when it is not the series' ("Сезон 1/1 Пилот.avi").
	EpisodeTitle string
	// SeriesTitle is the series an episode belongs to: the folder above a
	// season folder, a season folder's own title, or the file name before
	// the marker. Empty for movies.
	SeriesTitle string
	// Quality is the resolution (2160p, 1080p, 720p, 480p …), Source where
	// the video came from (BluRay, BDRip, WEB-DL, WEBRip, HDTV, DVDRip …),
	// Codec the video codec (x264, x265, HEVC, AVC …).
	Quality string
	Source  string
	Codec   string
	// Tags are the other release tags recognised, in order and once each:
	// scene group, HDR, audio, language and dub, edition, studio, tracker.
	Tags []string
	// Category is the domain category slug from the nearest folder whose
	// name is a category ("фильмы/Боевики" → "action"), "" if none.
	Category string
}

// Parse reads a video file's base name and the names of the folders above
// it, nearest first: for /films/Боевики/Ronin (1998)/ronin.mkv the call is
// Parse("ronin.mkv", []string{"Ronin (1998)", "Боевики", "films"}). Years are
// bounded by the current clock; use ParseAt in tests.
func Parse(fileName string, parents []string) Release {
	return ParseAt(fileName, parents, time.Now())
}

// ParseAt is Parse with the clock injected: years later than now's next year
// are not years. It never panics, whatever bytes it is given; names longer
// than a few hundred bytes are cut first, so the work per name is bounded.
func ParseAt(fileName string, parents []string, now time.Time) Release {
	maxYear := now.Year() + 1
	return parseWith(fileName, readFolders(parents, maxYear), maxYear)
}

// parseWith reads a file name in the light of what its folders say. dirs
// is the caller's copy; the parses it points to are only read, so a Parser
// can share them between the files of one folder.
func parseWith(fileName string, dirs folders, maxYear int) Release {
	f := inFolders(parseName(fileName, true, maxYear), &dirs)
	r := fromParsed(f)
	r.Category = dirs.category
	var folderRu string
	if f.hasSeason || f.hasEpisode || dirs.season != nil {
		r.MediaType = domain.MediaEpisode
		fillEpisode(&r, f, dirs)
	} else {
		r.MediaType = domain.MediaMovie
		folderRu = fillMovie(&r, f, dirs)
	}
	r.Title = firstNonEmpty(r.TitleRu, r.TitleOrig, r.Title)
	if r.Title == "" {
		r.Title = r.SeriesTitle
	}
	if folderRu != "" && r.TitleRu == "" {
		// Shown by the file's own title, found by the folder's too.
		r.TitleRu = folderRu
		r.TitleOrig = firstNonEmpty(r.TitleOrig, r.Title)
	}
	return r
}

// inFolders reads the file's name again in the light of its folders: a
// generic or obfuscated name gives way to the folder's, a season folder or
// the series' own folder makes a bare number the episode. It returns the
// parse to use, which is the folder's own for an obfuscated file.
func inFolders(f *parsed, dirs *folders) *parsed {
	d := dirs.nearest
	if d != nil && f.year == 0 && isGenericTitle(f.display()) {
		f.titleRu, f.titleOrig, f.titleRaw, f.translit = "", "", "", false // "movie.mkv"
	}
	f = fromReleaseFolder(f, d)
	switch {
	case f.hasSeason:
		f.contextEpisode(f.season, dirs.series)
	case dirs.season != nil:
		f.contextEpisode(dirs.season.season, dirs.series)
	case d == nil:
	case f.partInFolder(d, *dirs), f.folderEpisode(d, *dirs):
		dirs.series = d
	default:
		f.seasonBeforeNumber(d)
	}
	return f
}

// fromParsed copies what the file name alone says.
func fromParsed(f *parsed) Release {
	return Release{
		Title: f.titleRaw, TitleRu: f.titleRu, TitleOrig: f.titleOrig, Translit: f.translit,
		Year: f.year, Season: f.season, HasSeason: f.hasSeason,
		Episode: f.episode, EpisodeEnd: f.episodeEnd, EpisodesTotal: f.total,
		EpisodeTitle: f.episodeTitle,
		Quality:      f.quality, Source: f.source, Codec: f.codec, Tags: f.tags,
	}
}

// fillEpisode completes an episode from its folders: the season and the
// episode count from a season folder, the series title (and year) from the
// folder that names the series, else from the file name.
func fillEpisode(r *Release, f *parsed, dirs folders) {
	if s := dirs.season; s != nil {
		if !r.HasSeason {
			r.Season, r.HasSeason = s.season, true
		}
		if r.EpisodesTotal == 0 && r.Season == s.season {
			r.EpisodesTotal = s.total
		}
	}
	series := dirs.series
	if series == nil && dirs.nearest != nil && (f.display() == "" || startsWithTitle(f, dirs.nearest)) {
		series = dirs.nearest // "Tea Club (2014)/Tea Club - 07.mkv"
	}
	if series == nil {
		r.SeriesTitle = f.display()
		return
	}
	r.SeriesTitle = series.display()
	if r.Year == 0 {
		r.Year = series.year
	}
	switch {
	case f.display() == "":
		r.TitleRu, r.TitleOrig, r.Translit = series.titleRu, series.titleOrig, series.translit
	case r.EpisodeTitle == "" && f.marker < 0 && !sameTitle(f, series):
		// No marker in the name, so its title is not a series prefix: in
		// "Сезон 1/1 Пилот.avi" under "Прослушка" it names the episode.
		r.EpisodeTitle = f.display()
	}
}

// fillMovie completes a movie from the folder it sits in: a file with no
// title of its own ("01.mkv", "VIDEO_TS") takes the folder's; a folder with
// the same title lends its year and other-language title. It returns the
// folder's Russian title when the file names the film by its original
// title instead (see russianFromFolder).
func fillMovie(r *Release, f *parsed, dirs folders) string {
	d := dirs.nearest
	if d == nil {
		return ""
	}
	if f.display() == "" {
		r.Title, r.TitleRu, r.TitleOrig, r.Translit = d.titleRaw, d.titleRu, d.titleOrig, d.translit
		if r.Year == 0 {
			r.Year = d.year
		}
		return ""
	}
	if !sameTitle(f, d) {
		return russianFromFolder(r, f, d)
	}
	if r.Year == 0 {
		r.Year = d.year
	}
	if r.TitleRu == "" && !r.Translit {
		r.TitleRu = d.titleRu
	}
	if r.TitleOrig == "" && !r.Translit {
		r.TitleOrig = d.titleOrig
	}
	return ""
}

// russianFromFolder lends a movie folder's Russian title to a file of the
// same year that names the film only in Latin letters: transliterated
// ("Джентльмены удачи (1971)/Dzhentlmeny.udachi.1971.DVDRip.avi") or
// abbreviated ("Терминатор 2 Судный день (1991)/T2.1991.BDRip.mkv"). A
// real original ("Матрица (1999)/The.Matrix.1999.mkv") keeps its own title
// as the one shown, and the folder's Russian title is returned, for the
// caller to keep as the Russian title once the shown one is settled:
// people search the film by either. The file's Latin title stays the
// original unless it is transliterated or the folder has an original of
// its own.
func russianFromFolder(r *Release, f, d *parsed) string {
	if r.Year == 0 || r.Year != d.year || f.titleRu != "" || d.titleRu == "" {
		return ""
	}
	if translitOf(f.display(), d.titleRu) {
		r.Translit = true
	} else if !r.Translit && !abbreviated(f.display()) {
		return d.titleRu
	}
	r.TitleRu = d.titleRu
	if r.Translit || d.titleOrig != "" {
		r.TitleOrig, r.Translit = d.titleOrig, false
	}
	return ""
}

// abbreviated reports a title too short to be one: "T2", "LotR", "hp3".
func abbreviated(t string) bool {
	return len(t) <= 4 && !strings.ContainsRune(t, ' ')
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
