package tts

import (
	"bytes"
	"encoding/binary"
	"io"

	"mediateka/domain/wav"
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

// errNotWAV is a sentence whose audio is not a WAV file.
var errNotWAV = wav.ErrNotWAV

// next is called before each sentence's file.
func (j *wavJoiner) next() { j.inData, j.head = false, j.head[:0] }

// Write implements io.Writer. It reports all of p written once p is
// consumed, header bytes included, so engines see a normal writer.
func (j *wavJoiner) Write(p []byte) (int, error) {
	if j.inData {
		return j.w.Write(p)
	}
	j.head = append(j.head, p...)
	h, ok, err := wav.ReadHead(j.head)
	if err != nil {
		return 0, err
	}
	if !ok {
		if len(j.head) > wav.MaxHeader {
			return 0, errNotWAV
		}
		return len(p), nil
	}
	j.inData = true
	var out []byte
	if !j.started {
		j.started = true
		hdr := bytes.Clone(j.head[:h.Data])
		binary.LittleEndian.PutUint32(hdr[4:8], wav.UnknownSize)
		binary.LittleEndian.PutUint32(hdr[h.Data-4:h.Data], wav.UnknownSize)
		out = append(hdr, j.head[h.Data:]...)
	} else {
		out = j.head[h.Data:]
	}
	if len(out) > 0 {
		if _, err := j.w.Write(out); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}
