package telegram_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/plugins/telegram"
	"mediateka/usecase/control"
	"mediateka/usecase/torrent"
)

// titles is a telegram.Catalog over fixed entries; it records the
// queries.
type titles struct {
	entries []domain.Media
	mu      sync.Mutex
	asked   []string
}

func (c *titles) SearchTitles(_ context.Context, q string, limit int) ([]domain.Media, error) {
	c.mu.Lock()
	c.asked = append(c.asked, fmt.Sprintf("%s/%d", q, limit))
	c.mu.Unlock()
	return c.entries[:min(limit, len(c.entries))], nil
}

// rooms is a telegram.Rooms that records plays and answers err.
type rooms struct {
	mu    sync.Mutex
	plays []string
	err   error
}

func (r *rooms) Play(_ context.Context, room string, c domain.Caller, id int64) (domain.Media, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.plays = append(r.plays, fmt.Sprintf("%s as %d: %d", room, c.UserID, id))
	if r.err != nil {
		return domain.Media{}, r.err
	}
	return domain.Media{ID: id, Title: fmt.Sprintf("Film %d", id)}, nil
}

func (r *rooms) played() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.plays...)
}

// indexers is a telegram.TorrentSearch and telegram.Torrents: fixed
// results, and the downloads asked for.
type indexers struct {
	items    []torrent.Found
	err      error
	mu       sync.Mutex
	added    []torrent.DownloadRequest
	searched int
	dlErr    error
}

func (x *indexers) Search(context.Context, string, string) (torrent.SearchResult, error) {
	x.mu.Lock()
	x.searched++
	x.mu.Unlock()
	return torrent.SearchResult{Items: x.items}, x.err
}

// searches counts the searches asked for.
func (x *indexers) searches() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.searched
}

func (x *indexers) Download(_ context.Context, req torrent.DownloadRequest) (torrent.Added, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.added = append(x.added, req)
	return torrent.Added{Hash: "abc", Method: torrent.MethodMagnet}, x.dlErr
}

func (x *indexers) downloads() []torrent.DownloadRequest {
	x.mu.Lock()
	defer x.mu.Unlock()
	return append([]torrent.DownloadRequest(nil), x.added...)
}

// press pushes a callback query from user in chat about the message
// msgID, and waits for its answerCallbackQuery, which it returns.
func (e *env) press(t *testing.T, id, data string, from, chat int64, msgID int) map[string]string {
	t.Helper()
	before := len(e.fake.Calls("answerCallbackQuery"))
	e.fake.Push(map[string]any{"callback_query": map[string]any{
		"id": id, "data": data, "chat_instance": "x",
		"from":    map[string]any{"id": from, "is_bot": false, "first_name": "B", "language_code": "en"},
		"message": map[string]any{"message_id": msgID, "date": 1700000000, "chat": map[string]any{"id": chat, "type": "private"}},
	}})
	return e.fake.WaitCalls(t, "answerCallbackQuery", before+1)[before].Fields
}

// buttons reads an inline keyboard's rows as "text=callback_data".
func buttons(t *testing.T, markup string) [][]string {
	t.Helper()
	var kb struct {
		InlineKeyboard [][]map[string]any `json:"inline_keyboard"`
	}
	require.NoError(t, json.Unmarshal([]byte(markup), &kb), markup)
	var out [][]string
	for _, row := range kb.InlineKeyboard {
		var r []string
		for _, b := range row {
			require.Len(t, b, 2, "a button has its text and callback_data only: %v", b)
			data := b["callback_data"].(string)
			require.LessOrEqual(t, len(data), 64, "Telegram's limit")
			r = append(r, b["text"].(string)+"="+data)
		}
		out = append(out, r)
	}
	return out
}

// dataOf is the callback_data of the button labelled text.
func dataOf(t *testing.T, markup, text string) string {
	t.Helper()
	for _, row := range buttons(t, markup) {
		for _, b := range row {
			if label, data, _ := cut(b); label == text {
				return data
			}
		}
	}
	t.Fatalf("no button %q in %s", text, markup)
	return ""
}

func cut(b string) (string, string, bool) {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '=' {
			return b[:i], b[i+1:], true
		}
	}
	return b, "", false
}

// labels are a keyboard's button texts.
func labels(t *testing.T, markup string) [][]string {
	var out [][]string
	for _, row := range buttons(t, markup) {
		var r []string
		for _, b := range row {
			label, _, _ := cut(b)
			r = append(r, label)
		}
		out = append(out, r)
	}
	return out
}

