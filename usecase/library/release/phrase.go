package release

// phrases are release tags of two words: editions and dubbing notes that
// scene and Russian names spell out ("Director's Cut", "Dual Audio",
// "Режиссёрская версия"). Each maps its words, in lower case and without
// an apostrophe, to the tag kept.
var phrases = [...]struct{ first, second, tag string }{
	{"directors", "cut", "Director's Cut"},
	{"director", "cut", "Director's Cut"},
	{"directors", "edition", "Director's Cut"},
	{"extended", "cut", "Extended"},
	{"extended", "edition", "Extended"},
	{"extended", "version", "Extended"},
	{"theatrical", "cut", "Theatrical"},
	{"theatrical", "version", "Theatrical"},
	{"unrated", "cut", "Unrated"},
	{"unrated", "version", "Unrated"},
	{"special", "edition", "Special Edition"},
	{"collectors", "edition", "Collector's Edition"},
	{"ultimate", "edition", "Ultimate Edition"},
	{"anniversary", "edition", "Anniversary Edition"},
	{"criterion", "collection", "Criterion"},
	{"imax", "edition", "IMAX"},
	{"dual", "audio", "Dual Audio"},
	{"complete", "series", "Complete"},
	{"режиссерская", "версия", "Director's Cut"},
	{"режиссёрская", "версия", "Director's Cut"},
	{"расширенная", "версия", "Extended"},
	{"театральная", "версия", "Theatrical"},
	{"полная", "версия", "Extended"},
}

// phraseAt marks a two-word tag starting at token i and says how many
// tokens it used (0 for none). Inside a title's first word it still counts:
// such phrases do not begin titles.
func (p *parsed) phraseAt(i int) int {
	j := i + 1
	if j >= len(p.toks) || p.toks[j].kind != kWord {
		return 0
	}
	a, b := dropApostrophe(p.low(i)), p.low(j)
	if !phraseEnd(b) {
		return 0
	}
	for _, ph := range phrases {
		if ph.first == a && ph.second == b {
			p.toks[i].kind, p.toks[i].cat = kJunk, catTag
			p.toks[j].kind, p.toks[j].cat = kJunk, catTag
			p.addTag(ph.tag)
			return 2
		}
	}
	return 0
}

// dropApostrophe writes "director's" as "directors".
func dropApostrophe(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' {
			return s[:i] + s[i+1:]
		}
	}
	return s
}

// phraseEnd is a quick test of a phrase's second word.
func phraseEnd(w string) bool {
	switch w {
	case "cut", "edition", "version", "collection", "audio", "series", "версия":
		return true
	}
	return false
}
