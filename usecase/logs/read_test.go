package logs_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/logfile"
	"mediateka/usecase/logs"
)

func msgs(p logs.Page) []string {
	var out []string
	for _, l := range p.Lines {
		switch {
		case l.Msg != nil:
			out = append(out, *l.Msg)
		default:
			out = append(out, "raw:"+l.Raw)
		}
	}
	return out
}

func TestTailIsTheLastMatchingLinesInOrder(t *testing.T) {
	f := newFixture(t, false)
	for i := range 1000 {
		f.log.Info(fmt.Sprintf("line %d", i), "i", i)
	}
	p, err := f.svc.Read(context.Background(), logs.Query{Filename: logfile.ActiveName, Tail: 3})
	require.NoError(t, err)
	assert.Equal(t, []string{"line 997", "line 998", "line 999"}, msgs(p))
	assert.Equal(t, 1000, p.TotalLines)
	l := p.Lines[2]
	require.NotNil(t, l.Time)
	assert.WithinDuration(t, time.Now(), *l.Time, time.Minute)
	assert.Equal(t, "info", l.Level)
	assert.Equal(t, map[string]any{"i": float64(999)}, l.Attrs)
	assert.Empty(t, l.Raw)

	p, err = f.svc.Read(context.Background(), logs.Query{Filename: logfile.ActiveName, Tail: 0})
	require.NoError(t, err)
	assert.Len(t, p.Lines, 1000, "tail 0 is the whole file")
	assert.Equal(t, "line 0", *p.Lines[0].Msg)
}

// TestAReadIsCappedAt10000Lines: the whole file (tail 0) is its first
// 10 000 lines, a tail above the cap its last 10 000.
func TestAReadIsCappedAt10000Lines(t *testing.T) {
	f := newFixture(t, false)
	for i := range logs.MaxLines + 50 {
		f.log.Info(fmt.Sprintf("line %d", i))
	}
	for _, tc := range []struct {
		tail        int
		first, last string
	}{
		{0, "line 0", "line 9999"},
		{-5, "line 0", "line 9999"},
		{20_000, "line 50", "line 10049"},
	} {
		p, err := f.svc.Read(context.Background(), logs.Query{Filename: logfile.ActiveName, Tail: tc.tail})
		require.NoError(t, err)
		got := msgs(p)
		require.Len(t, got, logs.MaxLines, "tail %d", tc.tail)
		assert.Equal(t, []string{tc.first, tc.last}, []string{got[0], got[len(got)-1]}, "tail %d", tc.tail)
		assert.Equal(t, logs.MaxLines+50, p.TotalLines)
	}
}

