package library

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestScanSummary(t *testing.T) {
	assert.Equal(t, "добавлено: 6, обновлено: 1, пропало: 0", ScanSummary("ru", 6, 1, 0, 0))
	assert.Equal(t, "6 added, 1 updated, 2 missing, 3 unreadable", ScanSummary("en", 6, 1, 2, 3))
}
