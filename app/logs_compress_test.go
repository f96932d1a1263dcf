package app

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/config"
	"mediateka/domain"
	"mediateka/usecase/logs"
)

// TestLogsCompressRotatedFiles: with log.compress the backup a rotation
// leaves is gzipped, and the logs API reads it (tail, level filter).
func TestLogsCompressRotatedFiles(t *testing.T) {
	t.Parallel()
	cfg := config.Defaults()
	cfg.LogDir = t.TempDir()
	cfg.Log = config.Log{Level: "info", MaxSizeMB: 1, MaxBackups: 2, Compress: true}
	red := domain.NewRedactor(nil)
	log, w, err := newLogger(cfg, io.Discard, red)
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	pad := strings.Repeat("p", 200)
	for i := 0; i < 6000; i++ { // ~1.5 MB: one rotation
		log.Warn("filler", "i", i, "pad", pad)
	}
	var gz string
	require.Eventually(t, func() bool {
		m, _ := filepath.Glob(filepath.Join(cfg.LogDir, "mediateka-*.log.gz"))
		plain, _ := filepath.Glob(filepath.Join(cfg.LogDir, "mediateka-*.log"))
		if len(m) == 1 && len(plain) == 0 {
			gz = filepath.Base(m[0])
			return true
		}
		return false
	}, 30*time.Second, 10*time.Millisecond, "lumberjack compresses the backup in the background")
	svc, err := newLogs(cfg, w, red, nil, nil, log)
	require.NoError(t, err)
	p, err := svc.Read(context.Background(), logs.Query{Filename: gz, Tail: 2, Level: "warn"})
	require.NoError(t, err)
	require.Len(t, p.Lines, 2)
	assert.Equal(t, "filler", *p.Lines[1].Msg)
	assert.Positive(t, p.TotalLines)
}