func TestReadFilters(t *testing.T) {
	f := newFixture(t, false)
	f.log.Debug("debug one")
	f.log.Info("info Scan started")
	f.log.Warn("warn scan slow")
	f.log.Error("error scan failed", "err", "disk gone")
	f.log.Info("info two")
	fh, err := os.OpenFile(filepath.Join(f.dir.Path(), logfile.ActiveName), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, _ = fh.WriteString("panic: a crash trace SCAN " + secret + "\n")
	require.NoError(t, fh.Close())
	read := func(q logs.Query) []string {
		q.Filename, q.Tail = logfile.ActiveName, 100
		p, err := f.svc.Read(context.Background(), q)
		require.NoError(t, err)
		return msgs(p)
	}
	assert.Equal(t, []string{"warn scan slow", "error scan failed"}, read(logs.Query{Level: "warn"}), "level is a minimum")
	assert.Equal(t, []string{"warn scan slow", "error scan failed"}, read(logs.Query{Level: "WARNING"}))
	assert.Equal(t, []string{"error scan failed"}, read(logs.Query{Level: "error"}))
	assert.Equal(t, []string{"info Scan started", "warn scan slow", "error scan failed", "raw:panic: a crash trace SCAN ***"},
		read(logs.Query{Q: "scan"}), "q is case-insensitive, raw lines too, and the secret is masked")
	assert.Equal(t, []string{"error scan failed"}, read(logs.Query{Q: "disk gone"}), "q looks at attributes too")
	assert.Empty(t, read(logs.Query{Since: time.Now().Add(time.Hour)}))
	assert.Len(t, read(logs.Query{Since: time.Now().Add(-time.Hour)}), 5, "records only: a raw line has no time")
	assert.Empty(t, read(logs.Query{Until: time.Now().Add(-time.Hour)}))

	for _, level := range []string{"loud", "warn+2", "INFO-4", "DEBUG+1", " info"} {
		_, err = f.svc.Read(context.Background(), logs.Query{Filename: logfile.ActiveName, Level: level})
		assert.ErrorIs(t, err, domain.ErrInvalid("", nil), "level %q", level)
	}
	assert.Len(t, read(logs.Query{Level: "Debug"}), 5, "any case")
	_, err = f.svc.Read(context.Background(), logs.Query{Filename: logfile.ActiveName, Since: time.Now(), Until: time.Now().Add(-time.Hour)})
	assert.ErrorIs(t, err, domain.ErrInvalid("", nil))
	_, err = f.svc.Read(context.Background(), logs.Query{Filename: "absent.log"})
	assert.ErrorIs(t, err, domain.ErrLogFileNotFound)
	_, err = f.svc.Read(context.Background(), logs.Query{Filename: "../x.log"})
	assert.ErrorIs(t, err, domain.ErrInvalidFilename)
}

func TestTailOfACompressedBackup(t *testing.T) {
	f := newFixture(t, false)
	var plain bytes.Buffer
	for i := range 50 {
		fmt.Fprintf(&plain, `{"time":"2026-01-02T03:04:05Z","level":"INFO","msg":"old %d"}`+"\n", i)
	}
	var gz bytes.Buffer
	z := gzip.NewWriter(&gz)
	_, _ = z.Write(plain.Bytes())
	require.NoError(t, z.Close())
	f.write(t, "mediateka-2026-01-02T03-04-05.000.log.gz", gz.String())
	p, err := f.svc.Read(context.Background(), logs.Query{Filename: "mediateka-2026-01-02T03-04-05.000.log.gz", Tail: 2})
	require.NoError(t, err)
	assert.Equal(t, []string{"old 48", "old 49"}, msgs(p))
	assert.Equal(t, 50, p.TotalLines)
}

func TestFilesAndClear(t *testing.T) {
	f := newFixture(t, false)
	f.log.Info("hello")
	f.write(t, "mediateka-2026-01-02T03-04-05.000.log", "old\n")
	f.write(t, "notes.txt", "n\n")
	f.write(t, "database.db", "not a log\n")
	old := time.Now().Add(-48 * time.Hour)
	require.NoError(t, os.Chtimes(filepath.Join(f.dir.Path(), "mediateka-2026-01-02T03-04-05.000.log"), old, old))
	files, err := f.svc.Files(context.Background())
	require.NoError(t, err)
	var names []string
	for _, fl := range files {
		names = append(names, fl.Name)
	}
	assert.Equal(t, "mediateka-2026-01-02T03-04-05.000.log", names[len(names)-1], "newest first")
	assert.ElementsMatch(t, []string{"mediateka.log", "notes.txt", "mediateka-2026-01-02T03-04-05.000.log"}, names, "only allowed names")

	cleared, err := f.svc.Clear(context.Background(), "")
	require.NoError(t, err)
	assert.ElementsMatch(t, names, cleared)
	f.log.Info("after")
	p, err := f.svc.Read(context.Background(), logs.Query{Filename: logfile.ActiveName, Tail: 10})
	require.NoError(t, err)
	assert.Equal(t, []string{"after"}, msgs(p))
	b, err := os.ReadFile(filepath.Join(f.dir.Path(), "database.db"))
	require.NoError(t, err)
	assert.Equal(t, "not a log\n", string(b), "clear all touches only log files")
	_, err = f.svc.Clear(context.Background(), "database.db")
	assert.ErrorIs(t, err, domain.ErrInvalidFilename)
}

func TestStatsCountTheLastDay(t *testing.T) {
	f := newFixture(t, false)
	day := time.Now().UTC().Add(-30 * time.Hour).Format(time.RFC3339)
	recent := time.Now().UTC().Add(-time.Hour).Format(time.RFC3339)
	f.write(t, "app.log", fmt.Sprintf(`{"time":%q,"level":"ERROR","msg":"old"}`+"\n"+
		`{"time":%q,"level":"ERROR","msg":"new"}`+"\n"+`{"time":%q,"level":"WARN","msg":"new"}`+"\nnot json\n", day, recent, recent))
	f.log.Info("one")
	f.log.Info("two")
	f.log.Debug("three")
	st, err := f.svc.Stats(context.Background())
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"debug": 1, "info": 2, "warn": 1, "error": 1}, st.ByLevel)
	assert.Equal(t, 1, st.ErrorsLast24h)
	assert.Equal(t, 2, st.FileCount)
	assert.Equal(t, 0, st.ReportCount)
	assert.Positive(t, st.TotalSizeBytes)
	assertHourly(t, st.ErrorsPerHour, map[time.Time]int{mustTime(t, recent).Truncate(time.Hour): 1})
}

