package qbittorrent

import "mediateka/domain"

// states maps every state name qBittorrent's WebUI API has sent, 4.x and
// 5.x alike, to the API's state. 5.x renamed pausedDL/pausedUP to
// stoppedDL/stoppedUP; "allocating" (preallocation, older 4.x) is shown as
// checking, which is what later versions report for it.
var states = map[string]domain.TorrentState{
	"downloading":        domain.TorrentDownloading,
	"forcedDL":           domain.TorrentDownloading,
	"uploading":          domain.TorrentSeeding,
	"forcedUP":           domain.TorrentSeeding,
	"stalledUP":          domain.TorrentSeeding, // seeding, nobody asks
	"stalledDL":          domain.TorrentStalled,
	"pausedDL":           domain.TorrentPaused,
	"stoppedDL":          domain.TorrentPaused,
	"pausedUP":           domain.TorrentDone,
	"stoppedUP":          domain.TorrentDone,
	"queuedDL":           domain.TorrentQueued,
	"queuedUP":           domain.TorrentQueued,
	"checkingDL":         domain.TorrentChecking,
	"checkingUP":         domain.TorrentChecking,
	"checkingResumeData": domain.TorrentChecking,
	"allocating":         domain.TorrentChecking,
	"moving":             domain.TorrentMoving,
	"metaDL":             domain.TorrentMetadata,
	"forcedMetaDL":       domain.TorrentMetadata,
	"missingFiles":       domain.TorrentMissingFiles,
	"error":              domain.TorrentError,
	"unknown":            domain.TorrentError,
}

// MapState is the API state of a qBittorrent state name. A name this
// version of mediateka has never seen is Error: something a person should
// look at, with the raw name beside it in client_state.
func MapState(raw string) domain.TorrentState {
	if s, ok := states[raw]; ok {
		return s
	}
	return domain.TorrentError
}
