package mp3

import (
	"bytes"
	"testing"
)

// infoFrame is an MPEG-2 Layer III frame (24 kHz, 32 kbit/s, mono: 96
// bytes, side information 9 bytes) carrying a LAME "Info" tag.
func infoFrame() []byte {
	f := make([]byte, 96)
	copy(f, []byte{0xFF, 0xF3, 0x44, 0xC4})
	copy(f[4+9:], "Info")
	return f
}

func TestReadHead(t *testing.T) {
	tag := append([]byte("ID3\x04\x00\x00\x00\x00\x00\x05"), "abcde"...) // 15 bytes
	audio := append(infoFrame(), 0xFF, 0xF3, 0x44, 0xC4)
	file := append(append([]byte(nil), tag...), audio...)
	for n := range len(tag) + 4 + 9 + 4 {
		if _, ok := ReadHead(file[:n]); ok {
			t.Fatalf("%d bytes are enough to tell", n)
		}
	}
	h, ok := ReadHead(file)
	if !ok || h.Tag != 15 || h.Xing != 96 {
		t.Fatalf("ReadHead = %+v, %v; want tag 15, Xing 96", h, ok)
	}
	if h, ok := ReadHead(bytes.Repeat([]byte{0xFF, 0xF3, 0x44, 0xC4}, 30)); !ok || h != (Head{}) {
		t.Fatalf("bare frames: %+v, %v", h, ok)
	}
	big := []byte("ID3\x04\x00\x00\x7F\x7F\x7F\x7F")
	if h, ok := ReadHead(big); !ok || h != (Head{}) {
		t.Fatalf("a tag over MaxID3 leaves the piece as it is: %+v, %v", h, ok)
	}
}