func film(id int64, title string, year int) domain.Media {
	return domain.Media{ID: id, Title: title, Year: &year, MediaType: domain.MediaMovie, ModTime: time.Unix(1700000000, 0)}
}

func sevenEntries() []domain.Media {
	missing := film(7, "Heat 2", 2020)
	missing.Status = domain.StatusMissing
	return []domain.Media{
		film(1, "Heat", 1995), {ID: 2, Title: "Heat <Series>", MediaType: domain.MediaSeries},
		film(3, "Heatwave", 2001), film(4, "The Heat Is On, a very long title for a button indeed", 2010),
		film(5, "Heathers", 1989), film(6, "Heat Lightning", 1934), missing,
	}
}

func TestFindListsEntriesWithPlayButtonsAndTurnsPagesByEditing(t *testing.T) {
	cat := &titles{entries: sevenEntries()}
	rm := &rooms{}
	e := start(t, `{}`, telegram.Deps{Chat: echoChat("ok"), Catalog: cat, Rooms: rm})
	msg := e.say(t, adminTG, "en", "/find Heat", 1)[0]
	assert.Equal(t, []string{"Heat/10"}, cat.asked, "two pages' worth")
	assert.Equal(t, "HTML", msg.Fields["parse_mode"])
	assert.Equal(t, "<b>In the library</b> for “Heat” (1–5 of 7):\n"+
		"1. <b>Heat</b> (1995) — film\n"+
		"2. <b>Heat &lt;Series&gt;</b> — series\n"+
		"3. <b>Heatwave</b> (2001) — film\n"+
		"4. <b>The Heat Is On, a very long title for a button indeed</b> (2010) — film\n"+
		"5. <b>Heathers</b> (1989) — film", msg.Fields["text"])
	assert.Equal(t, [][]string{{"▶ 1. Heat"}, {"▶ 3. Heatwave"}, {"▶ 4. The Heat Is On, a very long tit…"}, {"▶ 5. Heathers"}, {"›"}},
		labels(t, msg.Fields["reply_markup"]), "a series has no file to play: no button")
	next := dataOf(t, msg.Fields["reply_markup"], "›")
	assert.Regexp(t, `^f:[A-Za-z0-9_-]{11}:1$`, next)

	// Someone else, or the owner in another chat: refused, nothing edited.
	assert.Equal(t, map[string]string{"callback_query_id": "s", "text": "This button is not for you."},
		e.press(t, "s", next, strangerTG, strangerTG, 1))
	assert.Equal(t, map[string]string{"callback_query_id": "o", "text": "This button is not for you."},
		e.press(t, "o", next, adminTG, 555, 1))
	assert.Empty(t, e.fake.Calls("editMessageText"))

	assert.Equal(t, map[string]string{"callback_query_id": "n"}, e.press(t, "n", next, adminTG, adminTG, 1))
	edit := e.fake.WaitCalls(t, "editMessageText", 1)[0]
	assert.Equal(t, "1001", edit.Fields["chat_id"])
	assert.Equal(t, "1", edit.Fields["message_id"], "the list's own message is edited")
	assert.Equal(t, "HTML", edit.Fields["parse_mode"])
	assert.Equal(t, "<b>In the library</b> for “Heat” (6–7 of 7):\n"+
		"6. <b>Heat Lightning</b> (1934) — film\n"+
		"7. <b>Heat 2</b> (2020) — film, file missing on disk", edit.Fields["text"])
	assert.Equal(t, [][]string{{"▶ 6. Heat Lightning"}, {"‹"}}, labels(t, edit.Fields["reply_markup"]))
	assert.Len(t, e.fake.Calls("sendMessage"), 1, "paging sends no new message")

	play := dataOf(t, edit.Fields["reply_markup"], "▶ 6. Heat Lightning")
	assert.Equal(t, map[string]string{"callback_query_id": "p", "text": "▶ Playing “Film 6” in your room."},
		e.press(t, "p", play, adminTG, adminTG, 1))
	assert.Equal(t, []string{"admin@example.org as 1: 6"}, rm.played(), "the linked account's room, as that account")

	rm.err = control.ErrNoPlayer
	assert.Equal(t, "No player is open in your room: open the media server's player signed in as you.",
		e.press(t, "p2", play, adminTG, adminTG, 1)["text"])
	rm.err = domain.ErrFileMissing
	assert.Equal(t, "This cannot be played: the entry has no video file on disk.",
		e.press(t, "p3", play, adminTG, adminTG, 1)["text"])
	assert.Equal(t, "This button is not for you.", e.press(t, "p4", play, userTG, userTG, 1)["text"])
	assert.Len(t, rm.played(), 3, "the stranger's press played nothing")
}

