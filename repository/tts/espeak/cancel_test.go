package espeak

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"mediateka/domain"
	"mediateka/repository/exectest"
)

// running counts this test process's children named name in /proc:
// other packages' tests run ffmpeg at the same time, and theirs must not
// count.
func running(name string) int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	me := strconv.Itoa(os.Getpid())
	n := 0
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid …: comm may hold spaces, so cut at the last ')'.
		s := string(b)
		open, shut := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || shut < open {
			continue
		}
		rest := strings.Fields(s[shut+1:])
		if s[open+1:shut] == name && len(rest) > 1 && rest[1] == me {
			n++
		}
	}
	return n
}

// cancelOnFirstWrite cancels the synthesis when the first audio arrives,
// noting the programs alive at that moment.
type cancelOnFirstWrite struct {
	cancel  context.CancelFunc
	alive   map[string]int
	written int
}

func (c *cancelOnFirstWrite) Write(p []byte) (int, error) {
	if c.written == 0 {
		c.alive = map[string]int{"espeak-ng": running("espeak-ng"), "ffmpeg": running("ffmpeg")}
		c.cancel()
	}
	c.written += len(p)
	return len(p), nil
}

func TestCancelKillsTheProcesses(t *testing.T) {
	if _, err := os.Stat("/proc/self/comm"); err != nil {
		t.Skip("no /proc here")
	}
	exectest.Require(t, "espeak-ng", "espeak-ng")
	exectest.Require(t, "ffmpeg", "ffmpeg")
	long := strings.Repeat(russian+" ", 200) // minutes of speech
	e := New(Options{})
	for _, f := range []domain.AudioFormat{domain.AudioWAV, domain.AudioMP3} {
		ctx, cancel := context.WithCancel(context.Background())
		w := &cancelOnFirstWrite{cancel: cancel}
		start := time.Now()
		err := e.Synthesize(ctx, long, "ru", f, w)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: cancelled synthesis returned %v", f, err)
		}
		if w.alive["espeak-ng"] == 0 || f == domain.AudioMP3 && w.alive["ffmpeg"] == 0 {
			t.Fatalf("%s: no process seen while speaking: %v", f, w.alive)
		}
		for running("espeak-ng")+running("ffmpeg") > 0 {
			if time.Since(start) > 2*time.Second {
				t.Fatalf("%s: espeak-ng %d, ffmpeg %d still running 2 s after the cancel", f, running("espeak-ng"), running("ffmpeg"))
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// blockingWriter holds the synthesis on its first write until released.
type blockingWriter struct {
	started chan struct{}
	release chan struct{}
}

func (b *blockingWriter) Write(p []byte) (int, error) {
	select {
	case b.started <- struct{}{}:
		<-b.release
	default:
	}
	return len(p), nil
}

func TestProcessesAreBounded(t *testing.T) {
	exectest.Require(t, "espeak-ng", "espeak-ng")
	e := New(Options{MaxProcesses: 1})
	b := &blockingWriter{started: make(chan struct{}), release: make(chan struct{})}
	done := make(chan error, 1)
	go func() { done <- e.Synthesize(context.Background(), english, "en-us", domain.AudioWAV, b) }()
	<-b.started

	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	var w cancelOnFirstWrite
	if err := e.Synthesize(ctx, english, "en-us", domain.AudioWAV, &w); !errors.Is(err, context.DeadlineExceeded) || w.written != 0 {
		t.Errorf("second synthesis while the only slot is taken: %v, %d bytes", err, w.written)
	}
	close(b.release)
	if err := <-done; err != nil {
		t.Errorf("first synthesis: %v", err)
	}
	speak(t, e, english, "en-us", domain.AudioWAV) // the slot is free again
}
