// Package bench holds the media library's benchmarks; they run only with
// -bench (the package has no tests), so the default `go test ./...` stays
// fast:
//
//	go test -run '^$' -bench . -benchtime 3x ./bench/
//
// MEDIATEKA_BENCH_DIR names a folder to keep the generated library in
// between runs (default: a folder under the system temp folder);
// MEDIATEKA_BENCH_FILES its size (default 100000).
package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"mediateka/bench/libgen"
	"mediateka/bench/measure"
	"mediateka/domain"
	"mediateka/repository/localfs"
	"mediateka/repository/sqlstore"
	"mediateka/usecase/catalog"
	"mediateka/usecase/library"
	"mediateka/usecase/textmatch"
)

// benchLibrary returns the synthetic library, generating it once.
func benchLibrary(b *testing.B) (root string, files int) {
	b.Helper()
	files = 100000
	if v, err := strconv.Atoi(os.Getenv("MEDIATEKA_BENCH_FILES")); err == nil && v > 0 {
		files = v
	}
	base := os.Getenv("MEDIATEKA_BENCH_DIR")
	if base == "" {
		base = filepath.Join(os.TempDir(), "mediateka-bench")
	}
	root = filepath.Join(base, fmt.Sprintf("library-%d", files))
	marker := root + ".done"
	if _, err := os.Stat(marker); err == nil {
		return root, files
	}
	_ = os.RemoveAll(root)
	start := time.Now()
	st, err := libgen.Generate(root, files, 1)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("generated %d files in %d folders in %s", st.Files, st.Folders, time.Since(start).Round(time.Millisecond))
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		b.Fatal(err)
	}
	return root, files
}

type rig struct {
	store *sqlstore.Store
	media *sqlstore.Media
	lib   *library.Service
}

// newRig opens a fresh database in dir with a library over root.
func newRig(b *testing.B, dir, root string) *rig {
	b.Helper()
	store, err := sqlstore.Open(context.Background(), filepath.Join(dir, "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	media := sqlstore.NewMedia(store, textmatch.Normalize)
	lib := library.New(media, localfs.FS{}, library.Options{Roots: []domain.Root{{Path: root, Disk: "bench"}}})
	return &rig{store: store, media: media, lib: lib}
}

func (r *rig) close() { r.lib.Close(); _ = r.store.Close() }

func (r *rig) scan(b *testing.B) library.Status {
	b.Helper()
	st, err := r.lib.Scan(context.Background(), library.ScanRequest{}, nil)
	if err != nil || st.State != library.StateCompleted {
		b.Fatalf("scan: %v %+v", err, st)
	}
	return st
}

// findTime is how long `find ROOT -type f | wc -l` takes, the floor a
// scan is compared with.
func findTime(b *testing.B, root string, files int) time.Duration {
	b.Helper()
	start := time.Now()
	out, err := exec.Command("sh", "-c", "find \"$1\" -type f | wc -l", "sh", root).Output()
	d := time.Since(start)
	if err != nil {
		b.Fatal(err)
	}
	if n, _ := strconv.Atoi(strings.TrimSpace(string(out))); n != files {
		b.Fatalf("find counted %d files, want %d", n, files)
	}
	return d
}

// BenchmarkScanFull is a first scan of the whole library into an empty
// database (in the system temp folder: TMPDIR). It reports the ratio to
// `find ROOT -type f | wc -l` on the same tree, timed before every scan
// (the median of those runs), and the CPU time the scan used (user +
// system, all threads), which a busy machine changes less than the wall
// time.
func BenchmarkScanFull(b *testing.B) {
	root, files := benchLibrary(b)
	logFS(b, root)
	var scans, cpu time.Duration
	var finds []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		finds = append(finds, findTime(b, root, files))
		r := newRig(b, b.TempDir(), root)
		stopProfile := profileCPU(b)
		b.StartTimer()
		start, cpu0 := time.Now(), cpuTime(b)
		st := r.scan(b)
		scans, cpu = scans+time.Since(start), cpu+cpuTime(b)-cpu0
		b.StopTimer()
		stopProfile()
		if st.Added != files {
			b.Fatalf("added %d, want %d", st.Added, files)
		}
		r.close()
		b.StartTimer()
	}
	reportScan(b, "scan", scans, cpu, finds, files)
}

// BenchmarkRescanUnchanged rescans a library nothing changed in; it
// reports what BenchmarkScanFull does.
func BenchmarkRescanUnchanged(b *testing.B) {
	root, files := benchLibrary(b)
	logFS(b, root)
	r := newRig(b, b.TempDir(), root)
	defer r.close()
	r.scan(b)
	var scans, cpu time.Duration
	var finds []time.Duration
	stopProfile := profileCPU(b)
	defer stopProfile()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		finds = append(finds, findTime(b, root, files))
		b.StartTimer()
		start, cpu0 := time.Now(), cpuTime(b)
		st := r.scan(b)
		scans, cpu = scans+time.Since(start), cpu+cpuTime(b)-cpu0
		if st.Added+st.Updated+st.Missing != 0 || st.FilesSeen != files {
			b.Fatalf("an unchanged rescan changed something: %+v", st)
		}
	}
	reportScan(b, "rescan", scans, cpu, finds, files)
}

