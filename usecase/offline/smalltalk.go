package offline

import "mediateka/usecase/textmatch"

// Small talk: a greeting, thanks, a goodbye or "what can you do" is
// answered in kind, briefly, without reading the catalogue. A message is
// small talk only when every word of it is (at most six words), so "привет,
// есть ли у меня Матрица" is still a search.

var (
	greetWords = setOf("привет", "приветик", "приветствую", "здравствуй", "здравствуйте", "здорово", "салют",
		"хай", "добрый", "доброе", "день", "утро", "вечер", "hi", "hello", "hey", "hiya", "howdy", "good",
		"morning", "afternoon", "evening", "greetings", "yo",
		"как", "дела", "поживаешь", "how", "are", "you", "doing", "s", "it", "going", "whats", "up", "what")
	thanksWords = setOf("спасибо", "спасибки", "благодарю", "спс", "пасиб", "thanks", "thank", "thx", "ty",
		"cheers", "отлично", "супер", "класс", "круто", "great", "cool", "nice", "awesome", "perfect", "ок",
		"окей", "ok", "okay", "ладно", "понятно", "понял", "поняла", "ясно", "got")
	byeWords = setOf("пока", "до", "свидания", "встречи", "завтра", "увидимся", "спокойной", "ночи", "доброй",
		"bye", "goodbye", "see", "later", "night", "farewell", "cya")
	talkFiller = setOf("и", "тебе", "вам", "тоже", "очень", "большое", "огромное", "всем", "друг", "бот",
		"медиатека", "помощник", "а", "ну", "ага", "so", "much", "very", "you", "a", "lot", "there", "all",
		"again", "too", "bot", "friend", "dear", "for", "that", "the", "help", "oh", "ah", "then", "it", "ещё", "еще", "раз")
	helpCore  = setOf("умеешь", "можешь", "help", "помощь", "помоги", "помогите", "кто", "who", "can", "команды", "commands", "справка")
	helpWords = setOf("что", "ты", "вы", "умеешь", "можешь", "делать", "такой", "такое", "help", "помощь", "помоги",
		"помогите", "what", "can", "you", "do", "who", "are", "кто", "me", "please", "пожалуйста", "мне", "команды",
		"commands", "how", "to", "use", "как", "тобой", "пользоваться", "справка", "i", "ask", "спросить", "могу")
)

// smallTalkIntent tells a greeting, thanks, goodbye or help request, or
// intentSearch when the message is anything else.
func smallTalkIntent(words []string) intent {
	if len(words) == 0 || len(words) > 6 {
		return intentSearch
	}
	if allIn(words, helpWords) && anyIn(words, helpCore) {
		return intentHelp
	}
	talk := func(w string) bool { return greetWords[w] || thanksWords[w] || byeWords[w] || talkFiller[w] }
	for _, w := range words {
		if !talk(w) {
			return intentSearch
		}
	}
	switch {
	case anyIn(words, byeWords) && !anyIn(words, setOf("добрый", "доброе", "hello", "hi", "привет")):
		return intentBye
	case anyIn(words, thanksWords):
		return intentThanks
	case anyIn(words, greetWords):
		return intentGreeting
	}
	return intentSearch
}

func allIn(words []string, set map[string]bool) bool {
	for _, w := range words {
		if !set[w] {
			return false
		}
	}
	return true
}

func anyIn(words []string, set map[string]bool) bool {
	for _, w := range words {
		if set[w] {
			return true
		}
	}
	return false
}

// The replies to small talk.
var (
	greetReply = textmatch.Phrase{
		RU: "Привет! Чем помочь? Могу найти фильм или сериал в каталоге, посчитать серии и фильмы или посоветовать, что посмотреть.",
		EN: "Hello! How can I help? I can find a film or series in the catalogue, count episodes and films, or suggest something to watch.",
	}
	thanksReply = textmatch.Phrase{
		RU: "Пожалуйста! Обращайтесь, если захотите что-нибудь найти или посмотреть.",
		EN: "You're welcome! Ask me whenever you want to find or watch something.",
	}
	byeReply = textmatch.Phrase{
		RU: "До встречи! Приятного просмотра.",
		EN: "See you! Enjoy watching.",
	}
	helpReply = textmatch.Phrase{
		RU: "Я офлайн-помощник медиатеки и отвечаю по вашему каталогу. Спросите, например:\n" +
			"• «есть ли у меня Матрица» — найду фильм или сериал;\n" +
			"• «сколько серий в Кухне», «сколько фильмов 2010 года», «сколько комедий на Disk 2» — посчитаю;\n" +
			"• «посоветуй комедию», «что посмотреть вечером», «покажи фантастику» — подберу;\n" +
			"• «какие субтитры у Матрицы» — перечислю файлы субтитров.",
		EN: "I am the library's offline assistant and I answer from your catalogue. Try, for example:\n" +
			"• “do I have The Matrix” — I find a film or series;\n" +
			"• “how many episodes of Dark”, “how many movies from 2010”, “how many films are on Disk 2” — I count;\n" +
			"• “recommend a comedy”, “what can I watch tonight”, “show me science fiction” — I suggest;\n" +
			"• “which subtitles does The Matrix have” — I list the subtitle files.",
	}
)

// smallTalk answers a greeting, thanks, goodbye or help request.
func smallTalk(q question) []string {
	switch q.intent {
	case intentThanks:
		return []string{thanksReply.In(q.lang)}
	case intentBye:
		return []string{byeReply.In(q.lang)}
	case intentHelp:
		return []string{helpReply.In(q.lang)}
	}
	return []string{greetReply.In(q.lang)}
}
