package logs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/logfile"
)

type endEvents chan domain.LogAnalyzed

func (e endEvents) Publish(ev domain.Event) {
	if a, ok := ev.(domain.LogAnalyzed); ok {
		e <- a
	}
}

// TestFinishedRunnersAreDropped: analysing many files one after another
// keeps no runner per name ever analysed.
func TestFinishedRunnersAreDropped(t *testing.T) {
	path := t.TempDir()
	dir, err := logfile.NewDir(path, nil)
	require.NoError(t, err)
	done := make(endEvents, 1)
	s := New(dir, nil, Options{Events: done})
	t.Cleanup(func() { _ = s.Stop(context.Background()) })
	for i := range 20 {
		name := fmt.Sprintf("f%02d.log", i)
		require.NoError(t, os.WriteFile(filepath.Join(path, name), []byte("x\n"), 0o600))
		_, err := s.Analyze(context.Background(), name)
		require.NoError(t, err)
		select {
		case a := <-done:
			require.Equal(t, domain.JobCompleted, a.State)
		case <-time.After(30 * time.Second):
			t.Fatal("no end event")
		}
	}
	s.mu.Lock()
	n := len(s.jobs)
	s.mu.Unlock()
	assert.LessOrEqual(t, n, 1)
}
