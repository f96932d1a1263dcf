package wav

import (
	"encoding/binary"
	"errors"
	"testing"
)

// file is a WAV head: RIFF, the chunks given, then data of dataSize.
func file(dataSize uint32, chunks ...[]byte) []byte {
	b := []byte("RIFF\x00\x00\x00\x00WAVE")
	for _, c := range chunks {
		b = append(b, c...)
	}
	b = append(b, "data"...)
	return binary.LittleEndian.AppendUint32(b, dataSize)
}

var fmtChunk = append([]byte("fmt \x10\x00\x00\x00"), make([]byte, 16)...)

func TestReadHead(t *testing.T) {
	list := []byte("LIST\x03\x00\x00\x00abc\x00") // odd size, padded
	whole := file(UnknownSize, fmtChunk, list)
	for n := range len(whole) {
		if _, ok, err := ReadHead(whole[:n]); ok || err != nil {
			t.Fatalf("%d of %d bytes: ok %v, err %v; want: read more", n, len(whole), ok, err)
		}
	}
	h, ok, err := ReadHead(whole)
	if !ok || err != nil || h.Data != len(whole) || h.DataSize != UnknownSize || len(h.Fmt) != 16 {
		t.Fatalf("ReadHead = %+v, %v, %v", h, ok, err)
	}
	for name, b := range map[string][]byte{
		"mp3":                []byte("ID3\x04\x00\x00\x00\x00\x00\x00\x00\x00"),
		"data before fmt":    file(10),
		"a huge chunk first": file(10, []byte("JUNK\xff\xff\xff\x7f")),
	} {
		if _, _, err := ReadHead(b); !errors.Is(err, ErrNotWAV) {
			t.Errorf("%s: err %v, want ErrNotWAV", name, err)
		}
	}
}
