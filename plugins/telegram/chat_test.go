package telegram_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/plugins/mediaorganizer"
	"mediateka/plugins/telegram"
	"mediateka/plugins/telegram/tgfake"
	"mediateka/repository/localfs"
	"mediateka/repository/sqlstore"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/catalog"
	"mediateka/usecase/chat"
	"mediateka/usecase/offline"
	"mediateka/usecase/textmatch"
)

// chainFunc is a plugin chain of one function.
type chainFunc func(ctx context.Context, msg string) (string, string)

func (f chainFunc) Handle(ctx context.Context, msg string) (string, string) { return f(ctx, msg) }

// realChat is the chat use case over a real SQLite catalogue (two Matrix
// films), the offline assistant and a chain holding the real
// media_organizer plugin, which refuses admin actions by caller.
func realChat(t *testing.T) *chat.Service {
	t.Helper()
	db := sqlstoretest.New(t, textmatch.Normalize)
	titled := func(orig string) func(*domain.Media) {
		return func(m *domain.Media) { m.TitleRu, m.TitleOrig, m.MainCategory = m.Title, orig, "sci_fi" }
	}
	db.Movie("Матрица", 1999, titled("The Matrix"))
	db.Movie("Матрица: Перезагрузка", 2003, titled("The Matrix Reloaded"))
	cat := catalog.New(db.Media, db.Media, localfs.FS{}, catalog.Options{})
	t.Cleanup(cat.Close)
	organizer := mediaorganizer.New(mediaorganizer.Deps{})
	chain := chainFunc(func(ctx context.Context, msg string) (string, string) {
		if a, err := organizer.Handle(ctx, msg); err == nil && a != "" {
			return a, organizer.Name()
		}
		return "", ""
	})
	return chat.New(chain, offline.New(cat, offline.Options{}), sqlstore.NewSettings(db.Store), sqlstore.NewActivity(db.Store), chat.Options{})
}

func TestLibraryQuestionIsAnsweredThroughTheChatWithTyping(t *testing.T) {
	ref := &telegram.ChatRef{}
	e := start(t, `{}`, telegram.Deps{Chat: ref})
	got := sentOf(e.say(t, adminTG, "ru", "/help", 1))
	require.Len(t, got, 1)

	got = sentOf(e.say(t, adminTG, "ru", "Есть ли у меня фильм Матрица?", 1))
	assert.Equal(t, "Ассистент сейчас недоступен. Попробуйте чуть позже.", got[0].Text, "the chat is not bound yet")

	ref.Set(realChat(t))
	calls := e.say(t, adminTG, "ru", "Есть ли у меня фильм Матрица?", 1)
	got = sentOf(calls)
	assert.Equal(t, "1001", got[0].ChatID)
	assert.Equal(t, "HTML", got[0].ParseMode)
	assert.Contains(t, got[0].Text, "• Матрица / The Matrix (1999), фильм, Фантастика")
	assert.Contains(t, got[0].Text, "• Матрица: Перезагрузка / The Matrix Reloaded (2003), фильм")
	actions := e.fake.Calls("sendChatAction")
	require.Len(t, actions, 2, "one typing indicator per question")
	assert.Equal(t, map[string]string{"chat_id": "1001", "action": "typing"}, actions[1].Fields)
	var order []string
	for _, c := range e.fake.Calls("") {
		if c.Method != "getUpdates" {
			order = append(order, c.Method)
		}
	}
	assert.Equal(t, []string{"sendChatAction", "sendMessage"}, order[len(order)-2:], "typing comes before the answer")
}

func TestUnlinkedUserAskingToScanIsRefused(t *testing.T) {
	e := start(t, `{}`, telegram.Deps{Chat: realChat(t)})
	got := sentOf(e.say(t, userTG, "ru", "просканируй библиотеку", 1))
	assert.Equal(t, []sent{{ChatID: "1002", Text: "Это может сделать только администратор медиатеки.", ParseMode: "HTML"}}, got)
	got = sentOf(e.say(t, userTG, "en", "scan the library", 1))
	assert.Equal(t, "Only an administrator of the library can do that.", got[0].Text)
}