// assertHourly checks 24 whole UTC hours, oldest first and the last the
// one under way, with want's counts and 0 elsewhere.
func assertHourly(t *testing.T, h logs.HourlyCounts, want map[time.Time]int) {
	t.Helper()
	for i, start := range h.Hours {
		assert.Equal(t, time.UTC, start.Location())
		assert.Equal(t, start.Truncate(time.Hour), start, "a whole hour")
		if i > 0 {
			assert.Equal(t, h.Hours[i-1].Add(time.Hour), start, "hour after hour")
		}
		assert.Equal(t, want[start], h.Counts[i], "errors of %s", start)
	}
	last := h.Hours[len(h.Hours)-1]
	assert.WithinRange(t, time.Now(), last, last.Add(time.Hour+time.Minute), "the last is the hour under way")
	sum := 0
	for _, n := range want {
		sum += n
	}
	total := 0
	for _, n := range h.Counts {
		total += n
	}
	assert.Equal(t, sum, total)
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	require.NoError(t, err)
	return v.UTC()
}

// TestReadMasksSecretsInsideLists: a line the logger did not write (or
// wrote before its rule reached into lists) shows no secret in a read,
// however deep.
func TestReadMasksSecretsInsideLists(t *testing.T) {
	f := newFixture(t, false)
	f.write(t, "old.log", `{"time":"2026-01-02T03:04:05Z","level":"INFO","msg":"cmd","args":["--password","`+secret+`"],`+
		`"hops":[{"token":"tok-123456","host":"a"},[{"cookie":"c-123456"}]]}`+"\n")
	p, err := f.svc.Read(context.Background(), logs.Query{Filename: "old.log", Tail: 10})
	require.NoError(t, err)
	require.Len(t, p.Lines, 1)
	assert.Equal(t, map[string]any{"args": []any{"--password", "***"},
		"hops": []any{map[string]any{"token": "***", "host": "a"}, []any{map[string]any{"cookie": "***"}}}}, p.Lines[0].Attrs)
}

