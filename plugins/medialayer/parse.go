package medialayer

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
)

// change is what a subtitle command asks for; nil fields stay as they are.
type change struct {
	enabled *bool
	size    *int
	delta   int // "bigger" / "smaller"
	color   *string
	badSize *int // a size out of range, reported instead of applied
}

func (c change) any() bool {
	return c.enabled != nil || c.size != nil || c.delta != 0 || c.color != nil || c.badSize != nil
}

// trackQuestion asks for the tracks of one title.
type trackQuestion struct {
	kind  string // domain.StreamAudio or domain.StreamSubtitle
	title string
}

// message is what the plugin understood of a chat message.
type message struct {
	aboutSubtitles bool
	question       bool
	reset          bool
	change         change
	tracks         *trackQuestion
}

// Go's \b knows only ASCII letters, so word boundaries are spelled out:
// words() matches any of alts as a whole word, Cyrillic included.
func words(alts ...string) *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[^\p{L}\p{N}])(?:` + strings.Join(alts, "|") + `)(?:$|[^\p{L}\p{N}])`)
}

var (
	subtitleWord = regexp.MustCompile(`субтитр|subtitle|(?:^|[^\p{L}])subs(?:$|[^\p{L}])`)
	onWord       = words(`включи\p{L}*`, "вкл", "показывай", "turn on", "switch on", "enable", "on")
	offWord      = words(`выключи\p{L}*`, `отключи\p{L}*`, "выкл", "убери", "скрой", "не показывай", "turn off", "switch off", "disable", "hide", "off")
	sizeWord     = regexp.MustCompile(`размер|шрифт|кегль|size|font`)
	biggerWord   = regexp.MustCompile(`крупнее|больше|увеличь|bigger|larger|increase`)
	smallerWord  = regexp.MustCompile(`мельче|меньше|уменьши|smaller|decrease`)
	numberRe     = regexp.MustCompile(`(?:^|[^\p{L}\p{N}])(\d{1,4})(?:$|[^\p{L}\p{N}])`)
	hexRe        = regexp.MustCompile(`#[0-9a-f]{6}(?:$|[^0-9a-z])`)
	resetWord    = regexp.MustCompile(`сброс|сбрось|по умолчанию|reset|default`)
	questionWord = regexp.MustCompile(`\?|какие|какой|какого|каком|настройк|включены|выключены|settings|status|what|which|are `)
)

// Track questions: "какие звуковые дорожки у Матрицы", "аудиодорожки в
// фильме Брат", "audio tracks of The Matrix", "what subtitles does Dark
// have". Group 1 names the tracks, group 2 the title.
var (
	trackRu  = regexp.MustCompile(`(звуков\S*\s+дорожк\S*|аудио\s*-?\s*дорожк\S*|дорожк\S*|озвучк\S*|субтитр\S*)\s+(?:есть\s+)?(?:у|в|во|для)\s+(.+)$`)
	trackEn  = regexp.MustCompile(`(audio tracks?|audio|sound tracks?|dubs?|subtitle tracks?|subtitles?)\s+(?:are\s+)?(?:of|for|in|on)\s+(.+)$`)
	trackEn2 = regexp.MustCompile(`(?:what|which)\s+(audio tracks?|audio|subtitle tracks?|subtitles?)\s+(?:does|do|has)\s+(.+?)\s+(?:have|got)\b`)
	listWord = regexp.MustCompile(`какие|какая|какой|список|перечисли|покажи|есть ли|what|which|list|show`)
)

// colorNames map colour words (Russian and English) to #rrggbb.
var colorNames = map[string]string{
	"бел": "#ffffff", "white": "#ffffff", "желт": "#ffff00", "yellow": "#ffff00",
	"черн": "#000000", "black": "#000000", "красн": "#ff0000", "red": "#ff0000",
	"зелен": "#00ff00", "green": "#00ff00", "син": "#0000ff", "blue": "#0000ff",
	"голуб": "#00ffff", "cyan": "#00ffff", "сер": "#808080", "gray": "#808080", "grey": "#808080",
}

