package logs_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"mediateka/domain"
	"mediateka/usecase/logs"
)

func TestCheckName(t *testing.T) {
	ok := []string{"mediateka.log", "mediateka-2026-11-23T18-37-53.123.log", "mediateka-2026-11-23T18-37-53.123.log.gz",
		"notes.txt", "dump.json", "report_mediateka.log_20261123T183753.123Z.md", "APP.LOG", "старый.log"}
	for _, n := range ok {
		assert.NoError(t, logs.CheckName(n), n)
	}
	bad := map[string]string{
		"empty":               "",
		"dot dot":             "..",
		"parent":              "../mediateka.log",
		"dot dot inside":      "a..log",
		"absolute":            "/etc/passwd.log",
		"backslash":           `..\mediateka.log`,
		"backslash only":      `logs\mediateka.log`,
		"NUL":                 "mediateka.log\x00.png",
		"control":             "a\nb.log",
		"hidden":              ".env.log",
		"drive":               "C:mediateka.log",
		"wrong extension":     "mediateka.db",
		"gz of anything":      "backup.tar.gz",
		"extension only":      ".log",
		"too long":            strings.Repeat("a", 252) + ".log",
		"invalid utf8":        "\xff.log",
		"extension then more": "mediateka.log.exe",
	}
	for why, n := range bad {
		assert.ErrorIs(t, logs.CheckName(n), domain.ErrInvalidFilename, why)
	}
}

func TestTemplate(t *testing.T) {
	cases := map[string]string{
		"scan of /srv/media/a b.mkv took 12 ms":                  "scan of {path} b.mkv took {n} ms",
		"user 42 signed in as ann@example.org":                   "user {n} signed in as {email}",
		`title "Сталкер" not found`:                              "title {quoted} not found",
		"torrent 9f86d081884c7d659a2feaa0c55ad015 stalled":       "torrent {hex} stalled",
		"room 123e4567-e89b-12d3-a456-426614174000 closed":       "room {uuid} closed",
		"GET https://api.example.org/v1?q=1 failed":              "GET {url} failed",
		"retry 3/5 after 1.5s":                                   "retry {n}/{n} after {n}s",
		"took=250ms id=abc123def user=a1b2z9":                    "took={n}ms id={hex} user={id}",
		"don't panic (attempt 7)":                                "don't panic (attempt {n})",
		"job a1b2c3d4e5f6a7b8c9d0 done, 0x1f flags":              "job {hex} done, {hex} flags",
		"no variables here":                                      "no variables here",
		"listening on 127.0.0.1:3000":                            "listening on {n}",
		"path C:\\media\\x.mkv is missing":                       "path {path} is missing",
		"token eyJhbGciOiJIUzI1NiJ9abcDEF12345 rejected, 2 left": "token {hex} rejected, {n} left",
	}
	for in, want := range cases {
		assert.Equal(t, want, logs.Template(in), in)
	}
}
