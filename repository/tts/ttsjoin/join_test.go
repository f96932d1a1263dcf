package ttsjoin_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/tts/ttsjoin"
	"mediateka/repository/tts/ttstest"
)

func u32(b []byte, off int) uint32 { return binary.LittleEndian.Uint32(b[off:]) }

// TestJoinWAVWritesOneHeaderWithTheTotalSizes joins WAVs of every shape a
// server sends — plain, with a LIST chunk before the data, and streamed
// with 0xFFFFFFFF sizes — into one WAV whose RIFF and data sizes are the
// file's, which ffprobe plays for the sum of the pieces.
func TestJoinWAVWritesOneHeaderWithTheTotalSizes(t *testing.T) {
	samples := []int{24000, 12000, 6001}
	pieces := [][]byte{
		ttstest.WAV(samples[0], false, false),
		ttstest.WAV(samples[1], false, true),
		ttstest.WAV(samples[2], true, false),
	}
	var out bytes.Buffer
	require.NoError(t, ttsjoin.Join(&out, domain.AudioWAV, pieces))
	b := out.Bytes()
	pcm := 2 * (samples[0] + samples[1] + samples[2])
	require.Equal(t, 44+pcm, len(b), "one 44-byte header, then the PCM of all pieces")
	assert.Equal(t, "RIFF", string(b[:4]))
	assert.Equal(t, uint32(len(b)-8), u32(b, 4), "RIFF size")
	assert.Equal(t, "WAVEfmt ", string(b[8:16]))
	assert.Equal(t, "data", string(b[36:40]))
	assert.Equal(t, uint32(pcm), u32(b, 40), "data size")
	for i, p := range pieces {
		_, want, err := ttsjoin.ParseWAV(p)
		require.NoError(t, err)
		assert.Equal(t, 2*samples[i], len(want), "piece %d's PCM found past its chunks", i)
	}
	assert.Equal(t, pieces[0][44:], b[44:44+2*samples[0]], "the first piece's samples come first, unchanged")
	assert.InDelta(t, 1.75, ttstest.Duration(t, b, "wav"), 0.01)
}

func TestJoinOnePiecePassesThrough(t *testing.T) {
	for _, c := range []struct {
		format domain.AudioFormat
		audio  []byte
	}{
		{domain.AudioWAV, ttstest.WAV(100, true, true)},
		{domain.AudioMP3, ttstest.MP3()},
		{domain.AudioOGG, ttstest.Ogg()},
	} {
		var out bytes.Buffer
		require.NoError(t, ttsjoin.Join(&out, c.format, [][]byte{c.audio}))
		assert.Equal(t, c.audio, out.Bytes(), "%s unchanged", c.format)
	}
}

// TestJoinMP3 keeps the first ID3 tag, drops the later ones and every
// LAME Info frame (its frame count would make a player stop after the
// first piece), and plays for three pieces.
func TestJoinMP3(t *testing.T) {
	one := ttstest.MP3()
	var out bytes.Buffer
	require.NoError(t, ttsjoin.Join(&out, domain.AudioMP3, [][]byte{one, one, one}))
	b := out.Bytes()
	assert.True(t, bytes.HasPrefix(b, []byte("ID3")))
	assert.Equal(t, 1, bytes.Count(b, []byte("ID3")), "one tag")
	assert.Equal(t, 0, bytes.Count(b, []byte("Info")), "no Info frame")
	assert.Equal(t, 1, bytes.Count(one, []byte("Info")), "the piece had one")
	// A piece is 19 frames of 576 samples at 24 kHz, 0.456 s: 0.4 s of tone
	// and the encoder's delay and padding, which only the dropped Info frame
	// told a decoder to trim.
	assert.InDelta(t, 0.4, ttstest.Decode(t, one, "mp3"), 0.01)
	assert.InDelta(t, 3*0.456, ttstest.Decode(t, b, "mp3"), 0.01)
	assert.InDelta(t, 3*0.456, ttstest.Duration(t, b, "mp3"), 0.05)
}

