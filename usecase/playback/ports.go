package playback

import (
	"context"
	"io"

	"mediateka/domain"
	"mediateka/usecase/catalog"
)

// Catalog is where playback finds entries and their files: the catalogue
// use case, which only ever serves files through their recorded paths.
type Catalog interface {
	// Get is an entry with its seasons and episodes.
	Get(ctx context.Context, id int64) (catalog.Entry, error)
	// Stream is the file of a movie or episode entry, checked on disk.
	Stream(ctx context.Context, id int64) (catalog.StreamFile, error)
	// Subtitles are the sidecar subtitle files of a video entry.
	Subtitles(ctx context.Context, id int64) ([]catalog.Subtitle, error)
}

// Prober reads a media file's duration and streams (repository/ffprobe,
// itself bounded in how many processes it runs).
type Prober interface {
	Probe(ctx context.Context, path string) (domain.MediaInfo, error)
	// Keyframe is where a seek to at (in the container's time) lands: the
	// video keyframe at or before it.
	Keyframe(ctx context.Context, path string, at float64) (float64, error)
}

// Transcoder runs ffmpeg (repository/ffmpeg).
type Transcoder interface {
	// Remux streams the file from start on as fragmented MP4, its video
	// copied and audio track audio (counted among the audio tracks from
	// 0, below 0 none) in stereo AAC. Close ends the process and returns
	// once it is gone; so does the end of ctx.
	Remux(ctx context.Context, path string, audio int, start float64) (io.ReadCloser, error)
	// Thumbnail is one frame at seconds at, as a JPEG at most 480 pixels
	// wide.
	Thumbnail(ctx context.Context, path string, at float64) ([]byte, error)
}

// Pictures keeps the thumbnails made, by bare file name (repository/localfs
// Dir): each written whole, so a reader never sees half of one.
type Pictures interface {
	// Read is a stored picture; an absent one's error satisfies
	// errors.Is(err, fs.ErrNotExist).
	Read(name string) ([]byte, error)
	Write(name string, data []byte) error
	// RemoveOthers deletes the pictures whose names start with prefix,
	// except keep.
	RemoveOthers(prefix, keep string) error
}

// Users loads the account a play token names: a deleted account's token
// stops at once, and so does one issued before a password change.
type Users interface {
	ByID(ctx context.Context, id int64) (domain.User, error)
}

// Resume is the watching state: where a person stopped in an entry, 0
// when they never started it. usecase/watching implements it.
type Resume interface {
	Position(ctx context.Context, userID, mediaID int64) (float64, error)
}