func TestPlayNeedsALinkedAccount(t *testing.T) {
	rm := &rooms{}
	e := start(t, `{}`, telegram.Deps{Chat: echoChat("ok"), Catalog: &titles{entries: sevenEntries()[:1]}, Rooms: rm})
	msg := e.say(t, userTG, "ru", "/найти Heat", 1)[0]
	assert.Equal(t, "<b>В библиотеке</b> по запросу «Heat» (1–1 из 1):\n1. <b>Heat</b> (1995) — фильм", msg.Fields["text"])
	assert.Equal(t, [][]string{{"▶ 1. Heat"}}, labels(t, msg.Fields["reply_markup"]), "one page: no arrows")
	got := e.press(t, "p", dataOf(t, msg.Fields["reply_markup"], "▶ 1. Heat"), userTG, userTG, 1)
	assert.Equal(t, "Link your media server account first: /link CODE", got["text"])
	assert.Empty(t, rm.played())

	assert.Equal(t, "Напишите название: /find Матрица", sentOf(e.say(t, userTG, "ru", "/find", 1))[0].Text)
	none := &titles{}
	e2 := start(t, `{}`, telegram.Deps{Chat: echoChat("ok"), Catalog: none})
	assert.Equal(t, "Nothing in the library matches “Zork &lt;3&gt;”.", sentOf(e2.say(t, userTG, "en", "/find Zork <3>", 1))[0].Text)
}

func TestListButtonsExpire(t *testing.T) {
	var mu sync.Mutex
	now := time.Unix(1700000000, 0)
	d := telegram.WithNow(telegram.Deps{Chat: echoChat("ok"), Catalog: &titles{entries: sevenEntries()}, Rooms: &rooms{}},
		func() time.Time { mu.Lock(); defer mu.Unlock(); return now })
	e := start(t, `{}`, d)
	msg := e.say(t, adminTG, "en", "/find Heat", 1)[0]
	next := dataOf(t, msg.Fields["reply_markup"], "›")
	mu.Lock()
	now = now.Add(time.Hour)
	mu.Unlock()
	assert.Equal(t, "This button has expired.", e.press(t, "late", next, adminTG, adminTG, 1)["text"])
	assert.Equal(t, "This button has expired.", e.press(t, "forged", "p:AAAAAAAAAAA:0", adminTG, adminTG, 1)["text"])
	assert.Empty(t, e.fake.Calls("editMessageText"))
}

func releases(n int) []torrent.Found {
	var out []torrent.Found
	for i := 1; i <= n; i++ {
		f := torrent.Found{TorrentRelease: domain.TorrentRelease{Title: fmt.Sprintf("Interstellar.2014.%dp", 100*i),
			Size: int64(i) << 30, Seeders: 100 - i, Indexer: "jackett", Magnet: fmt.Sprintf("magnet:?xt=urn:btih:%040d", i)}}
		if i == 2 {
			f.Magnet, f.DownloadURL = "", "http://jackett.local/dl/2"
			f.InLibrary = &torrent.LibraryEntry{ID: 9, Title: "Interstellar"}
		}
		out = append(out, f)
	}
	return out
}

