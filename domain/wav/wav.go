// Package wav reads the head of a WAV (RIFF/WAVE) file: where its samples
// begin and their format. Speech is joined from WAV pieces in two places —
// the remote engines join the pieces of a long text, the speech use case
// joins sentences into one stream — and both must walk the same chunks the
// same way (LIST, fact and odd-sized chunks before the data), so the walk
// lives here, in the one layer both may import.
package wav

import (
	"encoding/binary"
	"errors"
)

// UnknownSize is the RIFF and data size of a WAV whose length was not
// known when its header was written (a stream from a pipe).
const UnknownSize = 0xFFFFFFFF

// MaxHeader bounds the chunks before the data a reader will hold.
const MaxHeader = 64 << 10

// ErrNotWAV is a head that is not a WAV file, or one whose chunks before
// the data pass MaxHeader.
var ErrNotWAV = errors.New("not a WAV file")

// Head is where the samples of a WAV begin.
type Head struct {
	// Fmt is the body of the "fmt " chunk (at least 16 bytes).
	Fmt []byte
	// Data is the offset of the first sample, just past the "data"
	// chunk's header; DataSize is that header's size field (UnknownSize
	// or 0 for a streamed WAV).
	Data     int
	DataSize uint32
}

// ReadHead walks the chunks of b up to the data. ok is false while b is
// too short to tell (read more and ask again); err is ErrNotWAV for
// anything else than a WAV with a fmt chunk before its data.
func ReadHead(b []byte) (h Head, ok bool, err error) {
	if len(b) < 12 {
		return Head{}, false, nil
	}
	if string(b[:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		return Head{}, false, ErrNotWAV
	}
	for at := 12; ; {
		if len(b) < at+8 {
			return Head{}, false, nil
		}
		id, size := string(b[at:at+4]), binary.LittleEndian.Uint32(b[at+4:at+8])
		body := at + 8
		if id == "data" {
			if len(h.Fmt) < 16 {
				return Head{}, false, ErrNotWAV
			}
			h.Data, h.DataSize = body, size
			return h, true, nil
		}
		next := uint64(body) + uint64(size) + uint64(size&1) // chunks are padded to even sizes
		if next > MaxHeader {
			return Head{}, false, ErrNotWAV
		}
		if id == "fmt " {
			if len(b) < body+int(size) {
				return Head{}, false, nil
			}
			h.Fmt = b[body : body+int(size)]
		}
		at = int(next)
	}
}
