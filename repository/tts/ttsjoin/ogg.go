package ttsjoin

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// oggSerials chains Ogg pieces, keeping each piece's logical streams apart
// from those of the pieces before it by their serial numbers.
type oggSerials struct {
	used map[uint32]bool // serials of the pieces already written
}

// copy passes one piece's pages to w page by page, renumbering a logical
// stream whose serial an earlier piece used.
func (o *oggSerials) copy(w *countWriter, r io.Reader) error {
	if o.used == nil {
		o.used = map[uint32]bool{}
	}
	remap := map[uint32]uint32{}
	for {
		page, err := readPage(r)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		serial := binary.LittleEndian.Uint32(page[14:18])
		to, seen := remap[serial]
		if !seen {
			to = serial
			for o.used[to] {
				to++
			}
			remap[serial] = to
		}
		if to != serial {
			binary.LittleEndian.PutUint32(page[14:18], to)
			binary.LittleEndian.PutUint32(page[22:26], 0)
			binary.LittleEndian.PutUint32(page[22:26], oggCRC(page))
		}
		if _, err := w.Write(page); err != nil {
			return &WriteError{Err: err}
		}
	}
	for _, to := range remap {
		o.used[to] = true
	}
	return nil
}

// readPage reads one whole Ogg page; io.EOF at a clean end between pages.
func readPage(r io.Reader) ([]byte, error) {
	head := make([]byte, 27, 27+255)
	if _, err := io.ReadFull(r, head); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("%w: a cut Ogg page", ErrNotAudio)
		}
		return nil, err
	}
	if string(head[:4]) != "OggS" {
		return nil, fmt.Errorf("%w: no Ogg page where one should start", ErrNotAudio)
	}
	segs := make([]byte, head[26])
	if _, err := io.ReadFull(r, segs); err != nil {
		return nil, fmt.Errorf("%w: a cut Ogg page: %w", ErrNotAudio, err)
	}
	size := 0
	for _, s := range segs {
		size += int(s)
	}
	page := make([]byte, 27+len(segs)+size)
	copy(page, head)
	copy(page[27:], segs)
	if _, err := io.ReadFull(r, page[27+len(segs):]); err != nil {
		return nil, fmt.Errorf("%w: a cut Ogg page: %w", ErrNotAudio, err)
	}
	return page, nil
}

// oggCRCTable is the CRC-32 of the Ogg framing (polynomial 0x04C11DB7,
// not reflected, initial value 0).
var oggCRCTable = func() (t [256]uint32) {
	for i := range t {
		c := uint32(i) << 24
		for range 8 {
			if c&0x80000000 != 0 {
				c = c<<1 ^ 0x04C11DB7
			} else {
				c <<= 1
			}
		}
		t[i] = c
	}
	return t
}()

// oggCRC is the checksum of a page whose checksum field is zero.
func oggCRC(page []byte) uint32 {
	var c uint32
	for _, b := range page {
		c = c<<8 ^ oggCRCTable[byte(c>>24)^b]
	}
	return c
}
