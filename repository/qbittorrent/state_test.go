package qbittorrent

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"mediateka/domain"
)

// TestEveryClientStateMaps lists every state name of the WebUI API
// documentation (4.x) and of the 5.x serializer, each with the API state
// a person should see.
func TestEveryClientStateMaps(t *testing.T) {
	cases := []struct {
		raw  string
		want domain.TorrentState
	}{
		{"error", domain.TorrentError},
		{"missingFiles", domain.TorrentMissingFiles},
		{"uploading", domain.TorrentSeeding},
		{"pausedUP", domain.TorrentDone},  // 4.x
		{"stoppedUP", domain.TorrentDone}, // 5.x
		{"queuedUP", domain.TorrentQueued},
		{"stalledUP", domain.TorrentSeeding},
		{"checkingUP", domain.TorrentChecking},
		{"forcedUP", domain.TorrentSeeding},
		{"allocating", domain.TorrentChecking},
		{"downloading", domain.TorrentDownloading},
		{"metaDL", domain.TorrentMetadata},
		{"forcedMetaDL", domain.TorrentMetadata},
		{"pausedDL", domain.TorrentPaused},  // 4.x
		{"stoppedDL", domain.TorrentPaused}, // 5.x
		{"queuedDL", domain.TorrentQueued},
		{"stalledDL", domain.TorrentStalled},
		{"checkingDL", domain.TorrentChecking},
		{"forcedDL", domain.TorrentDownloading},
		{"checkingResumeData", domain.TorrentChecking},
		{"moving", domain.TorrentMoving},
		{"unknown", domain.TorrentError},
		{"somethingNew", domain.TorrentError},
		{"", domain.TorrentError},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, MapState(c.raw), c.raw)
	}
	assert.Len(t, states, len(cases)-2, "every known name is in the table above")
}