// topicWords are the stems every message this plugin answers contains. The
// plugin sits first in the chat chain, so most messages are not for it: a
// plain substring check turns them away before any regular expression runs.
var topicWords = []string{"субтитр", "subtitle", "subs", "дорожк", "озвучк", "аудио", "audio", "dub", "sound"}

func parseMessage(raw string) message {
	text := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(raw)), "ё", "е")
	var m message
	if !containsAny(text, topicWords) {
		return m
	}
	if q := parseTracks(text); q != nil {
		m.tracks = q
		return m
	}
	if !subtitleWord.MatchString(text) {
		return m
	}
	m.aboutSubtitles = true
	m.reset = resetWord.MatchString(text)
	m.change = parseChange(text)
	m.question = questionWord.MatchString(text)
	return m
}

func parseChange(text string) change {
	var c change
	yes, no := true, false
	switch {
	case offWord.MatchString(text):
		c.enabled = &no
	case onWord.MatchString(text):
		c.enabled = &yes
	}
	if n := numberRe.FindStringSubmatch(text); n != nil && sizeWord.MatchString(text) {
		v, _ := strconv.Atoi(n[1])
		if v < MinSize || v > MaxSize {
			c.badSize = &v
		} else {
			c.size = &v
		}
	} else if biggerWord.MatchString(text) {
		c.delta = 4
	} else if smallerWord.MatchString(text) {
		c.delta = -4
	}
	c.color = parseColor(text)
	return c
}

// parseColor finds "#rrggbb" or a colour word next to "цвет"/"color".
func parseColor(text string) *string {
	if h := hexRe.FindString(text); h != "" {
		h = h[:7]
		return &h
	}
	if !strings.Contains(text, "цвет") && !strings.Contains(text, "color") && !strings.Contains(text, "colour") {
		return nil
	}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
		for prefix, hex := range colorNames {
			if strings.HasPrefix(w, prefix) && w != "цвет" {
				v := hex
				return &v
			}
		}
	}
	return nil
}

// parseTracks recognises a question about the tracks of a title.
func parseTracks(text string) *trackQuestion {
	var kind, title string
	if g := trackEn2.FindStringSubmatch(text); g != nil {
		kind, title = g[1], g[2]
	} else if g := trackRu.FindStringSubmatchIndex(text); g != nil {
		kind, title = text[g[2]:g[3]], text[g[4]:g[5]]
	} else if g := trackEn.FindStringSubmatchIndex(text); g != nil {
		kind, title = text[g[2]:g[3]], text[g[4]:g[5]]
	}
	if kind == "" {
		return nil
	}
	isSub := strings.Contains(kind, "субтитр") || strings.Contains(kind, "subtitle")
	if isSub && !listWord.MatchString(text) {
		return nil // "включи субтитры в Матрице" is a command, not a question
	}
	q := &trackQuestion{kind: domain.StreamAudio, title: cleanTitle(title)}
	if isSub {
		q.kind = domain.StreamSubtitle
	}
	if q.title == "" {
		return nil
	}
	return q
}

// cleanTitle drops quotes, end punctuation and a leading "фильма"/"the
// movie" from a title cut out of a question.
func cleanTitle(t string) string {
	t = strings.Trim(strings.TrimSpace(t), "?!.,;:«»\"'“”„ ")
	for _, p := range []string{"фильма ", "фильме ", "фильм ", "сериала ", "сериале ", "сериал ", "the movie ", "the film ", "movie ", "film "} {
		t = strings.TrimPrefix(t, p)
	}
	return strings.Trim(strings.TrimSpace(t), "«»\"'“”„")
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// titleVariants lists the searches for a title: as written, then with the
// last word's Russian case ending trimmed ("матрицы" → "матриц").
func titleVariants(title string) []string {
	words := strings.Fields(title)
	if len(words) == 0 {
		return []string{title}
	}
	last := words[len(words)-1]
	if s := textmatch.Stem(last); s != last {
		words[len(words)-1] = s
		return []string{title, strings.Join(words, " ")}
	}
	return []string{title}
}