// TestJoinOggChainsLinksWithTheirOwnSerials joins three copies of one Ogg
// file (serial 0 each) into a chain whose links have distinct serials and
// valid checksums: ffmpeg decodes all three without a complaint.
func TestJoinOggChainsLinksWithTheirOwnSerials(t *testing.T) {
	one := ttstest.Ogg()
	var out bytes.Buffer
	require.NoError(t, ttsjoin.Join(&out, domain.AudioOGG, [][]byte{one, one, one}))
	b := out.Bytes()
	assert.Equal(t, 3*len(one), len(b))
	assert.Equal(t, one, b[:len(one)], "the first link is as the server sent it")
	assert.Equal(t, 3, bytes.Count(b, []byte("OpusHead")), "three chained links")
	serials := map[uint32]bool{}
	for off := 0; off < len(b); off += len(one) {
		serials[u32(b, off+14)] = true
	}
	assert.Len(t, serials, 3)
	assert.InDelta(t, 3*ttstest.Decode(t, one, "ogg"), ttstest.Decode(t, b, "ogg"), 0.01)
}

func TestJoinRefusesWhatIsNotAudioBeforeWriting(t *testing.T) {
	html := []byte("<html><body>502 Bad Gateway</body></html>")
	for _, f := range []domain.AudioFormat{domain.AudioMP3, domain.AudioWAV, domain.AudioOGG} {
		var out bytes.Buffer
		good := map[domain.AudioFormat][]byte{domain.AudioMP3: ttstest.MP3(), domain.AudioWAV: ttstest.WAV(10, false, false),
			domain.AudioOGG: ttstest.Ogg()}[f]
		err := ttsjoin.Join(&out, f, [][]byte{good, html})
		assert.ErrorIs(t, err, ttsjoin.ErrNotAudio, "%s", f)
		assert.Zero(t, out.Len(), "%s: nothing written when a later piece is bad", f)
	}
	var out bytes.Buffer
	assert.ErrorIs(t, ttsjoin.Join(&out, domain.AudioMP3, [][]byte{ttstest.WAV(10, false, false)}), ttsjoin.ErrNotAudio, "a WAV asked as mp3")
}

func TestParseWAVRefusesBrokenFiles(t *testing.T) {
	good := ttstest.WAV(10, false, false)
	noFmt := append([]byte("RIFF\x00\x00\x00\x00WAVEdata\x04\x00\x00\x00"), 1, 2, 3, 4)
	overrun := append([]byte(nil), good[:36]...)
	overrun = append(overrun, "LIST\xff\x00\x00\x00"...)
	for name, b := range map[string][]byte{
		"empty": nil, "not RIFF": []byte("OggS0000WAVE"), "data before fmt": noFmt,
		"chunk past the end": overrun, "no data": good[:36],
	} {
		_, _, err := ttsjoin.ParseWAV(b)
		assert.ErrorIs(t, err, ttsjoin.ErrNotAudio, name)
	}
	mono := ttstest.WAV(10, false, false)
	stereo := append([]byte(nil), mono...)
	binary.LittleEndian.PutUint16(stereo[22:], 2)
	binary.LittleEndian.PutUint16(stereo[32:], 4)
	err := ttsjoin.Join(&bytes.Buffer{}, domain.AudioWAV, [][]byte{mono, stereo})
	assert.ErrorIs(t, err, ttsjoin.ErrNotAudio, "pieces of different sample formats")
	odd := ttstest.WAV(10, false, false)[:44+7] // a cut sample: PCM trimmed to whole frames
	_, pcm, err := ttsjoin.ParseWAV(odd)
	require.NoError(t, err)
	assert.Len(t, pcm, 6)
}

func TestWAVHeaderRefusesOver4GiB(t *testing.T) {
	_, err := ttsjoin.WAVHeader(make([]byte, 16), math.MaxUint32-10)
	assert.Error(t, err)
}

// failWriter fails every write, as a client that went away.
type failWriter struct{}

var errGone = errors.New("client gone")

func (failWriter) Write([]byte) (int, error) { return 0, errGone }

func TestWriterFailureIsTold(t *testing.T) {
	for _, f := range []domain.AudioFormat{domain.AudioMP3, domain.AudioWAV, domain.AudioOGG} {
		good := map[domain.AudioFormat][]byte{domain.AudioMP3: ttstest.MP3(), domain.AudioWAV: ttstest.WAV(10, false, false),
			domain.AudioOGG: ttstest.Ogg()}[f]
		for _, n := range []int{1, 2} {
			pieces := [][]byte{good, good}[:n]
			err := ttsjoin.Join(failWriter{}, f, pieces)
			var we *ttsjoin.WriteError
			assert.ErrorAs(t, err, &we, "%s × %d", f, n)
			assert.ErrorIs(t, err, errGone)
		}
	}
}