// TestQMatchesWhatTheReadShows: q looks at the masked message and
// attribute values, so it cannot guess a secret one character at a time,
// and a key, the level or the time do not match by themselves.
func TestQMatchesWhatTheReadShows(t *testing.T) {
	f := newFixture(t, false)
	f.write(t, "app.log", `{"time":"2026-01-02T03:04:05Z","level":"INFO","msg":"login","password":"pw-guessable","user":"ann"}`+"\n"+
		`{"time":"2026-01-02T03:04:06Z","level":"INFO","msg":"http","status":200,"ok":true,"tags":["Quoted \"x\""]}`+"\n"+
		"panic: trace with "+secret+"\n")
	read := func(q string) []string {
		p, err := f.svc.Read(context.Background(), logs.Query{Filename: "app.log", Tail: 100, Q: q})
		require.NoError(t, err)
		return msgs(p)
	}
	for _, guess := range []string{"pw-g", "pw-guessable", secret[:6], secret} {
		assert.Empty(t, read(guess), "a masked value cannot be found: %q", guess)
	}
	assert.Equal(t, []string{"login"}, read("ANN"), "attribute values, any case")
	assert.Equal(t, []string{"login", "raw:panic: trace with ***"}, read("***"), "the mask itself is what shows")
	assert.Empty(t, read("password"), "keys are not searched")
	assert.Empty(t, read("level"))
	assert.Empty(t, read("2026-01-02"), "nor the time")
	assert.Equal(t, []string{"http"}, read("200"), "numbers as they read")
	assert.Equal(t, []string{"http"}, read(`quoted "x"`), "escaped text as it reads, inside lists")
}

// TestSinceReadsPastARecordWithoutTime: a JSON line without a time in
// the middle of the tail does not end the backward read early.
func TestSinceReadsPastARecordWithoutTime(t *testing.T) {
	f := newFixture(t, false)
	var b strings.Builder
	for i := range 6 {
		if i == 4 {
			b.WriteString(`{"level":"INFO","msg":"no time"}` + "\n")
		}
		fmt.Fprintf(&b, `{"time":"2026-01-02T03:04:0%dZ","level":"INFO","msg":"at %d"}`+"\n", i, i)
	}
	f.write(t, "app.log", b.String())
	p, err := f.svc.Read(context.Background(), logs.Query{Filename: "app.log", Tail: 10,
		Since: time.Date(2026, 1, 2, 3, 4, 2, 0, time.UTC)})
	require.NoError(t, err)
	assert.Equal(t, []string{"at 2", "at 3", "at 4", "at 5"}, msgs(p), "the timeless record is left out, the older ones still read")
}

// TestALongLineReadsTheSameBothWays: a line over the 64 KiB a read shows
// keeps its start from the end as from the start, so a record keeps its
// time and level (and the level filter still finds it).
func TestALongLineReadsTheSameBothWays(t *testing.T) {
	f := newFixture(t, false)
	long := `{"time":"2026-01-02T03:04:05Z","level":"ERROR","msg":"huge","blob":"` + strings.Repeat("b", 100<<10) + `"}`
	f.write(t, "app.log", `{"time":"2026-01-02T03:04:04Z","level":"INFO","msg":"before"}`+"\n"+long+"\n")
	var got []string
	for _, q := range []logs.Query{{Tail: 1}, {Tail: 0}, {Tail: 5, Level: "error"}} {
		q.Filename = "app.log"
		p, err := f.svc.Read(context.Background(), q)
		require.NoError(t, err)
		require.NotEmpty(t, p.Lines)
		got = append(got, p.Lines[len(p.Lines)-1].Raw)
	}
	assert.Equal(t, long[:64<<10], got[0], "the tail keeps the start")
	assert.Equal(t, got[0], got[1], "the same from the start")
	assert.Equal(t, got[0], got[2])
}

// vanishing is the log folder with rotation deleting a backup right
// after the listing.
type vanishing struct {
	*logfile.Dir
	gone string
}

func (v vanishing) List() ([]domain.LogFile, error) {
	files, err := v.Dir.List()
	_ = os.Remove(filepath.Join(v.Path(), v.gone))
	return files, err
}

