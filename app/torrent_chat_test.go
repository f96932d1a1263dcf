package app

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/repository/torznab/torznabtest"
	"mediateka/usecase/torrent/torrenttest"
)

// chat sends message as token's owner and returns the answer and the
// plugin that gave it.
func (ta *testApp) chat(t *testing.T, token, message string) (answer, by string) {
	t.Helper()
	resp, body := ta.do(t, "POST", "/api/chat", token, map[string]any{"message": message})
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	answer, _ = body["response"].(string)
	by, _ = body["handled_by"].(string)
	return answer, by
}

func TestTorrentsPluginAgainstTheDaemon(t *testing.T) {
	t.Parallel()
	ta, d, user := torrentApp(t, nil)
	admin := ta.login(t, "admin@localhost", ta.initialPassword(t))

	answer, by := ta.chat(t, user, "торренты")
	assert.Equal(t, "torrents", by)
	assert.Equal(t, "В торрент-клиенте нет торрентов.", answer)

	answer, by = ta.chat(t, user, "скачай "+filmMagnet)
	assert.Equal(t, "torrents", by)
	assert.Equal(t, "Торрент добавлен в клиент (хэш "+filmHash+").", answer, "adding is a user's right, as POST /download is")
	require.Eventually(t, func() bool { _, ok := torrentsByHash(t, ta, user)[filmHash]; return ok },
		10*time.Second, 50*time.Millisecond)
	answer, _ = ta.chat(t, user, "download "+filmMagnet)
	assert.Equal(t, "The client already has this torrent.", answer)
	answer, _ = ta.chat(t, user, "скачай magnet:?xt=urn:btih:123")
	assert.Contains(t, answer, "Эту ссылку нельзя добавить")

	require.Eventually(t, func() bool { return torrentsByHash(t, ta, user)[filmHash]["client_state"] == "metaDL" },
		10*time.Second, 50*time.Millisecond, "qBittorrent queues a magnet for a moment, then waits for metadata")
	answer, by = ta.chat(t, user, "what's downloading?")
	assert.Equal(t, "torrents", by)
	assert.Contains(t, answer, "Downloading 1 of 1:\n1. Some.Film.2019.1080p — fetching metadata, 0%")
	answer, _ = ta.chat(t, user, "Мои торренты")
	assert.Contains(t, answer, "Торрентов: 1.\n1. Some.Film.2019.1080p — получает метаданные")

	answer, by = ta.chat(t, user, "пауза some film")
	assert.Equal(t, "torrents", by)
	assert.Equal(t, "Это может сделать только администратор медиатеки.", answer)
	assert.Equal(t, "metaDL", torrentsByHash(t, ta, user)[filmHash]["client_state"], "a user's pause changes nothing")

	answer, _ = ta.chat(t, admin, "пауза some film")
	assert.Equal(t, "Торрент «Some.Film.2019.1080p» поставлен на паузу.", answer)
	require.Eventually(t, func() bool { return torrentsByHash(t, ta, user)[filmHash]["state"] == "Paused" },
		5*time.Second, 50*time.Millisecond)
	answer, _ = ta.chat(t, admin, "resume Some.Film.2019")
	assert.Equal(t, "Resumed “Some.Film.2019.1080p”.", answer)
	require.Eventually(t, func() bool { return torrentsByHash(t, ta, user)[filmHash]["state"] != "Paused" },
		5*time.Second, 50*time.Millisecond)
	answer, _ = ta.chat(t, admin, "recheck nothing like this")
	assert.Equal(t, "The client has no torrent called “nothing like this”.", answer)
	answer, _ = ta.chat(t, admin, "recheck "+filmHash[:8])
	assert.Equal(t, "Recheck of “Some.Film.2019.1080p” started.", answer, "a hash prefix names a torrent too")

	_, by = ta.chat(t, user, "привет, как дела?")
	assert.NotEqual(t, "torrents", by, "unrelated messages pass")
	_, by = ta.chat(t, user, "найди торрент Интерстеллар")
	assert.NotEqual(t, "torrents", by, "a search is torrent_search's (not configured here: it passes to the model)")

	d.Stop()
	answer, by = ta.chat(t, user, "торренты")
	assert.Equal(t, "torrents", by)
	assert.Contains(t, answer, "Торрент-клиент сейчас недоступен")
}

