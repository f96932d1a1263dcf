package ttsjoin

import (
	"bufio"
	"bytes"
	"io"
)

// maxID3 bounds an ID3v2 tag read into memory; a larger one (cover art)
// leaves the piece as it is.
const maxID3 = 1 << 20

// mp3Body is one mp3 piece of several without what would mislead a
// player of the joined file: a later piece's ID3v2 tag (the first one's
// speaks for the file) and every piece's Xing/Info frame, whose frame
// count and seek table describe the piece as if it were the whole file.
func mp3Body(r *bufio.Reader, first bool) (io.Reader, error) {
	var tag []byte
	if head, _ := r.Peek(10); len(head) == 10 && string(head[:3]) == "ID3" {
		size := id3Size(head)
		if size > maxID3 {
			return r, nil
		}
		tag = make([]byte, size)
		if _, err := io.ReadFull(r, tag); err != nil {
			return nil, err
		}
		if !first {
			tag = nil
		}
	}
	if head, _ := r.Peek(4); len(head) == 4 {
		length, side := mp3Frame(head)
		frame, _ := r.Peek(length)
		if length > 0 && len(frame) == length && 4+side+4 <= length && isXing(frame[4+side:4+side+4]) {
			if _, err := r.Discard(length); err != nil {
				return nil, err
			}
		}
	}
	return io.MultiReader(bytes.NewReader(tag), r), nil
}

func isXing(tag []byte) bool { return string(tag) == "Xing" || string(tag) == "Info" }

// id3Size is the whole length of an ID3v2 tag from its 10-byte header:
// the header, the syncsafe size, and the footer when the flag says so.
func id3Size(h []byte) int {
	n := int(h[6]&0x7F)<<21 | int(h[7]&0x7F)<<14 | int(h[8]&0x7F)<<7 | int(h[9]&0x7F)
	n += 10
	if h[5]&0x10 != 0 {
		n += 10
	}
	return n
}

// Layer III bitrates in kbit/s by index, MPEG-1 and MPEG-2/2.5.
var (
	bitrates1 = [15]int{0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320}
	bitrates2 = [15]int{0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160}
	rates     = map[byte][3]int{3: {44100, 48000, 32000}, 2: {22050, 24000, 16000}, 0: {11025, 12000, 8000}}
)

// mp3Frame reads a Layer III frame header: the frame's length in bytes and
// the length of its side information (where a Xing tag would start after
// the 4 header bytes). 0 when h is not a Layer III frame header.
func mp3Frame(h []byte) (length, side int) {
	if h[0] != 0xFF || h[1]&0xE0 != 0xE0 {
		return 0, 0
	}
	version, layer := (h[1]>>3)&3, (h[1]>>1)&3
	brIdx, srIdx, pad := h[2]>>4, (h[2]>>2)&3, int(h[2]>>1)&1
	sr, ok := rates[version]
	if layer != 1 || !ok || brIdx == 0 || brIdx == 15 || srIdx == 3 {
		return 0, 0
	}
	mono := h[3]>>6 == 3
	if version == 3 {
		side = 32
		if mono {
			side = 17
		}
		return 144*bitrates1[brIdx]*1000/sr[srIdx] + pad, side
	}
	side = 17
	if mono {
		side = 9
	}
	return 72*bitrates2[brIdx]*1000/sr[srIdx] + pad, side
}
