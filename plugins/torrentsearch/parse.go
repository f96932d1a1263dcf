package torrentsearch

import (
	"strings"

	"mediateka/usecase/textmatch"
)

type cmdKind int

const (
	cmdNone cmdKind = iota
	cmdFind
	cmdPick
)

type command struct {
	kind     cmdKind
	query    string
	category string // "movies", "series" or ""
	n        int    // the number picked
}

var (
	findVerbs = map[string]bool{"найди": true, "найти": true, "поищи": true, "ищи": true, "поиск": true, "искать": true,
		"find": true, "search": true, "look": true}
	pickVerbs = map[string]bool{"скачай": true, "скачать": true, "качай": true, "загрузи": true, "добавь": true,
		"download": true, "get": true, "add": true, "grab": true}
	torrentWords = map[string]bool{"торрент": true, "торренты": true, "торрента": true, "торрентов": true,
		"torrent": true, "torrents": true}
	fillers = map[string]bool{"мне": true, "на": true, "для": true, "по": true, "a": true, "the": true, "for": true,
		"me": true, "up": true, "номер": true, "number": true, "no": true, "результат": true, "result": true}
	movieWords  = map[string]bool{"фильм": true, "фильма": true, "кино": true, "movie": true, "film": true}
	seriesWords = map[string]bool{"сериал": true, "сериала": true, "series": true, "show": true}
)

// parse reads "найди торрент <что>" (a kind word — фильм, сериал, movie,
// series — narrows the category) and "скачай <номер>".
func parse(message string) command {
	words := strings.Fields(textmatch.Normalize(message))
	if len(words) < 2 {
		return command{}
	}
	if pickVerbs[words[0]] {
		return pickOf(words[1:])
	}
	if !findVerbs[words[0]] {
		return command{}
	}
	c := command{kind: cmdFind}
	rest, sawTorrent := words[1:], false
	for len(rest) > 0 {
		w := rest[0]
		switch {
		case torrentWords[w]:
			sawTorrent = true
		case movieWords[w] && c.category == "":
			c.category = "movies"
		case seriesWords[w] && c.category == "":
			c.category = "series"
		case !fillers[w]:
			c.query = strings.Join(rest, " ")
			if !sawTorrent {
				return command{}
			}
			return c
		}
		rest = rest[1:]
	}
	return command{}
}

// pickOf reads the number after a download verb: "2", "№2", "второй".
func pickOf(rest []string) command {
	for len(rest) > 0 && (fillers[rest[0]] || torrentWords[rest[0]]) {
		rest = rest[1:]
	}
	if len(rest) != 1 {
		return command{}
	}
	n, ok := textmatch.Ordinal(rest[0])
	if !ok || n < 1 || n > shown {
		return command{}
	}
	return command{kind: cmdPick, n: n}
}
