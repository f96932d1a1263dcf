package offline

import (
	"strings"

	"mediateka/usecase/textmatch"
)

// frameWords are the words of a question around a title: "есть ли у меня",
// "do I have", "найди фильм"… They are dropped before searching, and tell the
// language of the question when the title itself is in another script.
var frameWords = setOf(
	// Russian
	"есть", "ли", "у", "меня", "нас", "в", "во", "моей", "моем", "мой", "моя", "мои",
	"библиотеке", "каталоге", "коллекции", "фильмотеке", "медиатеке", "найди", "найти", "поищи", "поиск",
	"покажи", "показать", "ищу", "хочу", "посмотреть", "глянуть", "включи", "фильм", "фильмы",
	"фильма", "фильмов", "кино", "сериал", "сериалы", "сериала", "мультфильм", "мультфильмы",
	"мультик", "мульт", "пожалуйста", "мне", "какой", "какие", "а", "и", "там", "такой",
	"такое", "называется", "название", "под", "названием", "что", "нибудь", "можешь",
	"можно", "подскажи", "скажи", "привет", "здравствуй", "здравствуйте",
	// English
	"do", "i", "have", "has", "is", "are", "there", "any", "a", "an", "in", "my", "our", "library",
	"collection", "catalog", "catalogue", "find", "search", "for", "show", "me", "movie", "movies",
	"film", "films", "series", "want", "to", "watch", "please", "can", "you", "could", "what",
	"got", "called", "named", "hi", "hello", "hey", "we",
	// what is left of English contractions ("what's", "i'm", "don't")
	"s", "m", "t", "ll", "d", "re", "ve",
)

// weakWords are kept inside a phrase ("The Matrix", "Брат 2") but are never
// searched on their own, since they would match half the catalogue.
var weakWords = setOf("the", "of", "and", "or", "on", "at", "и", "или", "на", "не", "из", "от", "до", "по")

// The vocabulary of each kind of question besides the frame: read as the
// question's own words (they tell its language), never as a title.
var (
	countWords = setOf("сколько", "всего", "штук", "имеется", "лежит", "лежат", "хранится", "хранятся",
		"посчитай", "подсчитай", "на", "из", "с", "со", "за", "от", "всех", "все", "них", "его", "ее", "ней", "нем",
		"how", "many", "much", "number", "count", "total", "all", "of", "on", "at", "from", "does", "did",
		"there", "with", "it", "its", "they", "them", "altogether", "stored", "kept")
	recommendWords = setOf("посоветуй", "посоветуйте", "порекомендуй", "порекомендуйте", "рекомендуй",
		"рекомендуешь", "посоветуешь", "советуешь", "что", "чего", "чем", "бы", "то", "можно", "посмотреть",
		"смотреть", "посмотрим", "посмотрю", "глянуть", "вечером", "вечер", "сегодня", "ночью", "выходные",
		"выходных", "на", "из", "как", "хорошее", "хороший", "хорошую", "интересное", "интересный", "интересную",
		"какой", "какую", "какое", "нибудь", "мне", "нам", "скучно", "заняться", "похожее", "похожий",
		"похожую", "похожие", "вроде", "типа", "про", "о", "об", "такого", "такое", "какого", "интересного", "хорошего",
		"классного", "крутого", "стоящего", "нового", "новенького", "свежего", "легкого", "душевного", "ну", "давай", "tonight", "today", "evening", "weekend", "this", "the", "something",
		"anything", "good", "interesting", "recommend", "suggest", "us", "should", "would", "like",
		"similar", "bored", "about", "fun", "nice", "great", "new", "worth", "watching", "maybe", "perhaps", "from", "of", "some", "on", "night", "with")
	subtitleWords = setOf("субтитры", "субтитров", "субтитрами", "субтитрах", "субтитр", "сабы", "сабов",
		"subtitles", "subtitle", "subs", "у", "к", "для", "есть", "какие", "какой", "which", "what", "does",
		"do", "of", "for", "have", "has", "got", "files", "файлы", "there", "are", "with")
	listWords = setOf("покажи", "показать", "перечисли", "список", "выведи", "какие", "все", "всех",
		"show", "list", "all", "which", "from", "of", "on", "the")
)

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// words normalises a message (lower case, "ё" read as "е", punctuation and
// hyphens as spaces, the way the catalogue stores titles) and splits it.
func words(message string) []string {
	return strings.Fields(textmatch.Normalize(message))
}

// searchPhrase is the likely title of a search question (its words without
// the frame) and the frame words themselves.
func searchPhrase(words []string) (phrase string, frame []string) {
	var kept []string
	for _, w := range words {
		if frameWords[w] {
			frame = append(frame, w)
			continue
		}
		kept = append(kept, w)
	}
	return strings.Join(kept, " "), frame
}

// searchTerms lists what to search for a phrase, best first: the whole
// phrase, the phrase with its Russian words stemmed ("кухне" → "кухн",
// then the shorter "тьме" → "тьм"), then each meaningful word, each stem.
// Duplicates are dropped.
func searchTerms(phrase string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	add(phrase)
	ws := strings.Fields(phrase)
	stems := make([]string, len(ws))
	short := make([]string, len(ws))
	for i, w := range ws {
		stems[i], short[i] = textmatch.Stem(w), textmatch.FormStem(w)
	}
	add(strings.Join(stems, " "))
	add(strings.Join(short, " "))
	for _, list := range [][]string{ws, stems, short} {
		for _, w := range list {
			if len([]rune(w)) >= 3 && !weakWords[w] {
				add(w)
			}
		}
	}
	return out
}
