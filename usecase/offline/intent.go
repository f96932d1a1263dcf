package offline

import (
	"context"
	"slices"
	"strings"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
)

// intent is what a message asks of the assistant.
type intent int

// The intents, in the order detect tries them after small talk.
const (
	intentSearch    intent = iota // find a title (the default)
	intentGreeting                // "привет", "hello"
	intentThanks                  // "спасибо", "thanks"
	intentBye                     // "пока", "bye"
	intentHelp                    // "что ты умеешь", "help"
	intentSubtitles               // "какие субтитры у Матрицы"
	intentCount                   // "сколько серий в Кухне"
	intentRecommend               // "посоветуй комедию", "what can I watch tonight"
	intentList                    // "покажи фантастику", "фильмы 2010 года"
	intentMore                    // "а ещё?", "something else": the last question again
)

// smallTalk reports whether the intent is answered without the catalogue.
func (i intent) smallTalk() bool { return i >= intentGreeting && i <= intentHelp }

// question is what the assistant understood of a message.
type question struct {
	lang   string // "ru" or "en"
	intent intent
	words  []string // the message's words, normalised
	// phrase is the likely title of a search: the words without the
	// frame ("есть ли у меня", "do I have").
	phrase string
	scope  scope // what a count, suggestion or subtitle question narrows to
	// history is the dialogue so far; caller is who asks.
	history []domain.ChatTurn
	caller  domain.Caller
}

// read makes sense of a prompt: its intent, its scope and the language to
// answer in. "а ещё?" repeats the last question of the history, so it is
// read from there (in the language of the new message).
func (m *Model) read(ctx context.Context, p domain.Prompt) question {
	caller, _ := domain.CallerFrom(ctx)
	q := question{words: words(p.Message), history: p.History, caller: caller}
	q.intent = detect(q.words)
	lang := m.settle(&q)
	if q.intent == intentMore {
		if prev := lastUserTurn(p.History); prev != "" {
			q.words = words(prev)
			q.intent = detect(q.words)
			m.settle(&q)
		} else {
			q.intent = intentSearch
			lang = m.settle(&q)
		}
	}
	q.lang = langOf(ctx, p.Message, lang)
	return q
}

// settle reads the scope (or the search phrase) of q's intent, turns a
// search that only names a category, a genre or a kind of entry into a
// list, and returns the words read as the question's own vocabulary.
func (m *Model) settle(q *question) []string {
	disks := diskNames(m.opt.Roots())
	switch q.intent {
	case intentCount:
		q.scope = parseScope(q.words, countWords, disks)
	case intentRecommend:
		q.scope = parseScope(q.words, recommendWords, disks)
	case intentSubtitles:
		q.scope = parseScope(q.words, subtitleWords, nil)
	case intentSearch:
		s := parseScope(q.words, listWords, disks)
		listVerb := slices.ContainsFunc(q.words, func(w string) bool { return listWords[w] })
		if len(s.title) == 0 && (s.topic != nil || len(s.units) > 0 || (listVerb && s.narrows())) {
			q.intent, q.scope = intentList, s
			return s.vocab
		}
		var frame []string
		q.phrase, frame = searchPhrase(q.words)
		return frame
	default:
		return q.words
	}
	return q.scope.vocab
}

// langOf is the language of the question's own words (vocab): Russian when
// one of them is Cyrillic ("do I have Брат" is an English question, "сколько
// серий в Breaking Bad" a Russian one), else English; without any, the
// caller's language, which the chat took from the message or the account.
func langOf(ctx context.Context, message string, vocab []string) string {
	latin := false
	for _, w := range vocab {
		switch textmatch.DetectLang(w) {
		case domain.LangRussian:
			return domain.LangRussian
		case domain.LangEnglish:
			latin = true
		}
	}
	if latin {
		return domain.LangEnglish
	}
	return textmatch.Pick(textmatch.AnswerLang(ctx, message), domain.LangRussian, domain.LangEnglish)
}

func diskNames(roots []domain.Root) []string {
	var out []string
	for _, r := range roots {
		if r.Disk != "" && !slices.Contains(out, r.Disk) {
			out = append(out, r.Disk)
		}
	}
	return out
}

// lastUserTurn is the text of the latest user turn of the history that
// asked something of its own (not "а ещё?").
func lastUserTurn(history []domain.ChatTurn) string {
	for i := len(history) - 1; i >= 0; i-- {
		if t := history[i]; t.Role == domain.TurnUser && detect(words(t.Text)) != intentMore {
			return t.Text
		}
	}
	return ""
}

// detect reads the intent of a message from its words.
func detect(words []string) intent {
	if in := smallTalkIntent(words); in != intentSearch {
		return in
	}
	has := func(prefixes ...string) bool {
		return slices.ContainsFunc(words, func(w string) bool {
			return slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(w, p) })
		})
	}
	switch {
	case has("субтитр", "subtitle", "сабы", "сабов") || slices.Contains(words, "subs"):
		return intentSubtitles
	case has("сколько") || phraseAt(words, []string{"how", "many"}, nil) >= 0 ||
		phraseAt(words, []string{"how", "much"}, nil) >= 0 || phraseAt(words, []string{"number", "of"}, nil) >= 0 ||
		(len(words) > 0 && (words[0] == "count" || strings.HasPrefix(words[0], "посчитай") || strings.HasPrefix(words[0], "подсчитай"))):
		return intentCount
	case has("посовет", "порекоменд", "рекоменд", "советуе", "recommend", "suggest", "скучно", "bored"),
		has("посмотреть", "смотреть", "глянуть", "посмотрим", "watch") && has("что", "чего", "чем", "what", "something", "anything", "нибудь"):
		return intentRecommend
	case isMore(words):
		return intentMore
	}
	return intentSearch
}

// isMore reports whether a message only asks for more of the same ("а
// ещё?", "что-нибудь другое", "show me more", "another one").
func isMore(words []string) bool {
	if len(words) == 0 || len(words) > 5 {
		return false
	}
	asks := false
	for _, w := range words {
		switch {
		case moreWords[w]:
			asks = true
		case !fillerOfMore[w]:
			return false
		}
	}
	return asks
}

var (
	moreWords    = setOf("еще", "ещё", "больше", "другое", "другие", "других", "другой", "иное", "more", "another", "else", "other", "others")
	fillerOfMore = setOf("а", "и", "что", "нибудь", "то", "давай", "покажи", "посоветуй", "варианты", "вариантов",
		"show", "me", "some", "something", "one", "ones", "please", "пожалуйста", "any", "anything", "what")
)
