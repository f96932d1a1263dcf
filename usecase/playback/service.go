// Package playback turns catalogue entries into something a browser can
// play: the /play answer (direct file or ffmpeg remux, audio tracks,
// subtitles, resume position) with URLs that carry a play token bound to
// one account and one entry, the remux streams themselves (a bounded
// number at once), and thumbnails made once and kept in the data folder.
package playback

import (
	"context"
	"log/slog"
	"time"

	"golang.org/x/sync/singleflight"

	"mediateka/domain"
)

// Defaults of Options.
const (
	DefaultTokenTTL   = 6 * time.Hour
	DefaultMaxRemuxes = 4
	// remuxWait is how long a remux waits for a free slot before it is
	// refused: a player that seeks closes its previous stream just before
	// it opens the next, and the old ffmpeg needs a moment to go.
	remuxWait = 2 * time.Second
	// thumbnailWait bounds making one thumbnail, for whoever waits on it.
	thumbnailWait = time.Minute
)

// Errors of playback, each with its own code (docs/API.md §3).
var (
	ErrNotPlayable      = domain.ErrNotPlayable // shared with the watching state
	ErrInvalidPlayToken = domain.NewError(domain.KindUnauthorized, "invalid_play_token", "the play token is not valid for this media")
	ErrPlayTokenExpired = domain.NewError(domain.KindUnauthorized, "play_token_expired", "the play token has expired; ask /play again")
	ErrRemuxBusy        = domain.NewError(domain.KindUnavailable, "remux_busy", "the server is converting as many films as it may at once; try again in a moment")
	ErrRemuxUnavailable = domain.NewError(domain.KindUnavailable, "remux_unavailable", "ffmpeg is not installed, so this file cannot be converted for the browser")
	ErrNoThumbnail      = domain.NewError(domain.KindNotFound, "no_thumbnail", "there is no picture to show for this entry")
)

// Options configure the service.
type Options struct {
	// Secret is the JWT secret; play tokens are signed with a key derived
	// from it (never with the secret itself).
	Secret []byte
	// TokenTTL is how long a play token lasts (DefaultTokenTTL).
	TokenTTL time.Duration
	// MaxRemuxes is how many remuxes run at once (DefaultMaxRemuxes).
	MaxRemuxes int
	// Pictures keeps the thumbnails made; nil keeps none (each is made
	// again).
	Pictures Pictures
	// Prober and Transcoder are nil when ffprobe or ffmpeg is missing:
	// files then play directly with a warning, and there are no
	// thumbnails and no remux.
	Prober     Prober
	Transcoder Transcoder
	// Resume is the watching state (usecase/watching); nil: every entry
	// starts at 0.
	Resume Resume
	Now    func() time.Time
	Logger *slog.Logger
}

// Service is the playback use case.
type Service struct {
	cat    Catalog
	users  Users
	opt    Options
	log    *slog.Logger
	key    []byte
	probes *probeCache
	// remuxes holds one token per running remux.
	remuxes chan struct{}
	thumbs  singleflight.Group
	failed  *failedThumbs
}

// New builds the service.
func New(cat Catalog, users Users, opt Options) *Service {
	if opt.TokenTTL <= 0 {
		opt.TokenTTL = DefaultTokenTTL
	}
	if opt.MaxRemuxes <= 0 {
		opt.MaxRemuxes = DefaultMaxRemuxes
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{cat: cat, users: users, opt: opt, log: opt.Logger, key: tokenKey(opt.Secret),
		probes: newProbeCache(probeCacheSize), remuxes: make(chan struct{}, opt.MaxRemuxes), failed: newFailedThumbs()}
}

// RunningRemuxes is how many remux processes run now: each counts from
// its start until its process has exited.
func (s *Service) RunningRemuxes() int { return len(s.remuxes) }

// probe reads the file's tracks through the cache; without a prober it
// reports nothing known.
func (s *Service) probe(ctx context.Context, f fileKey) (domain.MediaInfo, bool, error) {
	if s.opt.Prober == nil {
		return domain.MediaInfo{}, false, nil
	}
	if info, ok := s.probes.get(f); ok {
		return info, true, nil
	}
	info, err := s.opt.Prober.Probe(ctx, f.path)
	if err != nil {
		return domain.MediaInfo{}, false, err
	}
	s.probes.put(f, info)
	return info, true, nil
}
