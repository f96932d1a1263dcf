package espeak

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mediateka/domain"
	"mediateka/repository/exectest"
)

// running counts the processes named name in /proc.
func running(name string) int {
	comms, _ := filepath.Glob("/proc/[0-9]*/comm")
	n := 0
	for _, c := range comms {
		if b, err := os.ReadFile(c); err == nil && strings.TrimSpace(string(b)) == name {
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
