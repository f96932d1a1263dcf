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
}