func TestTorrentSearchPluginFindsAndDownloads(t *testing.T) {
	t.Parallel()
	file, fileHash := torrenttest.SingleFile("Interstellar.2014.720p.mkv", bytes.Repeat([]byte("i"), 30_000))
	dl := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/x-bittorrent")
		_, _ = w.Write(file)
	}))
	t.Cleanup(dl.Close)
	items := []torznabtest.Item{
		{Title: "Интерстеллар / Interstellar (2014) BDRip 1080p", Size: 10 << 30, Seeders: 80, Peers: 90, Cats: []int{2040},
			Magnet: "magnet:?xt=urn:btih:" + hash1080 + "&dn=Interstellar"},
		{Title: "Интерстеллар / Interstellar (2014) WEB-DL 720p", Size: 3 << 30, Seeders: 40, Peers: 41, Cats: []int{2040},
			Link: dl.URL + "/dl/2"},
	}
	good := torznabtest.Start(t, torznabtest.Options{APIKey: indexerKey, Items: items})
	slow := torznabtest.Start(t, torznabtest.Options{APIKey: indexerKey, Items: items, Delay: time.Minute})
	ta, _, user := torrentApp(t, indexerConfig(t, indexer("rutracker", good, ""), indexer("slow", slow, "500ms")))
	admin := ta.login(t, "admin@localhost", ta.initialPassword(t))

	answer, by := ta.chat(t, user, "скачай 2")
	assert.Equal(t, "torrent_search", by)
	assert.Equal(t, "Сначала найдите торрент, например: «найди торрент Интерстеллар».", answer)

	answer, by = ta.chat(t, user, "найди торрент Интерстеллар")
	assert.Equal(t, "torrent_search", by)
	assert.Equal(t, "Торренты по запросу «интерстеллар» (лучшие 2 из 2):\n"+
		"1. Интерстеллар / Interstellar (2014) BDRip 1080p — 10 ГБ, сидов 80, rutracker\n"+
		"2. Интерстеллар / Interstellar (2014) WEB-DL 720p — 3,0 ГБ, сидов 40, rutracker\n"+
		"Чтобы скачать, напишите «скачай 1»…«скачай 2».\nНе ответили: slow.", answer)

	answer, _ = ta.chat(t, admin, "download 1")
	assert.Equal(t, "Search first, for example: “find torrent Interstellar”.", answer, "each caller picks from their own search")

	answer, by = ta.chat(t, user, "скачай 2")
	assert.Equal(t, "torrent_search", by)
	assert.Equal(t, "Добавлено в торрент-клиент: «Интерстеллар / Interstellar (2014) WEB-DL 720p».", answer)
	require.Eventually(t, func() bool { _, ok := torrentsByHash(t, ta, user)[fileHash]; return ok },
		10*time.Second, 50*time.Millisecond, "the .torrent behind the indexer's link was added")
	answer, _ = ta.chat(t, user, "скачай второй")
	assert.Equal(t, "«Интерстеллар / Interstellar (2014) WEB-DL 720p» уже есть в торрент-клиенте.", answer)
	answer, _ = ta.chat(t, user, "скачай 5")
	assert.Equal(t, "В последнем поиске только 2 результатов.", answer)

	answer, _ = ta.chat(t, admin, "find movie torrent interstellar 720p")
	assert.Contains(t, answer, "Torrents for “interstellar 720p” (top 1 of 1):\n1. Интерстеллар / Interstellar (2014) WEB-DL 720p — 3.0 GB, seeders 40, rutracker")
	reqs := good.Requests()
	assert.Equal(t, "movie", reqs[len(reqs)-1].Get("t"))
	answer, _ = ta.chat(t, admin, "download 1")
	assert.Equal(t, "The torrent client already has “Интерстеллар / Interstellar (2014) WEB-DL 720p”.", answer)
	answer, _ = ta.chat(t, admin, "download 2")
	assert.Equal(t, "The last search showed only 1 results.", answer)
}
