package offline

import (
	"slices"
	"strconv"
	"strings"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
)

// unit is what a question counts or asks for.
type unit int

// The units, from the whole work down to its files.
const (
	unitMovie unit = iota
	unitSeries
	unitSeason
	unitEpisode
)

// scope is what a question narrows the catalogue to: "комедий 2010 года на
// Disk 2", "серий во втором сезоне Кухни". Every part is optional.
type scope struct {
	units []unit // what is asked for, in the order asked
	topic *topic // a category or genre
	years years
	// disk is the stored disk name asked about; diskAsked is what followed
	// "disk"/"диск" when it named no disk of the library.
	disk, diskAsked string
	season          int      // a season number, 0 when none
	title           []string // the words left over: a title
	// wide is the title with the category word next to it, when there is
	// one: "Star Wars" is a title, not "star" on the war shelf.
	wide  []string
	vocab []string // the words read as the question's own
}

// years is an inclusive range of years; 0 leaves a side open.
type years struct{ from, to int }

func (y years) set() bool { return y.from != 0 || y.to != 0 }

func (y years) has(m domain.Media) bool {
	if !y.set() {
		return true
	}
	return m.Year != nil && (y.from == 0 || *m.Year >= y.from) && (y.to == 0 || *m.Year <= y.to)
}

// narrows reports whether the scope selects less than the whole catalogue
// of its units (a topic, years, a disk, a season or a title).
func (s scope) narrows() bool {
	return s.topic != nil || s.years.set() || s.disk != "" || s.diskAsked != "" || s.season != 0 || len(s.title) > 0
}

// has reports whether the scope asks for u.
func (s scope) has(u unit) bool { return slices.Contains(s.units, u) }

// reader walks the words of one question, marking those it has read.
type reader struct {
	words []string
	used  []bool
	s     scope
	// topicAt is where a category named in one or more words stands.
	topicAt [2]int
}

// parseScope reads the scope of a question from its normalised words.
// extra are the words of the question's own vocabulary besides the frame
// ("сколько", "посоветуй"…), dropped from the title; disks are the disk
// names of the library.
func parseScope(words []string, extra map[string]bool, disks []string) scope {
	r := &reader{words: words, used: make([]bool, len(words))}
	r.disks(disks)
	r.season()
	r.years()
	r.topicMarker()
	r.multiwordCategories()
	r.units()
	r.categories()
	r.rest(extra)
	return r.s
}

// take marks words i..j-1 read as vocabulary.
func (r *reader) take(i, j int) {
	for k := i; k < j; k++ {
		if !r.used[k] {
			r.used[k] = true
			r.s.vocab = append(r.s.vocab, r.words[k])
		}
	}
}

// free reports whether word i exists and is not read yet.
func (r *reader) free(i int) bool { return i >= 0 && i < len(r.words) && !r.used[i] }

// disks finds a disk of the library named in the question ("на Disk 2",
// "на диске 2", "on disk 2"), longest name first; "диск X" naming no disk
// is kept as diskAsked.
func (r *reader) disks(names []string) {
	names = slices.Clone(names)
	slices.SortFunc(names, func(a, b string) int { return len(b) - len(a) })
	for _, name := range names {
		dw := strings.Fields(textmatch.Normalize(name))
		for i := 0; len(dw) > 0 && i+len(dw) <= len(r.words); i++ {
			if r.diskAt(i, dw) {
				r.s.disk = name
				r.take(i, i+len(dw))
				if r.free(i-1) && isDiskWord(r.words[i-1]) { // "на диске Disk 2"
					r.take(i-1, i)
				}
				return
			}
		}
	}
	for i, w := range r.words {
		if isDiskWord(w) && r.free(i+1) {
			r.s.diskAsked = r.words[i+1]
			r.take(i, i+2)
			return
		}
	}
}

// diskAt reports whether the disk name's words dw stand at word i.
func (r *reader) diskAt(i int, dw []string) bool {
	for k, d := range dw {
		w := r.words[i+k]
		if r.used[i+k] || !(w == d || textmatch.Inflects(w, d) || (isDiskWord(w) && isDiskWord(d))) {
			return false
		}
	}
	return true
}

func isDiskWord(w string) bool {
	return w == "disk" || w == "disks" || w == "drive" || strings.HasPrefix(w, "диск")
}

// season finds "2 сезон", "во втором сезоне", "season 2", "second season".
func (r *reader) season() {
	for i, w := range r.words {
		if !strings.HasPrefix(w, "сезон") && !strings.HasPrefix(w, "season") {
			continue
		}
		for _, j := range []int{i + 1, i - 1} {
			if !r.free(j) {
				continue
			}
			if n, ok := textmatch.Ordinal(r.words[j]); ok && n > 0 && n < 100 {
				r.s.season = n
				r.take(min(i, j), max(i, j)+1)
				r.dropOrdinalSuffix(max(i, j) + 1)
				return
			}
		}
	}
}

// dropOrdinalSuffix reads a stray "й"/"м" left by "2-й", "2-м".
func (r *reader) dropOrdinalSuffix(i int) {
	if r.free(i) {
		switch r.words[i] {
		case "й", "м", "го", "ом", "ой":
			r.take(i, i+1)
		}
	}
}

