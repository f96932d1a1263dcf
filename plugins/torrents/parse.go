package torrents

import (
	"strings"

	"mediateka/usecase/textmatch"
)

type cmdKind int

const (
	cmdNone cmdKind = iota
	cmdList
	cmdActive
	cmdAdd
	cmdPause
	cmdResume
	cmdRecheck
)

type command struct {
	kind cmdKind
	arg  string // the link to add, or the torrent's name
}

// listWords are every word a request for the list is made of ("мои
// торренты", "show torrents"); a message with any other word ("найди
// торрент Интерстеллар") is not one.
var listWords = map[string]bool{"торренты": true, "торрентов": true, "торрент": true, "мои": true, "список": true,
	"покажи": true, "какие": true, "все": true, "есть": true, "в": true, "клиенте": true, "torrents": true,
	"list": true, "show": true, "my": true, "all": true, "the": true, "me": true}

// activePhrases ask what is downloading now.
var activePhrases = []string{"что качается", "что скачивается", "что загружается", "что сейчас качается",
	"что сейчас скачивается", "what s downloading", "what is downloading", "whats downloading",
	"what s being downloaded", "what is being downloaded", "active torrents", "активные торренты"}

// Verbs of the name commands, and of adding a link.
var (
	pauseVerbs   = []string{"пауза", "приостанови", "pause"}
	resumeVerbs  = []string{"продолжи", "возобнови", "resume", "unpause"}
	recheckVerbs = []string{"перепроверь", "recheck"}
	addVerbs     = map[string]bool{"скачай": true, "качай": true, "загрузи": true, "добавь": true, "download": true, "add": true, "get": true}
	torrentWords = map[string]bool{"торрент": true, "торрента": true, "torrent": true, "the": true}
)

// parse reads a message. It is strict: only what is clearly for this
// plugin is taken, the rest passes to torrent_search, RAG and the model.
func parse(message string) command {
	if link := linkIn(message); link != "" {
		return command{kind: cmdAdd, arg: link}
	}
	norm := textmatch.Normalize(message)
	words := strings.Fields(norm)
	if len(words) == 0 {
		return command{}
	}
	for _, p := range activePhrases {
		if norm == p || strings.HasPrefix(norm, p+" ") && len(words) <= len(strings.Fields(p))+2 {
			return command{kind: cmdActive}
		}
	}
	if isList(words) {
		return command{kind: cmdList}
	}
	for _, v := range []struct {
		verbs []string
		kind  cmdKind
	}{{pauseVerbs, cmdPause}, {resumeVerbs, cmdResume}, {recheckVerbs, cmdRecheck}} {
		for _, verb := range v.verbs {
			if words[0] == verb {
				return named(v.kind, words[1:])
			}
		}
	}
	return command{}
}

// isList: every word is a list word and one of them names torrents.
func isList(words []string) bool {
	named := false
	for _, w := range words {
		if !listWords[w] {
			return false
		}
		named = named || strings.HasPrefix(w, "торрент") || w == "torrents"
	}
	return named
}

// named is a name command; without a name it is not one.
func named(kind cmdKind, rest []string) command {
	for len(rest) > 0 && torrentWords[rest[0]] {
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return command{}
	}
	return command{kind: kind, arg: strings.Join(rest, " ")}
}

// linkIn returns the link of "скачай <link>" / "download <link>", or a
// message that is only a magnet link: a magnet anywhere after an add verb,
// an http(s) link only right after one (a link alone may be anything).
func linkIn(message string) string {
	fields := strings.Fields(message)
	if len(fields) == 1 && strings.HasPrefix(strings.ToLower(fields[0]), "magnet:?") {
		return fields[0]
	}
	if len(fields) < 2 || !addVerbs[textmatch.Normalize(fields[0])] {
		return ""
	}
	rest := fields[1:]
	for len(rest) > 1 && torrentWords[textmatch.Normalize(rest[0])] {
		rest = rest[1:]
	}
	link := strings.Trim(rest[0], "<>\"'«»")
	lower := strings.ToLower(link)
	if len(rest) == 1 && (strings.HasPrefix(lower, "magnet:?") || strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://")) {
		return link
	}
	return ""
}