// reportScan reports the mean scan time, its ratio to the median find,
// the CPU time per scan and the files per second.
func reportScan(b *testing.B, what string, scans, cpu time.Duration, finds []time.Duration, files int) {
	slices.Sort(finds)
	find := finds[len(finds)/2]
	per := scans / time.Duration(b.N)
	b.ReportMetric(per.Seconds(), "s/"+what)
	b.ReportMetric(find.Seconds(), "s/find")
	b.ReportMetric(float64(per)/float64(find), "x-find")
	b.ReportMetric((cpu / time.Duration(b.N)).Seconds(), "cpu-s/"+what)
	b.ReportMetric(float64(files)/per.Seconds(), "files/s")
}

// cpuTime is the CPU time this process has used, user and system.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// logFS logs the file system the library and the database are on.
func logFS(b *testing.B, root string) {
	kind := func(p string) string {
		var st syscall.Statfs_t
		if err := syscall.Statfs(p, &st); err != nil {
			return "?"
		}
		return map[int64]string{0x01021994: "tmpfs", 0xef53: "ext2/3/4", 0x9123683e: "btrfs", 0x58465342: "xfs"}[int64(st.Type)]
	}
	b.Logf("library on %s, database on %s", kind(root), kind(os.TempDir()))
}

// benchQueries are searches people type: whole titles, first words,
// Cyrillic and Latin, with and without ё, partial words, misses.
func benchQueries() []string {
	return []string{"тёмный лес", "Тихий", "золотой сад", "последний капитан", "ночной вокзал навсегда", "берег",
		"The Silent River", "silent", "frozen kingdom", "the lost", "harbor", "Iron Train of Storm",
		"лесной", "Красный город", "hidden", "crimson", "матрица", "nothing like this", "Старый дом", "king"}
}

// BenchmarkByTitle measures title search over the whole scanned library,
// reporting the median and 99th percentile latency of single searches.
func BenchmarkByTitle(b *testing.B) {
	root, _ := benchLibrary(b)
	r := newRig(b, b.TempDir(), root)
	defer r.close()
	r.scan(b)
	cat := catalog.New(r.media, r.media, localfs.FS{}, catalog.Options{})
	defer cat.Close()
	if err := cat.Warm(context.Background()); err != nil {
		b.Fatal(err)
	}
	queries := benchQueries()
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := queries[i%len(queries)]
		start := time.Now()
		_, err := cat.ByTitle(context.Background(), q, "")
		lat = append(lat, time.Since(start))
		if err != nil && !domainNotFound(err) {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	reportLatency(b, lat)
}

// reportLatency reports the median and the 99th percentile of lat in
// milliseconds.
func reportLatency(b *testing.B, lat []time.Duration) {
	b.ReportMetric(float64(measure.Percentile(lat, 50).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(measure.Percentile(lat, 99).Microseconds())/1000, "p99-ms")
}

func domainNotFound(err error) bool { return domain.IsKind(err, domain.KindNotFound) }

// rssKB reads the resident set size of this process.
func rssKB(b *testing.B) int64 {
	n := measure.RSSKiB(os.Getpid())
	if n == 0 {
		b.Skip("no /proc/self/status: RSS cannot be measured here")
	}
	return n
}

// peakRSS samples RSS every few milliseconds until stop is called.
func peakRSS(b *testing.B) (stop func() int64) {
	var mu sync.Mutex
	peak := rssKB(b)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if v := rssKB(b); v > 0 {
					mu.Lock()
					peak = max(peak, v)
					mu.Unlock()
				}
			}
		}
	})
	return func() int64 {
		close(done)
		wg.Wait()
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}