// yearWords follow a year ("2010 года", "2010 year").
var yearWords = setOf("год", "года", "году", "годов", "годах", "г", "гг", "year", "years", "х", "x", "е", "ых", "s", "го")

// years finds a year ("2010 года", "from 2010"), a range side ("после
// 2010", "before 2000") or a decade ("90-х", "1990s", "девяностых").
func (r *reader) years() {
	for i, w := range r.words {
		if !r.free(i) {
			continue
		}
		if y, ok := yearOf(w); ok {
			r.yearAt(i, y)
			return
		}
		if d, ok := decadeOf(w, r.wordAt(i+1)); ok {
			r.s.years = years{d, d + 9}
			r.take(i, i+1)
			if r.free(i+1) && yearWords[r.words[i+1]] {
				r.take(i+1, i+2)
			}
			return
		}
	}
}

func (r *reader) wordAt(i int) string {
	if i < len(r.words) {
		return r.words[i]
	}
	return ""
}

// yearAt reads the year y at word i with the words around it.
func (r *reader) yearAt(i, y int) {
	r.s.years = years{y, y}
	from, to := i, i+1
	if i > 0 && r.free(i-1) {
		switch r.words[i-1] {
		case "после", "since", "after", "с", "со":
			r.s.years, from = years{from: y}, i-1
		case "до", "before", "until":
			r.s.years, from = years{to: y}, i-1
		}
	}
	if r.free(i+1) && yearWords[r.words[i+1]] {
		if s := r.words[i+1]; s == "х" || s == "x" || s == "е" || s == "ых" || s == "s" {
			r.s.years = years{y, y + 9} // "1990-х"
		}
		to = i + 2
	}
	r.take(from, to)
}

// yearOf reads a four-digit year of the films' era, or "1990s".
func yearOf(w string) (int, bool) {
	n, err := strconv.Atoi(w)
	return n, err == nil && len(w) == 4 && n >= 1890 && n <= 2099
}

// decadeWords are decades said in words.
var decadeWords = map[string]int{
	"семидесят": 1970, "восьмидесят": 1980, "девяност": 1990, "нулев": 2000,
	"seventies": 1970, "eighties": 1980, "nineties": 1990,
}

// decadeOf reads "90" + "х"/"s", "90s", "1990s", "90х" and decades in words.
func decadeOf(w, next string) (int, bool) {
	for stem, d := range decadeWords {
		if strings.HasPrefix(w, stem) {
			return d, true
		}
	}
	digits := strings.TrimRight(w, "sхxе")
	if digits == w && next != "х" && next != "x" && next != "s" && next != "е" && next != "ых" {
		return 0, false
	}
	n, err := strconv.Atoi(digits)
	switch {
	case err != nil || n%10 != 0:
		return 0, false
	case len(digits) == 4 && n >= 1900 && n <= 2090:
		return n, true
	case len(digits) == 2 && n >= 30:
		return 1900 + n, true
	case len(digits) == 2 && n <= 20:
		return 2000 + n, true
	}
	return 0, false
}

// units reads what is asked for: films, series, seasons, episodes.
// "мультфильмы" are films of the animation category.
func (r *reader) units() {
	for i, w := range r.words {
		if !r.free(i) {
			continue
		}
		u, ok := unitOf(w)
		if !ok {
			continue
		}
		if strings.HasPrefix(w, "мульт") && r.s.topic == nil {
			r.s.topic = categoryTopic("animation", w)
		}
		if !r.s.has(u) {
			r.s.units = append(r.s.units, u)
		}
		r.take(i, i+1)
	}
}

// unitOf maps a word to a unit ("сериал" before "сери").
func unitOf(w string) (unit, bool) {
	switch {
	case strings.HasPrefix(w, "сериал"), w == "series", w == "shows", w == "tv":
		return unitSeries, true
	case strings.HasPrefix(w, "фильм"), strings.HasPrefix(w, "кино"), strings.HasPrefix(w, "мультфильм"),
		strings.HasPrefix(w, "мультик"), w == "movie", w == "movies", w == "film", w == "films":
		return unitMovie, true
	case strings.HasPrefix(w, "сезон"), w == "season", w == "seasons":
		return unitSeason, true
	case strings.HasPrefix(w, "сери"), strings.HasPrefix(w, "эпизод"), w == "episode", w == "episodes":
		return unitEpisode, true
	}
	return 0, false
}

// rest keeps the unread words from the first to the last that is not a
// frame or question word: a title, with the small words inside it ("Во
// все тяжкие" loses only a leading "во"). A title of weak words only
// ("the") is none.
func (r *reader) rest(extra map[string]bool) {
	first, last := -1, -1
	for i, w := range r.words {
		if r.free(i) && !frameWords[w] && !extra[w] {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	var title []string
	for i, w := range r.words {
		switch {
		case !r.free(i):
		case i >= first && i <= last && first >= 0:
			title = append(title, w)
		default:
			r.take(i, i+1)
		}
	}
	for _, w := range title {
		if !weakWords[w] {
			r.s.title = title
			break
		}
	}
	if at := r.topicAt; len(r.s.title) > 0 && at[1] > at[0] && (at[1] == first || at[0] == last+1) {
		r.s.wide = r.words[min(first, at[0]):max(last+1, at[1])]
	}
}
