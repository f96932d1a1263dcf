package release

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"mediateka/domain"
)

// folders is what the folders above a file say about it.
type folders struct {
	category string  // nearest category folder's slug
	season   *parsed // nearest of the two lowest folders with a season
	series   *parsed // the folder that names the series of that season
	nearest  *parsed // the file's own folder, when it names a work
	shelf    bool    // a folder above the file's own holds series ("TV", "Сериалы")
	movies   bool    // a folder above the file's own holds movies ("Movies", "Фильмы")
}

// readFolders reads the parents, nearest first. Only the lowest levels are
// parsed as release names, and only when needed: the file's own folder, a
// season folder right above the file or one level higher (with an extras
// folder between), and the folder above a bare season folder. Levels up to
// maxParents are checked for a category, nearest first, until one matches.
func readFolders(parents []string, maxYear int) folders {
	f := folderReader{names: parents[:min(len(parents), maxParents)], maxYear: maxYear}
	var d folders
	for i := 0; i < len(f.names) && (d.category == "" || !d.shelf && !d.movies); i++ {
		if i > 0 && !d.shelf && !d.movies {
			d.shelf, d.movies = shelfOf(f.names[i])
		}
		if d.category == "" {
			d.category = f.category(i)
		}
	}
	own := 0
	if len(f.names) > 1 && isPartFolder(f.names[0]) {
		own = 1 // "Movie (2011)/CD1/movie.cd1.avi"
	}
	if f.named(own) {
		d.nearest = f.read(own)
	}
	for i := 0; i < 2 && i < len(f.names); i++ {
		if !maySeason(f.names[i]) || !f.read(i).hasSeason {
			continue
		}
		d.season = f.read(i)
		switch {
		case f.named(i):
			d.series = f.read(i)
		case f.named(i + 1):
			d.series = f.read(i + 1)
		}
		break
	}
	return d
}

// folderReader parses folder names and looks up their categories at most
// once each, since both are asked for more than once.
type folderReader struct {
	names   []string
	maxYear int
	parsed  [3]*parsed
	cats    [maxParents]string
	catDone [maxParents]bool
}

// read parses folder i, one of the three lowest; nil beyond them.
func (f *folderReader) read(i int) *parsed {
	if i >= len(f.names) || i >= len(f.parsed) {
		return nil
	}
	if f.parsed[i] == nil {
		f.parsed[i] = readFolder(f.names[i], f.maxYear)
	}
	return f.parsed[i]
}

// category is folder i's category slug, "" for none or a generic shelf.
func (f *folderReader) category(i int) string {
	if !f.catDone[i] {
		f.catDone[i] = true
		if !isGeneric(f.names[i]) {
			f.cats[i] = categoryFor(f.names[i])
		}
	}
	return f.cats[i]
}

// named reports whether folder i names a work: it has a title and is no
// category, no generic shelf ("Сериалы", "Movies", "Downloads") and no bare
// season folder.
func (f *folderReader) named(i int) bool {
	if i >= len(f.names) || i >= len(f.parsed) || isGeneric(f.names[i]) {
		return false
	}
	return f.category(i) == "" && f.read(i).display() != ""
}

// maySeason is a cheap test before parsing a folder for a season: every
// season marker has a digit in it, except a specials folder's name.
func maySeason(name string) bool {
	return strings.ContainsAny(name, "0123456789") || isSpecials(name)
}

// readFolder parses one folder name; "Specials" and its kin are season 0.
func readFolder(name string, maxYear int) *parsed {
	p := parseName(name, false, maxYear)
	if isSpecials(name) {
		p.season, p.hasSeason = 0, true
		p.titleRu, p.titleOrig, p.titleRaw = "", "", ""
	}
	return p
}

// maxAliasBytes bounds the length of a category alias, so long folder
// names skip the category lookup.
const maxAliasBytes = 48

// categoryFor maps a folder name to a category slug, also trying it without
// a leading number and with underscores and dots as spaces ("01. Боевики",
// "Sci_Fi", "Science.Fiction").
func categoryFor(name string) string {
	name = strings.TrimLeftFunc(strings.TrimSpace(name), func(r rune) bool {
		return unicode.IsDigit(r) || unicode.IsSpace(r) || unicode.IsPunct(r)
	})
	if name == "" || len(name) > maxAliasBytes || strings.ContainsAny(name, "0123456789()[]{}") {
		return ""
	}
	if c := domain.CategoryForName(name); c != "" || !strings.ContainsAny(name, "._") {
		return c
	}
	return domain.CategoryForName(strings.Join(strings.FieldsFunc(name, func(r rune) bool {
		return r == '_' || r == '.' || unicode.IsSpace(r)
	}), " "))
}

// isGeneric lists shelf folders that name no work: generic words and the
// index folders of an alphabetical library ("A", "Б", "0-9", "#", "А-Г").
func isGeneric(name string) bool {
	if isIndexName(name) {
		return true
	}
	var buf [shortName]byte
	switch string(lowerShort(&buf, name)) {
	case "movies", "movie", "films", "film", "фильмы", "фильм", "кино", "кинофильмы",
		"сериалы", "сериал", "series", "tv", "tv series", "serials", "мультсериалы",
		"video", "videos", "видео", "media", "медиа", "downloads", "download", "загрузки",
		"torrents", "торренты", "complete", "new", "новое", "extras", "bonus", "бонусы",
		"featurettes", "subs", "subtitles", "sample", "samples", "video_ts", "bdmv", "stream",
		"trailers", "behind the scenes", "deleted scenes", "interviews", "shorts":
		return true
	}
	return false
}

// isSpecials recognises folders of specials, filed as season 0.
func isSpecials(name string) bool {
	var buf [shortName]byte
	switch string(lowerShort(&buf, name)) {
	case "specials", "special", "спецвыпуски", "спецвыпуск", "спешлы", "season 0", "сезон 0":
		return true
	}
	return false
}

// shortName is the longest folder name isGeneric and isSpecials look at.
const shortName = 32

// lowerShort writes name, trimmed and in lower case, into buf without
// allocating; nil when it does not fit, which matches no short word.
func lowerShort(buf *[shortName]byte, name string) []byte {
	name = strings.TrimSpace(name)
	if len(name) > shortName {
		return nil
	}
	out := buf[:0]
	for _, r := range name {
		out = utf8.AppendRune(out, unicode.ToLower(r))
		if len(out) > shortName-utf8.UTFMax {
			return nil
		}
	}
	return out
}

// fold reduces a title to lower-case letters and digits, ё as е, for
// comparing titles written differently.
func fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range strings.ToLower(s) {
		switch {
		case r == 'ё':
			b.WriteRune('е')
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isIndexName reports a name that only indexes a shelf: one letter, digit
// or sign ("A", "Б", "#"), or a range of them ("0-9", "А-Г", "A - C").
func isIndexName(name string) bool {
	var rs [4]rune
	n := 0
	for _, r := range name {
		if r == ' ' {
			continue
		}
		if n == len(rs) {
			return false
		}
		rs[n] = r
		n++
	}
	switch n {
	case 1:
		return isAlnum(rs[0]) || strings.ContainsRune("#!&@~_", rs[0])
	case 3:
		return rs[1] == '-' && isAlnum(rs[0]) && isAlnum(rs[2])
	}
	return false
}