func TestChatGetsTheCallerAndTheChatsLastTurns(t *testing.T) {
	n := 0
	c := &chatFunc{fn: func(chat.Request) (chat.Answer, error) {
		n++
		return chat.Answer{Text: fmt.Sprintf("answer %d", n)}, nil
	}}
	e := start(t, `{"history_turns": 4}`, telegram.Deps{Chat: c})
	for i := 1; i <= 3; i++ {
		e.say(t, adminTG, "ru", fmt.Sprintf("question %d", i), 1)
	}
	e.say(t, userTG, "en", "hello", 1)
	reqs := c.requests()
	require.Len(t, reqs, 4)
	assert.Equal(t, domain.Caller{UserID: 1, Email: "admin@example.org", Role: domain.RoleAdmin, Admin: true, Lang: "ru"}, reqs[0].Caller)
	assert.Empty(t, reqs[0].History)
	assert.Equal(t, []domain.ChatTurn{{Role: "user", Text: "question 1"}, {Role: "model", Text: "answer 1"}}, reqs[1].History)
	assert.Equal(t, []domain.ChatTurn{
		{Role: "user", Text: "question 1"}, {Role: "model", Text: "answer 1"},
		{Role: "user", Text: "question 2"}, {Role: "model", Text: "answer 2"},
	}, reqs[2].History, "history_turns 4 keeps the last four turns")
	assert.Equal(t, "question 3", reqs[2].Message)
	assert.Equal(t, domain.Caller{Role: domain.RoleUser, Lang: "en"}, reqs[3].Caller, "an unlinked user: role user, no account")
	assert.Empty(t, reqs[3].History, "history is per chat")
}

func TestAnswersAreEscapedForHTML(t *testing.T) {
	answer := "«Матрица» <script>alert('x')</script> & Tom &amp; Jerry > 5"
	e := start(t, `{}`, telegram.Deps{Chat: echoChat(answer)})
	got := sentOf(e.say(t, userTG, "ru", "что это?", 1))
	assert.Equal(t, []sent{{ChatID: "1002", ParseMode: "HTML",
		Text: "«Матрица» &lt;script&gt;alert('x')&lt;/script&gt; &amp; Tom &amp;amp; Jerry &gt; 5"}}, got)
}

// unescape undoes esc, to measure a piece as Telegram does.
func unescape(s string) string {
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(s)
}

func TestLongAnswerIsSplitAtParagraphsThenSentences(t *testing.T) {
	// Five paragraphs of exactly 1000 characters: four fit one message
	// (4 006 with the breaks); the fifth's break would leave a message of
	// a quarter, so the sentences after it fill its piece.
	para := func(i int) string {
		p := fmt.Sprintf("Абзац %d: <b>&amp; ", i)
		return p + strings.Repeat("я", 1000-utf8.RuneCountInString(p))
	}
	var paras []string
	for i := 1; i <= 5; i++ {
		paras = append(paras, para(i))
	}
	// One paragraph of 5 000 characters in sentences: cut after the last
	// sentence that fits.
	sentence := "Это предложение номер 0000 & <тег>. " // 36 characters
	var long strings.Builder
	for i := 0; long.Len() == 0 || utf8.RuneCountInString(long.String()) < 5000; i++ {
		long.WriteString(strings.Replace(sentence, "0000", fmt.Sprintf("%04d", i), 1))
	}
	answer := strings.Join(paras, "\n\n") + "\n\n" + strings.TrimSpace(long.String())
	e := start(t, `{}`, telegram.Deps{Chat: echoChat(answer)})
	got := sentOf(e.say(t, userTG, "ru", "расскажи всё", 3))
	require.Len(t, got, 3)
	want := telegram.Split(answer, telegram.MaxMessageChars)
	require.Len(t, want, 3)
	assert.Equal(t, strings.Join(paras[:4], "\n\n"), want[0])
	// The fifth paragraph and its break take 1 002 characters; 85
	// sentences of 36 (3 059 with the spaces between) fit after them,
	// the 86th does not.
	assert.True(t, strings.HasPrefix(want[1], paras[4]+"\n\nЭто предложение номер 0000"))
	assert.True(t, strings.HasSuffix(want[1], "номер 0084 & <тег>."), want[1][len(want[1])-40:])
	assert.True(t, strings.HasPrefix(want[2], "Это предложение номер 0085 "))
	for i, g := range got {
		assert.Equal(t, "HTML", g.ParseMode)
		assert.Equal(t, want[i], unescape(g.Text), "piece %d is the escaped piece", i)
		assert.LessOrEqual(t, utf8.RuneCountInString(unescape(g.Text)), telegram.MaxMessageChars)
	}
	assert.Equal(t, strings.Join(strings.Fields(answer), " "), strings.Join(strings.Fields(strings.Join(want, " ")), " "),
		"nothing is lost or repeated")
}

func TestSplitCountsUTF16AndCutsWordsOnlyAsALastResort(t *testing.T) {
	assert.Equal(t, []string{"😀😀", "😀"}, telegram.Split("😀😀😀", 4), "an emoji is two UTF-16 units")
	assert.Equal(t, []string{"abcd", "efgh", "ij"}, telegram.Split("abcdefghij", 4))
	assert.Equal(t, []string{"one two", "three"}, telegram.Split("one two three", 9))
	assert.Equal(t, []string{"Да.", "Нет!", "Может?"}, telegram.Split("Да. Нет! Может?", 7))
	assert.Empty(t, telegram.Split("  \n ", 10))
}

