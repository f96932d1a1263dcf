package torrents

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParse(t *testing.T) {
	t.Parallel()
	const magnet = "magnet:?xt=urn:btih:0123456789abcdef0123456789abcdef01234567&dn=X"
	cases := map[string]command{
		"торренты":                   {kind: cmdList},
		"Покажи мои торренты":        {kind: cmdList},
		"list torrents":              {kind: cmdList},
		"что качается?":              {kind: cmdActive},
		"What's downloading":         {kind: cmdActive},
		"скачай " + magnet:           {kind: cmdAdd, arg: magnet},
		"download torrent " + magnet: {kind: cmdAdd, arg: magnet},
		magnet:                       {kind: cmdAdd, arg: magnet},
		"скачай https://tracker.example/dl/1.torrent": {kind: cmdAdd, arg: "https://tracker.example/dl/1.torrent"},
		"пауза Some.Film":                             {kind: cmdPause, arg: "some film"},
		"pause torrent Dark S01":                      {kind: cmdPause, arg: "dark s01"},
		"возобнови Матрица":                           {kind: cmdResume, arg: "матрица"},
		"recheck Some Film":                           {kind: cmdRecheck, arg: "some film"},
		"пауза":                                       {},
		"скачай 2":                                    {},
		"найди торрент Интерстеллар":                  {},
		"торренты с Матрицей найди":                   {},
		"https://tracker.example/x":                   {},
		"what's on tv":                                {},
	}
	for msg, want := range cases {
		assert.Equal(t, want, parse(msg), msg)
	}
}
