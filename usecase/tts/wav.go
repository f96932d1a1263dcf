package tts

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
)

// wavJoiner joins the WAV files of several sentences into one WAV stream
// as they are written. Each file's header is read up to the start of its
// "data" chunk: the first is passed on with its RIFF and data sizes set to
// 0xFFFFFFFF (length unknown: a player reads to the end of the stream
// instead of stopping after the first sentence's size), later ones are
// dropped, and every sample after them passes straight through. The
// header is parsed chunk by chunk, never assumed to be 44 bytes (espeak-ng
// writes 44, other engines add LIST or fact chunks).
type wavJoiner struct {
	w       io.Writer
	started bool // the first header has been written
	inData  bool // this file's header is behind us
	head    []byte
}

// maxWAVHeader bounds a header kept while looking for the data chunk.
const maxWAVHeader = 64 << 10

// errNotWAV is a sentence whose audio is not a WAV file.
var errNotWAV = errors.New("the speech engine's audio is not a WAV file")

// next is called before each sentence's file.
func (j *wavJoiner) next() { j.inData, j.head = false, j.head[:0] }

// Write implements io.Writer. It reports all of p written once p is
// consumed, header bytes included, so engines see a normal writer.
func (j *wavJoiner) Write(p []byte) (int, error) {
	if j.inData {
		return j.w.Write(p)
	}
	j.head = append(j.head, p...)
	dataAt, ok, err := wavDataOffset(j.head)
	if err != nil {
		return 0, err
	}
	if !ok {
		if len(j.head) > maxWAVHeader {
			return 0, errNotWAV
		}
		return len(p), nil
	}
	j.inData = true
	var out []byte
	if !j.started {
		j.started = true
		hdr := bytes.Clone(j.head[:dataAt])
		binary.LittleEndian.PutUint32(hdr[4:8], 0xFFFFFFFF)
		binary.LittleEndian.PutUint32(hdr[dataAt-4:dataAt], 0xFFFFFFFF)
		out = append(hdr, j.head[dataAt:]...)
	} else {
		out = j.head[dataAt:]
	}
	if len(out) > 0 {
		if _, err := j.w.Write(out); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// wavDataOffset finds where the samples of the WAV in b begin (just past
// the "data" chunk's header). ok is false while b is too short to tell.
func wavDataOffset(b []byte) (int, bool, error) {
	if len(b) < 12 {
		return 0, false, nil
	}
	if string(b[:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		return 0, false, errNotWAV
	}
	at := 12
	for {
		if len(b) < at+8 {
			return 0, false, nil
		}
		id, size := string(b[at:at+4]), binary.LittleEndian.Uint32(b[at+4:at+8])
		if id == "data" {
			return at + 8, true, nil
		}
		next := uint64(at) + 8 + uint64(size) + uint64(size&1) // chunks are padded to even sizes
		if next > maxWAVHeader {
			return 0, false, errNotWAV
		}
		at = int(next)
	}
}
