package logfile

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

// backwardLines collects what backward hands out, in file order.
func backwardLines(t *testing.T, content string) []string {
	t.Helper()
	var got []string
	require.NoError(t, backward(strings.NewReader(content), int64(len(content)), func(l []byte) bool {
		got = append(got, string(l))
		return true
	}))
	slices.Reverse(got)
	return got
}

// forwardLines is the reference: split on newlines, no empty lines.
func forwardLines(content string) []string {
	var out []string
	for _, l := range strings.Split(content, "\n") {
		if l = strings.TrimSuffix(l, "\r"); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func TestBackwardMatchesForwardAcrossBlockEdges(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := map[string]string{
		"empty":              "",
		"one line no eol":    "only",
		"one line eol":       "only\n",
		"blank lines":        "\n\na\n\n\nb\n\n",
		"crlf":               "a\r\nb\r\n",
		"line of one block":  strings.Repeat("x", blockSize-1) + "\n" + "tail\n",
		"line over a block":  "head\n" + strings.Repeat("y", blockSize+7) + "\nz",
		"line over 3 blocks": strings.Repeat("w", 3*blockSize+1) + "\nend\n",
	}
	var b strings.Builder
	for i := range 20_000 {
		fmt.Fprintf(&b, "line %d %s\n", i, strings.Repeat("k", rng.IntN(300)))
	}
	cases["many random lines"] = b.String()
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, forwardLines(content), backwardLines(t, content))
		})
	}
}

func TestBackwardStopsWhenAsked(t *testing.T) {
	content := strings.Repeat("line\n", 100_000)
	var n int
	r := &countingReader{r: strings.NewReader(content)}
	require.NoError(t, backward(r, int64(len(content)), func([]byte) bool { n++; return n < 10 }))
	assert.Equal(t, 10, n)
	assert.Equal(t, 1, r.reads, "ten short lines cost one block, not the file")
}

type countingReader struct {
	r     io.ReaderAt
	reads int
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	c.reads++
	return c.r.ReadAt(p, off)
}

// newLogged is a log folder with the real logger writing into it.
func newLogged(t *testing.T, secrets ...string) (*slog.Logger, *Writer, *Dir) {
	t.Helper()
	dir := t.TempDir()
	log, w, err := NewLogger(Options{Dir: dir, Level: "debug", MaxSizeMB: 100, MaxBackups: 3, Redactor: domain.NewRedactor(secrets)})
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	d, err := NewDir(dir, w)
	require.NoError(t, err)
	return log, w, d
}

func readActive(t *testing.T, d *Dir) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(d.Path(), ActiveName))
	require.NoError(t, err)
	return b
}

// TestTruncateKeepsTheLoggerWritingFromTheStart: after a clear, the next
// line is at offset 0 of the same file, with no hole of NULs before it,
// also when the file was created fresh by a rotation (lumberjack opens
// those without O_APPEND).
func TestTruncateKeepsTheLoggerWritingFromTheStart(t *testing.T) {
	for _, c := range []struct {
		rotated bool
		name    string
	}{{false, ActiveName}, {true, ActiveName}, {true, "alias.log"}} {
		rotated := c.rotated
		t.Run(fmt.Sprint("rotated=", rotated, " name=", c.name), func(t *testing.T) {
			log, w, d := newLogged(t)
			require.NoError(t, os.Symlink(ActiveName, filepath.Join(d.Path(), "alias.log")))
			for i := range 100 {
				log.Info("before the clear", "i", i)
			}
			if rotated {
				require.NoError(t, w.lj.Rotate())
				log.Info("first line of the fresh file")
			}
			fi, err := os.Stat(filepath.Join(d.Path(), ActiveName))
			require.NoError(t, err)
			require.NoError(t, d.Truncate(c.name))
			log.Info("after the clear")
			got := readActive(t, d)
			assert.NotContains(t, string(got), "\x00")
			assert.True(t, bytes.HasPrefix(got, []byte(`{"time":"`)), "the file starts with a record: %q", got[:min(len(got), 40)])
			assert.Equal(t, 1, bytes.Count(got, []byte("\n")))
			assert.Contains(t, string(got), "after the clear")
			fi2, err := os.Stat(filepath.Join(d.Path(), ActiveName))
			require.NoError(t, err)
			assert.True(t, os.SameFile(fi, fi2), "the same file, not a new one")
		})
	}
}

