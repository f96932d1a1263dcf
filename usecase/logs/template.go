package logs

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Placeholders a template puts where a message had a variable part.
const (
	phNum    = "{n}"
	phID     = "{id}"
	phHex    = "{hex}"
	phUUID   = "{uuid}"
	phPath   = "{path}"
	phURL    = "{url}"
	phEmail  = "{email}"
	phQuoted = "{quoted}"
)

// Template turns a message into its template: quoted values, e-mail
// addresses, URLs, file paths, UUIDs, hex strings and numbers become
// placeholders, so "scan of /srv/a took 12 ms" and "scan of /srv/b took 9
// ms" count as one message. It works word by word (a word is a run of
// non-space characters; key=value keeps its key), without regular
// expressions: it runs on every distinct message of a large file.
func Template(msg string) string {
	var b strings.Builder
	b.Grow(len(msg))
	for i := 0; i < len(msg); {
		c := msg[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			b.WriteByte(' ')
			for i < len(msg) && (msg[i] == ' ' || msg[i] == '\t' || msg[i] == '\n' || msg[i] == '\r') {
				i++
			}
			continue
		case (c == '"' || c == '\'' || c == '`') && quoteStarts(msg, i):
			if end := strings.IndexByte(msg[i+1:], c); end >= 0 {
				b.WriteString(phQuoted)
				i += end + 2
				continue
			}
		}
		j := i
		for j < len(msg) && msg[j] != ' ' && msg[j] != '\t' && msg[j] != '\n' && msg[j] != '\r' {
			j++
		}
		word(&b, msg[i:j])
		i = j
	}
	return b.String()
}

// quoteStarts tells an opening quote from an apostrophe (don't): it
// starts the message or follows a space, '=', ':' or '('.
func quoteStarts(s string, i int) bool {
	if s[i] == '"' || s[i] == '`' {
		return true
	}
	if i == 0 {
		return true
	}
	p := s[i-1]
	return p == ' ' || p == '=' || p == ':' || p == '('
}

// word writes one word's template: punctuation around it stays, key= stays.
func word(b *strings.Builder, w string) {
	lead := strings.IndexFunc(w, func(r rune) bool { return !strings.ContainsRune("([{<,;", r) })
	if lead < 0 {
		b.WriteString(w)
		return
	}
	b.WriteString(w[:lead])
	w = w[lead:]
	core := strings.TrimRightFunc(w, func(r rune) bool { return strings.ContainsRune(")]}>,;:.!?", r) })
	trail := w[len(core):]
	if k := strings.IndexByte(core, '='); k > 0 && k < len(core)-1 && !strings.Contains(core[:k], "/") {
		b.WriteString(core[:k+1])
		core = core[k+1:]
	}
	b.WriteString(classify(core))
	b.WriteString(trail)
}

// classify is the placeholder for a whole token, or the token with its
// digit runs replaced.
func classify(t string) string {
	switch {
	case t == "":
		return t
	case strings.Contains(t, "://"):
		return phURL
	case isEmail(t):
		return phEmail
	case isUUID(t):
		return phUUID
	case isPath(t):
		return phPath
	case isHex(t):
		return phHex
	}
	return digits(t)
}

func isEmail(t string) bool {
	at := strings.IndexByte(t, '@')
	return at > 0 && strings.Contains(t[at+1:], ".") && !strings.ContainsAny(t, "/")
}

func isUUID(t string) bool {
	if len(t) != 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		c := t[i]
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
		} else if !isHexDigit(c) {
			return false
		}
	}
	return true
}

// isPath is a file path: starts with / ./ ../ ~/ or a drive letter, or
// has a slash between two segments and a letter (3/5 is numbers).
func isPath(t string) bool {
	if strings.HasPrefix(t, "/") || strings.HasPrefix(t, "./") || strings.HasPrefix(t, "~/") || strings.HasPrefix(t, "../") {
		return len(t) > 1
	}
	if len(t) > 2 && t[1] == ':' && (t[2] == '\\' || t[2] == '/') && unicode.IsLetter(rune(t[0])) {
		return true
	}
	k := strings.IndexByte(t, '/')
	return k > 0 && k < len(t)-1 && strings.IndexFunc(t, unicode.IsLetter) >= 0
}

// isHex is a hex id: 0x…, or at least 8 hex digits with a digit and a
// letter among them (a hash, a request id), or 16+ mixed letters and
// digits (a generated id).
func isHex(t string) bool {
	if strings.HasPrefix(t, "0x") && len(t) > 2 {
		return allOf(t[2:], isHexDigit)
	}
	if len(t) >= 8 && allOf(t, isHexDigit) && strings.IndexFunc(t, unicode.IsDigit) >= 0 && strings.IndexFunc(t, unicode.IsLetter) >= 0 {
		return true
	}
	return len(t) >= 16 && allOf(t, func(c byte) bool {
		return isHexDigit(c) || c >= 'g' && c <= 'z' || c >= 'G' && c <= 'Z' || c == '-' || c == '_'
	}) &&
		strings.IndexFunc(t, unicode.IsDigit) >= 0
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func allOf(s string, ok func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

// digits replaces each run of digits (with . , : between them: 1.5,
// 10:32:07) by {n}; a word that is mostly digits and letters (an id like
// a1b2c3) becomes {id}.
func digits(t string) string {
	n := 0
	for i := 0; i < len(t); i++ {
		if t[i] >= '0' && t[i] <= '9' {
			n++
		}
	}
	if n == 0 {
		return t
	}
	if n*2 >= len(t) && len(t) >= 6 && utf8.RuneCountInString(t) == len(t) && strings.IndexFunc(t, unicode.IsLetter) >= 0 {
		return phID
	}
	var b strings.Builder
	for i := 0; i < len(t); {
		if t[i] < '0' || t[i] > '9' {
			b.WriteByte(t[i])
			i++
			continue
		}
		for i < len(t) && (t[i] >= '0' && t[i] <= '9' || (t[i] == '.' || t[i] == ',' || t[i] == ':') && i+1 < len(t) && t[i+1] >= '0' && t[i+1] <= '9') {
			i++
		}
		b.WriteString(phNum)
	}
	return b.String()
}

// RouteTemplate is a request path with its variable segments (ids,
// numbers, hashes) replaced: /api/media/42/play → /api/media/{n}/play.
func RouteTemplate(path string) string {
	segs := strings.Split(path, "/")
	for i, seg := range segs {
		segs[i] = classify(seg)
	}
	return strings.Join(segs, "/")
}