func TestSplitNeverCutsATinyFirstPiece(t *testing.T) {
	long := strings.Repeat("Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", 90)[:5000]
	pieces := telegram.Split("Hi.\n\n"+long, telegram.MaxMessageChars)
	require.Len(t, pieces, 2)
	assert.True(t, strings.HasPrefix(pieces[0], "Hi.\n\nLorem ipsum"), "the greeting stays with the text after it")
	assert.Greater(t, len(pieces[0]), telegram.MaxMessageChars/2, "the break is taken in the last half of the piece")
	assert.LessOrEqual(t, len(pieces[0]), telegram.MaxMessageChars)
	assert.True(t, strings.HasSuffix(pieces[0], "elit."), "cut at the last sentence end that fits: %q", pieces[0][len(pieces[0])-20:])
	assert.Equal(t, "Hi.\n\n"+strings.TrimSpace(long), pieces[0]+" "+pieces[1], "nothing lost")

	lines := "Title\n" + strings.Repeat("x", 30)
	assert.Equal(t, []string{"Title\nxxxxxxxxxxxxxx", "xxxxxxxxxxxxxxxx"}, telegram.Split(lines, 20),
		"a line break early in the piece is no better than a cut")
}

func TestUsersNotAllowedGetOneRefusalAndNoChat(t *testing.T) {
	c := echoChat("secret answer")
	e := start(t, `{"allowed_users": [1001]}`, telegram.Deps{Chat: c, Status: &fixedStatus{}})
	got := sentOf(e.say(t, strangerTG, "ru", "привет", 1))
	assert.Equal(t, []sent{{ChatID: "1003", ParseMode: "HTML",
		Text: "Извините, этот бот закрытый: вашего Telegram-аккаунта нет в списке допущенных. Попросите администратора медиатеки добавить вас."}}, got)
	e.fake.Push(tgfake.Message(strangerTG, "ru", "/status"))
	e.fake.Push(tgfake.Message(strangerTG, "ru", "ещё раз"))
	// An allowed user's message after them: handled in order, so once it
	// is answered the stranger's were handled too.
	got = sentOf(e.say(t, adminTG, "en", "hi", 1))
	assert.Equal(t, "1001", got[0].ChatID)
	assert.Len(t, e.fake.Calls("sendMessage"), 2, "the stranger heard one refusal and nothing else")
	require.Len(t, c.requests(), 1, "the chat was asked only for the allowed user")
	assert.Equal(t, "hi", c.requests()[0].Message)
}

func TestEachTelegramUserHasAMessageRate(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	c := &chatFunc{fn: func(r chat.Request) (chat.Answer, error) { return chat.Answer{Text: "answer to " + r.Message}, nil }}
	e := start(t, `{"rate_per_minute":3}`, telegram.WithNow(telegram.Deps{Chat: c}, clock))
	e.fake.WaitCalls(t, "getUpdates", 1)
	for _, m := range []string{"one", "two", "three", "four", "five"} {
		e.fake.Push(tgfake.Message(userTG, "ru", m))
	}
	// Another user's answer shows the five have been handled (one
	// handler, in order), and that the rate is per user.
	e.fake.Push(tgfake.Message(adminTG, "en", "admin"))
	got := sentOf(e.fake.WaitCalls(t, "sendMessage", 5))
	var texts []string
	for _, g := range got {
		texts = append(texts, g.ChatID+": "+g.Text)
	}
	assert.Equal(t, []string{"1002: answer to one", "1002: answer to two", "1002: answer to three",
		"1002: Слишком много сообщений подряд. Подождите минуту и напишите снова.", "1001: answer to admin"}, texts,
		"three a minute; the fourth hears it once, the fifth nothing")
	assert.Len(t, c.requests(), 4, "refused messages never reach the chat (the AI key)")

	mu.Lock()
	now = now.Add(20 * time.Second) // one message's worth at three a minute
	mu.Unlock()
	assert.Equal(t, "answer to six", sentOf(e.say(t, userTG, "en", "six", 1))[0].Text)
	assert.Equal(t, "Too many messages in a row. Please wait a minute and write again.",
		sentOf(e.say(t, userTG, "en", "seven", 1))[0].Text, "a new window, a new single refusal")
}

func TestRatePerMinuteIsChecked(t *testing.T) {
	for _, bad := range []string{`{"rate_per_minute":-1}`, `{"rate_per_minute":601}`, `{"rate_per_minute":"20"}`} {
		p := telegram.New(telegram.Deps{Chat: echoChat("ok"), Token: "1:x"})
		assert.Error(t, p.Configure([]byte(bad)), bad)
	}
}