func TestTorrentResultsHaveDownloadButtonsForTheCaller(t *testing.T) {
	x := &indexers{items: releases(7)}
	e := start(t, `{}`, telegram.Deps{Chat: echoChat("ok"), TorrentSearch: x, Torrents: x})
	msg := e.say(t, adminTG, "en", "/torrent Interstellar", 1)[0]
	assert.NotEmpty(t, e.fake.Calls("sendChatAction"), "typing while the indexers answer")
	assert.Equal(t, "<b>Torrents</b> for “Interstellar” (1–5 of 7):\n"+
		"1. Interstellar.2014.100p — 1.0 GB, 99 seeders, jackett\n"+
		"2. Interstellar.2014.200p — 2.0 GB, 98 seeders, jackett (already in the library)\n"+
		"3. Interstellar.2014.300p — 3.0 GB, 97 seeders, jackett\n"+
		"4. Interstellar.2014.400p — 4.0 GB, 96 seeders, jackett\n"+
		"5. Interstellar.2014.500p — 5.0 GB, 95 seeders, jackett", msg.Fields["text"])
	assert.Equal(t, [][]string{{"⬇ 1", "⬇ 2", "⬇ 3", "⬇ 4", "⬇ 5"}, {"›"}}, labels(t, msg.Fields["reply_markup"]))
	markup := msg.Fields["reply_markup"]

	assert.Equal(t, "This button is not for you.", e.press(t, "s", dataOf(t, markup, "⬇ 1"), strangerTG, strangerTG, 1)["text"])
	assert.Empty(t, x.downloads())

	assert.Equal(t, "⬇ Added to the torrent client: Interstellar.2014.200p",
		e.press(t, "d", dataOf(t, markup, "⬇ 2"), adminTG, adminTG, 1)["text"])
	assert.Equal(t, []torrent.DownloadRequest{{URL: "http://jackett.local/dl/2", Title: "Interstellar.2014.200p", Source: "jackett", Admin: true}},
		x.downloads(), "the link without a magnet, as an administrator")
	x.dlErr = domain.ErrConflict("the torrent client already has this torrent (x)")
	assert.Equal(t, "The torrent client already has this torrent.",
		e.press(t, "d2", dataOf(t, markup, "⬇ 1"), adminTG, adminTG, 1)["text"])
	assert.Equal(t, "magnet:?xt=urn:btih:0000000000000000000000000000000000000001", x.downloads()[1].URL)

	assert.Equal(t, map[string]string{"callback_query_id": "n"}, e.press(t, "n", dataOf(t, markup, "›"), adminTG, adminTG, 1))
	edit := e.fake.WaitCalls(t, "editMessageText", 1)[0]
	assert.Equal(t, "<b>Torrents</b> for “Interstellar” (6–7 of 7):\n"+
		"6. Interstellar.2014.600p — 6.0 GB, 94 seeders, jackett\n"+
		"7. Interstellar.2014.700p — 7.0 GB, 93 seeders, jackett", edit.Fields["text"])
	assert.Equal(t, [][]string{{"⬇ 6", "⬇ 7"}, {"‹"}}, labels(t, edit.Fields["reply_markup"]))
	prev := dataOf(t, edit.Fields["reply_markup"], "‹")
	assert.Regexp(t, `^t:[A-Za-z0-9_-]{11}:0$`, prev)
}

func TestTorrentSearchAndDownloadNeedALinkAndSearchErrorsAreSentences(t *testing.T) {
	x := &indexers{items: releases(1)}
	e := start(t, `{}`, telegram.Deps{Chat: echoChat("ok"), TorrentSearch: x, Torrents: x})
	assert.Equal(t, "Link your media server account first: /link CODE",
		sentOf(e.say(t, userTG, "en", "/torrent Interstellar", 1))[0].Text)
	assert.Equal(t, "Сначала привяжите аккаунт медиатеки: /link КОД",
		sentOf(e.say(t, userTG, "ru", "/торрент Интерстеллар", 1))[0].Text)
	assert.Zero(t, x.searches(), "an unlinked user spends none of the indexers' quota")

	e.say(t, userTG, "en", "/link GOOD42", 1)
	msg := e.say(t, userTG, "en", "/torrent Interstellar", 1)[0]
	assert.Equal(t, [][]string{{"⬇ 1"}}, labels(t, msg.Fields["reply_markup"]))
	e.accts.setTelegram(2, nil) // the account drops the link after the search
	assert.Equal(t, "Link your media server account first: /link CODE",
		e.press(t, "d", dataOf(t, msg.Fields["reply_markup"], "⬇ 1"), userTG, userTG, 1)["text"])
	assert.Empty(t, x.downloads(), "POST /api/torrents/download needs an account")

	tg := userTG
	e.accts.setTelegram(2, &tg)
	assert.Equal(t, "⬇ Added to the torrent client: Interstellar.2014.100p",
		e.press(t, "d2", dataOf(t, msg.Fields["reply_markup"], "⬇ 1"), userTG, userTG, 1)["text"])
	assert.False(t, x.downloads()[0].Admin, "a user adds as a user")

	x.err = domain.ErrTorrentSearchNotConfigured
	assert.Equal(t, "Torrent search is not set up: an administrator needs to add a Torznab indexer.",
		sentOf(e.say(t, userTG, "en", "/torrent Dune", 1))[0].Text)
	x.err = domain.ErrIndexersUnavailable
	assert.Equal(t, "Ни один индексатор торрентов не ответил. Попробуйте позже.",
		sentOf(e.say(t, userTG, "ru", "/торрент Дюна", 1))[0].Text)
	x.err, x.items = nil, nil
	assert.Equal(t, "No torrents found for “Dune”.", sentOf(e.say(t, userTG, "en", "/torrent Dune", 1))[0].Text)
	assert.Equal(t, "Send what to look for: /torrent Interstellar", sentOf(e.say(t, userTG, "en", "/torrent", 1))[0].Text)
}
