package torrentsearch

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"mediateka/domain"
	"mediateka/usecase/torrent"
)

func TestMemoryIsBoundedAndExpires(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	m := newMemory(2, 30*time.Minute, func() time.Time { return now })
	found := func(title string) []torrent.Found {
		return []torrent.Found{{TorrentRelease: domain.TorrentRelease{Title: title}}}
	}
	m.put(1, found("a"))
	now = now.Add(time.Minute)
	m.put(2, found("b"))
	now = now.Add(time.Minute)
	m.put(3, found("c"))
	assert.Nil(t, m.get(1), "the longest unused caller is dropped when full")
	assert.Equal(t, "b", m.get(2)[0].Title)
	assert.Equal(t, "c", m.get(3)[0].Title)
	now = now.Add(31 * time.Minute)
	assert.Nil(t, m.get(3), "expired")
}

func TestParse(t *testing.T) {
	t.Parallel()
	cases := map[string]command{
		"найди торрент Интерстеллар":         {kind: cmdFind, query: "интерстеллар"},
		"Найди мне торрент фильма Матрица":   {kind: cmdFind, query: "матрица", category: "movies"},
		"find torrent Interstellar":          {kind: cmdFind, query: "interstellar"},
		"search for a series torrent Dark":   {kind: cmdFind, query: "dark", category: "series"},
		"find torrents for the matrix":       {kind: cmdFind, query: "matrix"},
		"скачай 2":                           {kind: cmdPick, n: 2},
		"download #3":                        {kind: cmdPick, n: 3},
		"скачай номер 1":                     {kind: cmdPick, n: 1},
		"скачай второй":                      {kind: cmdPick, n: 2},
		"найди Интерстеллар":                 {},
		"найди торрент":                      {},
		"скачай 6":                           {},
		"скачай Интерстеллар":                {},
		"download 2 and then something else": {},
	}
	for msg, want := range cases {
		assert.Equal(t, want, parse(msg), msg)
	}
}
