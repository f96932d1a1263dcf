package domain

// Stream types of a media file, as ffprobe names them (codec_type).
const (
	StreamVideo    = "video"
	StreamAudio    = "audio"
	StreamSubtitle = "subtitle"
)

// MediaStream is one stream inside a media file: a video picture, an audio
// track or an embedded subtitle track. Index is the stream's position in the
// container (what players select by); Language is the container's tag
// ("rus", "eng"…, "" when untagged).
type MediaStream struct {
	Index    int
	Type     string
	Codec    string
	Language string
	Title    string
	Channels int
	Default  bool
	// Picture marks a video stream that is an attached picture (cover
	// art), not the film.
	Picture bool
}

// MediaInfo is what a prober reads from a media file: its length and its
// streams in container order. Duration is in seconds, 0 when the container
// does not say; Start is the container's first timestamp (0 for most
// files, seconds into a broadcast for a recorded transport stream).
type MediaInfo struct {
	Duration float64
	Start    float64
	Streams  []MediaStream
}

// Video is the file's picture: its first video stream that is not an
// attached picture (cover art); false when there is none.
func (i MediaInfo) Video() (MediaStream, bool) {
	for _, s := range i.Streams {
		if s.Type == StreamVideo && !s.Picture {
			return s, true
		}
	}
	return MediaStream{}, false
}

// Audio lists the audio tracks in container order; a track's place in this
// list is the number ffmpeg selects it by (0:a:N).
func (i MediaInfo) Audio() []MediaStream {
	var out []MediaStream
	for _, s := range i.Streams {
		if s.Type == StreamAudio {
			out = append(out, s)
		}
	}
	return out
}
