package logs_test

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/logfile"
	"mediateka/usecase/logs"
)

// writeBigLog writes about size bytes of the logger's JSON lines into
// dir/name: access-log lines, scans, warnings and errors with varying
// values, ten milliseconds apart.
func writeBigLog(b *testing.B, dir, name string, size int64) {
	b.Helper()
	f, err := os.Create(filepath.Join(dir, name))
	require.NoError(b, err)
	w := bufio.NewWriterSize(f, 1<<20)
	cw := &countWriter{w: w}
	h := slog.NewJSONHandler(cw, &slog.HandlerOptions{Level: slog.LevelDebug})
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ctx := context.Background()
	for i := 0; cw.n < size; i++ {
		at = at.Add(10 * time.Millisecond)
		var r slog.Record
		switch i % 10 {
		case 0, 1, 2, 3, 4:
			r = slog.NewRecord(at, slog.LevelInfo, "http", 0)
			r.Add("request_id", fmt.Sprintf("%016x", i), "method", "GET", "path", fmt.Sprintf("/api/media/%d", i%5000),
				"query", "", "status", 200, "duration_ms", float64(i%997)/10, "remote", "192.168.1.20")
		case 5, 6:
			r = slog.NewRecord(at, slog.LevelInfo, fmt.Sprintf("scanned /srv/media/film%d.mkv in %d ms", i, i%300), 0)
		case 7:
			r = slog.NewRecord(at, slog.LevelWarn, "torrent stalled", 0)
			r.Add("hash", fmt.Sprintf("%040x", i), "peers", i%7)
		case 8:
			r = slog.NewRecord(at, slog.LevelError, fmt.Sprintf("user %d failed to sign in as user%d@example.org", i%100, i), 0)
			r.Add("err", "bad password")
		default:
			r = slog.NewRecord(at, slog.LevelDebug, "chat answered", 0)
			r.Add("model", "gemini/gemini-2.5-flash", "chars", i%2000)
		}
		require.NoError(b, h.Handle(ctx, r))
	}
	require.NoError(b, w.Flush())
	require.NoError(b, f.Close())
}

type countWriter struct {
	w *bufio.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return c.w.Write(p) }

const bigLog = 200 << 20

func bigFolder(b *testing.B) *logfile.Dir {
	b.Helper()
	path := b.TempDir()
	writeBigLog(b, path, "big.log", bigLog)
	dir, err := logfile.NewDir(path, nil)
	require.NoError(b, err)
	return dir
}

// BenchmarkReadTail500 is read?tail=500 on a 200 MB log, line count
// remembered (every read after the first).
func BenchmarkReadTail500(b *testing.B) {
	svc := logs.New(bigFolder(b), nil, logs.Options{})
	ctx := context.Background()
	_, err := svc.Read(ctx, logs.Query{Filename: "big.log", Tail: 500})
	require.NoError(b, err)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		p, err := svc.Read(ctx, logs.Query{Filename: "big.log", Tail: 500})
		if err != nil || len(p.Lines) != 500 {
			b.Fatal(err, len(p.Lines))
		}
	}
}

// BenchmarkReadTail500FirstRead is the first read of a 200 MB file, which
// also counts its lines once.
func BenchmarkReadTail500FirstRead(b *testing.B) {
	path := b.TempDir()
	writeBigLog(b, path, "big.log", bigLog)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		dir, err := logfile.NewDir(path, nil)
		require.NoError(b, err)
		p, err := logs.New(dir, nil, logs.Options{}).Read(ctx, logs.Query{Filename: "big.log", Tail: 500})
		if err != nil || len(p.Lines) != 500 {
			b.Fatal(err, len(p.Lines))
		}
	}
}

// BenchmarkReadTail500Errors is the last 500 errors (one line in ten).
func BenchmarkReadTail500Errors(b *testing.B) {
	svc := logs.New(bigFolder(b), nil, logs.Options{})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		p, err := svc.Read(ctx, logs.Query{Filename: "big.log", Tail: 500, Level: "error"})
		if err != nil || len(p.Lines) != 500 {
			b.Fatal(err, len(p.Lines))
		}
	}
}

// BenchmarkAnalyze is a whole analysis of a 50 MB and a 200 MB log,
// report written; peak-heap-MB is the highest live heap above the start
// seen while it ran (the same for both sizes: memory stays flat).
func BenchmarkAnalyze(b *testing.B) {
	for _, size := range []int64{50 << 20, bigLog} {
		b.Run(fmt.Sprintf("%dMB", size>>20), func(b *testing.B) { benchAnalyze(b, size) })
	}
}

// BenchmarkAnalyzeUniqueMessages is the worst case for the template
// counts: every record's message and error are long and unique, letters
// only (nothing a template replaces), so every line is a new template.
func BenchmarkAnalyzeUniqueMessages(b *testing.B) {
	for _, size := range []int64{50 << 20, bigLog} {
		b.Run(fmt.Sprintf("%dMB", size>>20), func(b *testing.B) { benchAnalyzeWith(b, size, writeUniqueLog) })
	}
}

// writeUniqueLog writes about size bytes of records whose message (about
// 600 bytes) and err (about 300) are random lower-case words.
func writeUniqueLog(b *testing.B, dir, name string, size int64) {
	b.Helper()
	f, err := os.Create(filepath.Join(dir, name))
	require.NoError(b, err)
	w := bufio.NewWriterSize(f, 1<<20)
	cw := &countWriter{w: w}
	h := slog.NewJSONHandler(cw, nil)
	rng := rand.New(rand.NewPCG(3, 4))
	words := func(n int) string {
		buf := make([]byte, 0, n+8)
		for len(buf) < n {
			for range 3 + rng.IntN(6) {
				buf = append(buf, byte('a'+rng.IntN(26)))
			}
			buf = append(buf, ' ')
		}
		return string(buf)
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for cw.n < size {
		at = at.Add(10 * time.Millisecond)
		r := slog.NewRecord(at, slog.LevelError, words(600), 0)
		r.Add("err", words(300))
		require.NoError(b, h.Handle(context.Background(), r))
	}
	require.NoError(b, w.Flush())
	require.NoError(b, f.Close())
}

func benchAnalyze(b *testing.B, size int64) { benchAnalyzeWith(b, size, writeBigLog) }

func benchAnalyzeWith(b *testing.B, size int64, write func(b *testing.B, dir, name string, size int64)) {
	path := b.TempDir()
	write(b, path, "big.log", size)
	dir, err := logfile.NewDir(path, nil)
	require.NoError(b, err)
	done := make(chan domain.LogAnalyzed, 1)
	svc := logs.New(dir, nil, logs.Options{Events: publisher(func(e domain.Event) {
		if a, ok := e.(domain.LogAnalyzed); ok {
			done <- a
		}
	})})
	ctx := context.Background()
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	stop := make(chan struct{})
	go func() {
		var m runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
				runtime.ReadMemStats(&m)
				if m.HeapAlloc > peak.Load() {
					peak.Store(m.HeapAlloc)
				}
			}
		}
	}()
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := svc.Analyze(ctx, "big.log"); err != nil {
			b.Fatal(err)
		}
		if a := <-done; a.State != domain.JobCompleted {
			b.Fatal(a.State)
		}
	}
	close(stop)
	b.ReportMetric(float64(peak.Load()-min(peak.Load(), base.HeapAlloc))/(1<<20), "peak-heap-MB")
}

type publisher func(domain.Event)

func (p publisher) Publish(e domain.Event) { p(e) }
