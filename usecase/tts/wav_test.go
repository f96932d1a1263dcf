package tts

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// wavFile builds a WAV with a LIST chunk of odd size before the data, as
// engines other than espeak-ng write them.
func wavFile(samples []byte) []byte {
	var b bytes.Buffer
	b.WriteString("RIFF")
	binary.Write(&b, binary.LittleEndian, uint32(0)) // filled below
	b.WriteString("WAVEfmt ")
	binary.Write(&b, binary.LittleEndian, uint32(16))
	binary.Write(&b, binary.LittleEndian, []uint16{1, 1})
	binary.Write(&b, binary.LittleEndian, []uint32{24000, 48000})
	binary.Write(&b, binary.LittleEndian, []uint16{2, 16})
	b.WriteString("LIST")
	binary.Write(&b, binary.LittleEndian, uint32(5))
	b.WriteString("INFOx\x00") // 5 bytes and the pad byte
	b.WriteString("data")
	binary.Write(&b, binary.LittleEndian, uint32(len(samples)))
	b.Write(samples)
	out := b.Bytes()
	binary.LittleEndian.PutUint32(out[4:8], uint32(len(out)-8))
	return out
}

func TestWAVJoinerKeepsOneHeaderAndEverySample(t *testing.T) {
	a, bb := []byte("aaaaaaaaaaaaaaaaaaaa"), []byte("bbbbbbbbbb")
	for _, step := range []int{1, 3, 7, 1000} {
		var out bytes.Buffer
		j := &wavJoiner{w: &out}
		for _, file := range [][]byte{wavFile(a), wavFile(bb)} {
			j.next()
			for i := 0; i < len(file); i += step {
				chunk := file[i:min(i+step, len(file))]
				if n, err := j.Write(chunk); err != nil || n != len(chunk) {
					t.Fatalf("step %d: Write = %d, %v", step, n, err)
				}
			}
		}
		got := out.Bytes()
		head := len(wavFile(nil))
		if !bytes.Equal(got[head:], append(append([]byte{}, a...), bb...)) {
			t.Fatalf("step %d: samples %q", step, got[head:])
		}
		if binary.LittleEndian.Uint32(got[4:8]) != 0xFFFFFFFF || binary.LittleEndian.Uint32(got[head-4:head]) != 0xFFFFFFFF {
			t.Fatalf("step %d: sizes not marked unknown", step)
		}
		if !bytes.Equal(got[8:head-4], wavFile(nil)[8:head-4]) {
			t.Fatalf("step %d: header changed beyond the sizes", step)
		}
	}
}

func TestWAVJoinerRefusesWhatIsNotWAV(t *testing.T) {
	j := &wavJoiner{w: &bytes.Buffer{}}
	j.next()
	if _, err := j.Write([]byte("ID3\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00")); err != errNotWAV {
		t.Fatalf("mp3 into the WAV joiner: %v", err)
	}
	j.next()
	huge := wavFile(nil)[:12]
	huge = append(huge, "JUNK\xff\xff\xff\x7f"...)
	if _, err := j.Write(huge); err != errNotWAV {
		t.Fatalf("a header past the bound: %v", err)
	}
}