func TestLineCountFollowsTheGrowingFile(t *testing.T) {
	log, _, d := newLogged(t)
	for range 10 {
		log.Info("x")
	}
	n, err := d.LineCount(ActiveName)
	require.NoError(t, err)
	assert.Equal(t, 10, n)
	for range 5 {
		log.Info("y")
	}
	n, err = d.LineCount(ActiveName)
	require.NoError(t, err)
	assert.Equal(t, 15, n)
	require.NoError(t, d.Truncate(ActiveName))
	log.Info("z")
	n, err = d.LineCount(ActiveName)
	require.NoError(t, err)
	assert.Equal(t, 1, n)

	require.NoError(t, os.WriteFile(filepath.Join(d.Path(), "open.txt"), []byte("a\nb\nno newline yet"), 0o600))
	n, err = d.LineCount("open.txt")
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	n, err = d.LineCount("open.txt")
	require.NoError(t, err)
	assert.Equal(t, 3, n, "asked again with nothing new")
}

func TestSymlinksMayNotLeadOut(t *testing.T) {
	_, _, d := newLogged(t)
	outside := filepath.Join(t.TempDir(), "secret.log")
	require.NoError(t, os.WriteFile(outside, []byte("outside\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(d.Path(), "inside.log"), []byte("inside\n"), 0o600))
	require.NoError(t, os.Symlink(outside, filepath.Join(d.Path(), "out.log")))
	require.NoError(t, os.Symlink("inside.log", filepath.Join(d.Path(), "alias.log")))
	require.NoError(t, os.Symlink("missing.log", filepath.Join(d.Path(), "dangling.log")))

	_, err := d.Open("out.log")
	assert.ErrorIs(t, err, domain.ErrInvalidFilename)
	assert.ErrorIs(t, d.Truncate("out.log"), domain.ErrInvalidFilename)
	b, err := os.ReadFile(outside)
	require.NoError(t, err)
	assert.Equal(t, "outside\n", string(b), "the file outside is untouched")

	r, err := d.Open("alias.log")
	require.NoError(t, err)
	b, _ = io.ReadAll(r)
	_ = r.Close()
	assert.Equal(t, "inside\n", string(b), "a link inside the folder is the file it leads to")
	_, err = d.Open("dangling.log")
	assert.ErrorIs(t, err, domain.ErrLogFileNotFound)

	files, err := d.List()
	require.NoError(t, err)
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	assert.ElementsMatch(t, []string{"inside.log", "alias.log"}, names, "no link out, no directory, nothing dangling (the active file opens on its first write)")
}

func TestGzipFilesReadDecompressed(t *testing.T) {
	_, _, d := newLogged(t)
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	_, _ = z.Write([]byte("one\ntwo\n"))
	require.NoError(t, z.Close())
	require.NoError(t, os.WriteFile(filepath.Join(d.Path(), "old.log.gz"), buf.Bytes(), 0o600))
	r, err := d.Open("old.log.gz")
	require.NoError(t, err)
	b, _ := io.ReadAll(r)
	require.NoError(t, r.Close())
	assert.Equal(t, "one\ntwo\n", string(b))
	n, err := d.LineCount("old.log.gz")
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	assert.ErrorIs(t, d.ReadBackward("old.log.gz", func([]byte) bool { return true }), ErrCompressed)

	require.NoError(t, d.Truncate("old.log.gz"))
	r, err = d.Open("old.log.gz")
	require.NoError(t, err, "a cleared .gz reads as empty")
	b, _ = io.ReadAll(r)
	_ = r.Close()
	assert.Empty(t, b)
}

func TestRedactionMasksSecretsOnTheWayIn(t *testing.T) {
	log, _, d := newLogged(t, "hunter2-very-secret")
	log.Info("login with hunter2-very-secret", "password", "pw-123456", "api_key", "k", "key_file", "/data/secret.key",
		"err", fmt.Errorf("bad hunter2-very-secret"), slog.Group("g", "token", "abc", "note", "x hunter2-very-secret"))
	got := string(readActive(t, d))
	assert.NotContains(t, got, "hunter2-very-secret")
	assert.NotContains(t, got, "pw-123456")
	assert.Contains(t, got, `"password":"***"`)
	assert.Contains(t, got, `"key_file":"/data/secret.key"`, "a name ending in _file is where a secret is, not the secret")
	assert.Contains(t, got, `"token":"***"`)
}

func TestReportsAreWrittenWholeOrNotAtAll(t *testing.T) {
	_, _, d := newLogged(t)
	require.NoError(t, d.WriteReport("report_a.md", func(w io.Writer) error { _, err := io.WriteString(w, "# a\n"); return err }))
	err := d.WriteReport("report_b.md", func(w io.Writer) error {
		_, _ = io.WriteString(w, "half")
		return fmt.Errorf("disk full")
	})
	require.Error(t, err)
	reports, err := d.Reports()
	require.NoError(t, err)
	require.Len(t, reports, 1, "no half report, no temporary file left")
	assert.Equal(t, "report_a.md", reports[0].Name)
	b, err := d.ReadReport("report_a.md", 1<<20)
	require.NoError(t, err)
	assert.Equal(t, "# a\n", string(b))
	_, err = d.ReadReport("report_b.md", 1<<20)
	assert.ErrorIs(t, err, domain.ErrLogFileNotFound)
}

// TestRedactionReachesIntoListsAndMaps: a secret inside a list, a map or
// a struct is masked too, by key and by value.
func TestRedactionReachesIntoListsAndMaps(t *testing.T) {
	const pw = "hunter2-very-secret"
	log, _, d := newLogged(t, pw)
	type creds struct {
		User     string `json:"user"`
		Password string `json:"password"`
		Note     string `json:"note"`
	}
	log.Info("cmd", "args", []string{"--password", pw}, "headers", map[string]string{"Authorization": "Bearer abc.def.ghi", "Accept": "x"},
		"nested", map[string]any{"list": []any{map[string]string{"api_key": "k-123456"}, "see " + pw}},
		"creds", creds{User: "ann", Password: "pw-123456", Note: "was " + pw}, "big", uint64(1<<63+1))
	got := string(readActive(t, d))
	for _, leak := range []string{pw, "abc.def.ghi", "k-123456", "pw-123456"} {
		assert.NotContains(t, got, leak)
	}
	assert.Contains(t, got, `"args":["--password","***"]`)
	assert.Contains(t, got, `"Authorization":"***"`)
	assert.Contains(t, got, `"Accept":"x"`)
	assert.Contains(t, got, `"user":"ann"`)
	assert.Contains(t, got, `"note":"was ***"`)
	assert.Contains(t, got, `"big":9223372036854775809`, "numbers stay exact")
}

// TestBackwardKeepsTheStartOfAnOverlongLine: a line over MaxLine is cut
// to its first MaxLine bytes, as a forward read cuts it, wherever its
// block edges fall.
func TestBackwardKeepsTheStartOfAnOverlongLine(t *testing.T) {
	for _, size := range []int{MaxLine + 1, MaxLine + blockSize/2, 3*MaxLine + 17} {
		long := "HEAD" + strings.Repeat("m", size-8) + "TAIL"
		got := backwardLines(t, "first\n"+long+"\nlast\n")
		require.Len(t, got, 3)
		assert.Equal(t, long[:MaxLine], got[1], "size %d", size)
		assert.Equal(t, []string{"first", "last"}, []string{got[0], got[2]})
	}
}

// TestASymlinkedLogFolder: the log folder itself reached through a
// symlink (a common volume layout) reads, lists and clears as usual, its
// inside links still count as inside, and a link out is still refused.
func TestASymlinkedLogFolder(t *testing.T) {
	real := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.log")
	require.NoError(t, os.WriteFile(outside, []byte("outside\n"), 0o600))
	linked := filepath.Join(t.TempDir(), "logs")
	require.NoError(t, os.Symlink(real, linked))
	log, w, err := NewLogger(Options{Dir: linked, Level: "info", MaxSizeMB: 100, Redactor: domain.NewRedactor(nil)})
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	d, err := NewDir(linked, w)
	require.NoError(t, err)
	log.Info("one")
	log.Info("two")
	require.NoError(t, os.Symlink(ActiveName, filepath.Join(real, "alias.log")))
	require.NoError(t, os.Symlink(outside, filepath.Join(real, "out.log")))
	require.NoError(t, os.Symlink("../"+filepath.Base(filepath.Dir(outside))+"/secret.log", filepath.Join(real, "rel.log")))

	n, err := d.LineCount("alias.log")
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	var lines []string
	require.NoError(t, d.ReadBackward(ActiveName, func(l []byte) bool { lines = append(lines, string(l)); return true }))
	assert.Len(t, lines, 2)
	for _, name := range []string{"out.log", "rel.log"} {
		_, err = d.Open(name)
		assert.ErrorIs(t, err, domain.ErrInvalidFilename, name)
	}
	files, err := d.List()
	require.NoError(t, err)
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	assert.ElementsMatch(t, []string{ActiveName, "alias.log"}, names)

	require.NoError(t, d.Truncate("alias.log"), "a link to the active file clears through the logger")
	log.Info("three")
	got := readActive(t, d)
	assert.True(t, bytes.HasPrefix(got, []byte(`{"time":"`)))
	assert.Equal(t, 1, bytes.Count(got, []byte("\n")))
}

// TestClearWhileTheLoggerWrites: clears racing with goroutines that log
// leave a file that starts with a whole record and holds no NUL, and
// every line is a whole record (run with -race).
func TestClearWhileTheLoggerWrites(t *testing.T) {
	log, _, d := newLogged(t)
	log.Info("first")
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var once sync.Once
	halt := func() { once.Do(func() { close(stop) }); wg.Wait() }
	defer halt()
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
					log.Info("busy", "g", g, "i", i, "pad", strings.Repeat("x", i%300))
				}
			}
		}()
	}
	for range 50 {
		require.Eventually(t, func() bool { return len(readActive(t, d)) > 4096 }, 10*time.Second, time.Millisecond,
			"the writers fill the file between two clears")
		require.NoError(t, d.Truncate(ActiveName))
		got := readActive(t, d)
		assert.False(t, bytes.Contains(got, []byte{0}), "a NUL in the cleared file")
		if len(got) > 0 {
			assert.True(t, bytes.HasPrefix(got, []byte(`{"time":"`)), "%q", got[:min(len(got), 40)])
		}
	}
	halt()
	log.Info("after")
	got := readActive(t, d)
	assert.False(t, bytes.Contains(got, []byte{0}), "a NUL in the file")
	require.NotEmpty(t, got)
	assert.True(t, bytes.HasPrefix(got, []byte(`{"time":"`)), "%q", got[:min(len(got), 40)])
	for _, line := range bytes.Split(bytes.TrimSuffix(got, []byte("\n")), []byte("\n")) {
		var rec map[string]any
		require.NoError(t, json.Unmarshal(line, &rec), "%q", line)
		assert.Contains(t, []any{"busy", "after"}, rec["msg"])
	}
}
