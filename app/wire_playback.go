package app

import (
	"log/slog"
	"path/filepath"

	"mediateka/config"
	"mediateka/repository/ffmpeg"
	"mediateka/repository/ffprobe"
	"mediateka/repository/localfs"
	"mediateka/usecase/playback"
)

// newPlayback builds playback over the catalogue: the ffprobe prober the
// chat's media_layer uses too (one bound on probes for the whole server),
// ffmpeg when it is installed, thumbnails kept in <data_dir>/thumbnails,
// play tokens signed with a key derived from the JWT secret, and the
// watching state for where each account resumes. It needs no lifecycle
// entry: a remux ends with its request, and the HTTP server's shutdown
// ends every request.
func newPlayback(cfg config.Config, repos repositories, lib libraryParts, probe *ffprobe.Prober, log *slog.Logger) *playback.Service {
	opt := playback.Options{Secret: []byte(cfg.JWTSecret), TokenTTL: cfg.Media.PlayTokenTTL.D(),
		MaxRemuxes: cfg.Media.MaxRemuxes, Pictures: localfs.NewDir(filepath.Join(cfg.DataDir, "thumbnails")), Logger: log,
		Resume: lib.watching}
	if probe != nil {
		opt.Prober = probe
	}
	if r, err := ffmpeg.New("", ffmpeg.Options{Logger: log}); err == nil {
		opt.Transcoder = r
	} else {
		log.Warn("ffmpeg is not installed: films a browser cannot play are sent as they are, and there are no thumbnails (install the ffmpeg package)")
	}
	return playback.New(lib.catalog, repos.users, opt)
}