// TestClearAllSkipsAFileRotatedAway: a backup deleted between the
// listing and its turn does not stop the files after it being cleared.
func TestClearAllSkipsAFileRotatedAway(t *testing.T) {
	f := newFixture(t, false)
	old := time.Now().Add(-time.Hour)
	for i, name := range []string{"a.log", "b.log", "c.log"} {
		f.write(t, name, "line\n")
		at := old.Add(time.Duration(i) * time.Minute)
		require.NoError(t, os.Chtimes(filepath.Join(f.dir.Path(), name), at, at))
	}
	svc := logs.New(vanishing{Dir: f.dir, gone: "b.log"}, nil, logs.Options{})
	cleared, err := svc.Clear(context.Background(), "")
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"a.log", "c.log"}, cleared)
	for _, name := range []string{"a.log", "c.log"} {
		fi, err := os.Stat(filepath.Join(f.dir.Path(), name))
		require.NoError(t, err)
		assert.Zero(t, fi.Size(), name)
	}
	_, err = svc.Clear(context.Background(), "b.log")
	assert.ErrorIs(t, err, domain.ErrLogFileNotFound, "one file asked for by name is still 404")
}

// gzipped is content compressed as lumberjack writes a backup.
func gzipped(t *testing.T, content string) string {
	t.Helper()
	var gz bytes.Buffer
	z := gzip.NewWriter(&gz)
	_, err := z.Write([]byte(content))
	require.NoError(t, err)
	require.NoError(t, z.Close())
	return gz.String()
}

// TestFiltersAndStatsOnACompressedBackup: since, until and level work on
// a .gz (read from its start), and stats count its last day.
func TestFiltersAndStatsOnACompressedBackup(t *testing.T) {
	f := newFixture(t, false)
	now := time.Now().UTC().Truncate(time.Second)
	var b strings.Builder
	for i := range 10 {
		level := "INFO"
		if i%3 == 0 {
			level = "ERROR"
		}
		at := now.Add(time.Duration(i-40) * time.Hour) // 40 h ago … 31 h ago
		if i >= 5 {
			at = now.Add(time.Duration(i-10) * time.Hour) // 5 h ago … 1 h ago
		}
		fmt.Fprintf(&b, `{"time":%q,"level":%q,"msg":"m%d"}`+"\n", at.Format(time.RFC3339), level, i)
	}
	b.WriteString("not a record\n")
	name := "mediateka-2026-01-02T03-04-05.000.log.gz"
	f.write(t, name, gzipped(t, b.String()))
	read := func(q logs.Query) []string {
		q.Filename = name
		p, err := f.svc.Read(context.Background(), q)
		require.NoError(t, err)
		return msgs(p)
	}
	assert.Equal(t, []string{"m5", "m6", "m7", "m8", "m9"}, read(logs.Query{Tail: 100, Since: now.Add(-6 * time.Hour)}))
	assert.Equal(t, []string{"m8", "m9"}, read(logs.Query{Tail: 2, Since: now.Add(-6 * time.Hour)}))
	assert.Equal(t, []string{"m0", "m3"}, read(logs.Query{Tail: 100, Level: "error", Until: now.Add(-24 * time.Hour)}))
	assert.Equal(t, []string{"m6", "m9"}, read(logs.Query{Tail: 0, Level: "ERROR", Since: now.Add(-6 * time.Hour)}))

	st, err := f.svc.Stats(context.Background())
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"debug": 0, "info": 3, "warn": 0, "error": 2}, st.ByLevel, "the last 24 h of the .gz")
	assert.Equal(t, 2, st.ErrorsLast24h)
	assert.Equal(t, 1, st.FileCount)
	// m6 (4 h ago) and m9 (1 h ago) in their hours; m0 and m3 are older.
	assertHourly(t, st.ErrorsPerHour, map[time.Time]int{now.Add(-4 * time.Hour).Truncate(time.Hour): 1, now.Add(-time.Hour).Truncate(time.Hour): 1})
}
