package mediaorganizer

import (
	"fmt"
	"strings"

	"mediateka/usecase/library"
	"mediateka/usecase/textmatch"
)

type intent int

const (
	intentNone intent = iota
	intentScan
	intentDuplicates
	intentAudit
	intentCount
	intentClassify
	intentScanStatus
)

// adminOnly reports whether the intent does what only an admin endpoint
// does (scan, scan status, audit, duplicates, classify); counting is open
// to everyone, as the catalogue is.
func (i intent) adminOnly() bool { return i != intentCount && i != intentNone }

// detect reads what a (normalised, split) message asks. It is strict on
// purpose: a message it does not clearly understand goes on to the other
// plugins and the AI model.
func detect(words []string) intent {
	has := func(stems ...string) bool {
		for _, w := range words {
			for _, s := range stems {
				if strings.HasPrefix(w, s) {
					return true
				}
			}
		}
		return false
	}
	whole := has("библиотек", "медиатек", "коллекци", "library", "collection")
	object := whole || has("папк", "диск", "фильм", "сериал", "media", "folder", "disk", "movie", "film", "series")
	// A request to start ("запусти сканирование и скажи, когда
	// закончится", "scan the library and tell me when it's done") names
	// the end too; it is a scan, not a question about one.
	start := has("запуст", "начни", "старт", "просканир", "отсканир", "пересканир") ||
		word(words, "start", "run", "begin", "rescan") || phrase(words, "scan", "the") || phrase(words, "scan", "my")
	switch {
	case has("скан", "scan") && !start && (has("статус", "прогресс", "закончил", "завершил") ||
		word(words, "status", "progress", "finished", "done", "over") ||
		phrase(words, "как", "идет") || phrase(words, "how", "is") || phrase(words, "how", "s")):
		return intentScanStatus
	case has("сканирован", "пересканир") || (has("просканир", "сканиру", "отсканир") && object) ||
		(has("scan", "rescan") && (object || len(words) <= 3)):
		return intentScan
	case has("дубликат", "duplicate", "dupe") || word(words, "дубли", "дублей", "дублях"):
		return intentDuplicates
	case has("аудит", "audit") || (has("провер", "check") && whole):
		return intentAudit
	case has("классифиц", "classif") && (object || len(words) <= 3):
		return intentClassify
	case (has("сколько") || phrase(words, "how", "many")) && len(countKinds(words)) > 0 && wholeLibrary(words):
		return intentCount
	}
	return intentNone
}

// libraryCountWords are every word a count of the whole library is made
// of ("сколько у меня фильмов и сериалов в библиотеке", "how many movies
// do I have"). A count with any other word is narrower ("сколько серий в
// Кухне", "how many films are on Disk 2"): this plugin would answer it
// with the whole library's numbers, so it passes it on to the assistant,
// which reads the scope.
var libraryCountWords = map[string]bool{
	"сколько": true, "у": true, "меня": true, "нас": true, "в": true, "во": true, "моей": true, "моем": true,
	"нашей": true, "библиотеке": true, "медиатеке": true, "коллекции": true, "каталоге": true, "всего": true,
	"есть": true, "и": true, "а": true, "там": true, "штук": true, "how": true, "many": true, "do": true,
	"i": true, "we": true, "have": true, "are": true, "there": true, "is": true, "in": true, "the": true,
	"my": true, "our": true, "library": true, "collection": true, "catalogue": true, "catalog": true,
	"total": true, "all": true, "got": true, "and": true, "of": true,
}

// wholeLibrary reports whether a counting question asks about the whole
// library: it has only counting words and kinds of entries.
func wholeLibrary(words []string) bool {
	for _, w := range words {
		if !libraryCountWords[w] && len(countKinds([]string{w})) == 0 {
			return false
		}
	}
	return true
}

// word reports whether one of ws is a word of words.
func word(words []string, ws ...string) bool {
	for _, w := range words {
		for _, x := range ws {
			if w == x {
				return true
			}
		}
	}
	return false
}

// phrase reports whether a and b follow each other in words.
func phrase(words []string, a, b string) bool {
	for i := 0; i+1 < len(words); i++ {
		if words[i] == a && words[i+1] == b {
			return true
		}
	}
	return false
}

type countKind int

const (
	countMovies countKind = iota
	countSeries
	countSeasons
	countEpisodes
)

// countKinds lists what a counting question asks about, in the order
// asked; a question about the whole library gets movies and series.
func countKinds(words []string) []countKind {
	var out []countKind
	seen := map[countKind]bool{}
	add := func(k countKind) {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	for _, w := range words {
		switch {
		case strings.HasPrefix(w, "фильм") || strings.HasPrefix(w, "кино") || strings.HasPrefix(w, "movie") || strings.HasPrefix(w, "film"):
			add(countMovies)
		case strings.HasPrefix(w, "сериал") || w == "series" || strings.HasPrefix(w, "show"):
			add(countSeries)
		case strings.HasPrefix(w, "сезон") || strings.HasPrefix(w, "season"):
			add(countSeasons)
		case strings.HasPrefix(w, "сери") || strings.HasPrefix(w, "эпизод") || strings.HasPrefix(w, "episode"):
			add(countEpisodes)
		}
	}
	if len(out) == 0 {
		for _, w := range words {
			if strings.HasPrefix(w, "библиотек") || strings.HasPrefix(w, "медиатек") || w == "library" || w == "collection" {
				return []countKind{countMovies, countSeries}
			}
		}
	}
	return out
}

func countPhrase(k countKind, st library.Stats, ru bool) string {
	switch k {
	case countMovies:
		if ru {
			return fmt.Sprintf("%d %s", st.Movies, textmatch.PluralRu(st.Movies, "фильм", "фильма", "фильмов"))
		}
		return fmt.Sprintf("%d %s", st.Movies, textmatch.PluralEn(st.Movies, "movie", "movies"))
	case countSeries:
		if ru {
			return fmt.Sprintf("%d %s", st.Series, textmatch.PluralRu(st.Series, "сериал", "сериала", "сериалов"))
		}
		return fmt.Sprintf("%d series", st.Series)
	case countSeasons:
		if ru {
			return fmt.Sprintf("%d %s", st.Seasons, textmatch.PluralRu(st.Seasons, "сезон", "сезона", "сезонов"))
		}
		return fmt.Sprintf("%d %s", st.Seasons, textmatch.PluralEn(st.Seasons, "season", "seasons"))
	}
	if ru {
		return fmt.Sprintf("%d %s", st.Episodes, textmatch.PluralRu(st.Episodes, "серия", "серии", "серий"))
	}
	return fmt.Sprintf("%d %s", st.Episodes, textmatch.PluralEn(st.Episodes, "episode", "episodes"))
}
