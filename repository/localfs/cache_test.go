package localfs

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// testNames are the names the tests' caches own: a few letters or digits
// and an audio extension.
func testNames(name string) bool { return testNameRe.MatchString(name) }

var testNameRe = regexp.MustCompile(`^[a-z0-9]+(\.(mp3|wav|ogg))?$`)

// put writes content under name and fails the test on an error.
func put(t *testing.T, c *Cache, name, content string) string {
	t.Helper()
	p, err := c.Put(name, func(w io.Writer) error { _, err := io.WriteString(w, content); return err })
	if err != nil {
		t.Fatalf("Put(%s): %v", name, err)
	}
	return p
}

// names are the visible files of dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func TestCachePutThenPath(t *testing.T) {
	dir := t.TempDir()
	c, err := NewCache(dir, 0, testNames)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Path("a.mp3"); ok {
		t.Fatal("an empty cache has a.mp3")
	}
	p := put(t, c, "a.mp3", "audio")
	got, ok := c.Path("a.mp3")
	if !ok || got != p || filepath.Dir(p) != dir {
		t.Fatalf("Path = %q, %v; Put gave %q", got, ok, p)
	}
	if b, _ := os.ReadFile(p); string(b) != "audio" {
		t.Fatalf("content %q", b)
	}
	for _, bad := range []string{"", "../a.mp3", "x/a.mp3", ".hidden", "a\x00.mp3", "/etc/passwd"} {
		if _, err := c.Put(bad, func(io.Writer) error { return nil }); err == nil {
			t.Errorf("Put(%q) accepted", bad)
		}
		if _, ok := c.Path(bad); ok {
			t.Errorf("Path(%q) found", bad)
		}
	}
}

func TestCacheFailedWriteLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	c, err := NewCache(dir, 0, testNames)
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("engine died")
	_, err = c.Put("b.wav", func(w io.Writer) error {
		_, _ = io.WriteString(w, "half a fi")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Put = %v, want the fill's error", err)
	}
	if _, ok := c.Path("b.wav"); ok {
		t.Fatal("a failed write is served")
	}
	if n := names(t, dir); len(n) != 0 {
		t.Fatalf("left behind: %v", n)
	}
}

func TestCacheRemovesUnfinishedFilesOfAnEarlierRun(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, tempPrefix+"kept.mp3-123"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	// Not this cache's: a folder shared by mistake keeps its files.
	if err := os.WriteFile(filepath.Join(dir, tempPrefix+"Other-1"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "kept.mp3"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := NewCache(dir, 0, testNames); err != nil {
		t.Fatal(err)
	}
	if n := names(t, dir); strings.Join(n, ",") != tempPrefix+"Other-1,kept.mp3" {
		t.Fatalf("after start: %v", n)
	}
}

func TestCacheEvictsTheLeastRecentlyUsed(t *testing.T) {
	dir := t.TempDir()
	c, err := NewCache(dir, 100, testNames)
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c.now = func() time.Time { clock = clock.Add(time.Minute); return clock }
	body := strings.Repeat("x", 30)
	for _, n := range []string{"1", "2", "3"} {
		p := put(t, c, n, body)
		now := c.now()
		if err := os.Chtimes(p, now, now); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := c.Path("1"); !ok { // used again: now the newest
		t.Fatal("1 missing")
	}
	put(t, c, "4", body) // 120 bytes > 100: down to 90 at most
	have := strings.Join(names(t, dir), ",")
	if have != "1,3,4" && have != "1,4" {
		t.Fatalf("after eviction: %s (2, the least recently used, goes first)", have)
	}
	if _, ok := c.Path("4"); !ok {
		t.Fatal("the file just made was evicted")
	}
	big := put(t, c, "5", strings.Repeat("y", 150)) // alone over the cap: kept, the rest go
	if _, err := os.Stat(big); err != nil {
		t.Fatal("a file bigger than the cap is still served once")
	}
	if have := strings.Join(names(t, dir), ","); have != "5" {
		t.Fatalf("after a file over the cap: %s", have)
	}
}

func TestCacheConcurrentWritersOfOneName(t *testing.T) {
	dir := t.TempDir()
	c, err := NewCache(dir, 0, testNames)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Repeat("z", 1<<20)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			put(t, c, "same.ogg", want)
			p, ok := c.Path("same.ogg")
			if !ok {
				t.Error("missing")
				return
			}
			if b, err := os.ReadFile(p); err != nil || len(b) != len(want) {
				t.Errorf("read %d bytes, %v", len(b), err)
			}
		})
	}
	wg.Wait()
	if n := names(t, dir); strings.Join(n, ",") != "same.ogg" {
		t.Fatalf("left: %v", n)
	}
}

// TestCacheLeavesForeignFilesAlone: a cache folder shared by mistake (the
// data folder, the database in it) loses none of the files the cache did
// not make, however far over the cap they are, and its names cannot be
// reached through Path or Put.
func TestCacheLeavesForeignFilesAlone(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "Mediateka.DB")
	if err := os.WriteFile(db, []byte(strings.Repeat("d", 500)), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(db, old, old); err != nil { // the least recently used of all
		t.Fatal(err)
	}
	c, err := NewCache(dir, 100, testNames)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"1", "2", "3", "4"} {
		put(t, c, n, strings.Repeat("x", 30))
	}
	if b, err := os.ReadFile(db); err != nil || len(b) != 500 {
		t.Fatalf("the foreign file after eviction: %d bytes, %v", len(b), err)
	}
	if have := strings.Join(names(t, dir), ","); have != "2,3,4,Mediateka.DB" {
		t.Fatalf("after eviction: %v (only the cache's own files count toward the cap)", have)
	}
	if _, ok := c.Path("Mediateka.DB"); ok {
		t.Error("Path serves a file the cache does not own")
	}
	if _, err := c.Put("Mediateka.DB", func(io.Writer) error { return nil }); err == nil {
		t.Error("Put overwrites a file the cache does not own")
	}
	if _, err := NewCache(dir, 0, nil); err == nil {
		t.Error("a cache without a name filter")
	}
}
