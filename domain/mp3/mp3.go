// Package mp3 reads the head of an mp3 file: its ID3v2 tag and the
// Xing/Info frame that may follow it. Speech is joined from mp3 pieces in
// two places — the remote engines join the pieces of a long text, the
// speech use case joins sentences into one stream — and both must drop the
// same things (a later piece's tag, every piece's Xing/Info frame, whose
// frame count and seek table describe the piece as if it were the whole
// file), so the reading lives here, in the one layer both may import.
package mp3

// MaxID3 bounds an ID3v2 tag a reader will hold; a larger one (cover art)
// leaves the piece as it is.
const MaxID3 = 1 << 20

// Head is what starts an mp3 piece before its audio frames.
type Head struct {
	// Tag is the length of the ID3v2 tag at the start, 0 without one.
	Tag int
	// Xing is the length of the Xing/Info frame right after the tag, 0
	// without one.
	Xing int
}

// ReadHead reads the tag and the Xing/Info frame at the start of b. ok is
// false while b is too short to tell (read more and ask again); at the
// end of a piece shorter than that, there is nothing to drop. A tag over
// MaxID3 is reported as no head at all (ok, zero Head): the piece passes
// unchanged.
func ReadHead(b []byte) (h Head, ok bool) {
	if len(b) < 10 {
		return Head{}, false
	}
	if string(b[:3]) == "ID3" {
		h.Tag = ID3Size(b[:10])
		if h.Tag > MaxID3 {
			return Head{}, true
		}
	}
	if len(b) < h.Tag+4 {
		return Head{}, false
	}
	rest := b[h.Tag:]
	length, side := Frame(rest[:4])
	if length == 0 || 4+side+4 > length {
		return h, true // not a frame, or one too short to hold a tag
	}
	if len(rest) < 4+side+4 {
		return Head{}, false
	}
	if IsXing(rest[4+side : 4+side+4]) {
		h.Xing = length
	}
	return h, true
}

// IsXing reports whether tag, the four bytes after a frame's side
// information, marks a Xing (VBR) or Info (CBR) frame.
func IsXing(tag []byte) bool { return string(tag) == "Xing" || string(tag) == "Info" }

// ID3Size is the whole length of an ID3v2 tag from its 10-byte header:
// the header, the syncsafe size, and the footer when the flag says so.
func ID3Size(h []byte) int {
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

// Frame reads a Layer III frame header: the frame's length in bytes and
// the length of its side information (where a Xing tag would start after
// the 4 header bytes). 0 when h is not a Layer III frame header.
func Frame(h []byte) (length, side int) {
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
