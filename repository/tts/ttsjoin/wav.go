package ttsjoin

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	"mediateka/domain/wav"
)

// unknownSize is the chunk size a WAV written to a pipe carries: its
// length was not known when the header went out.
const unknownSize = wav.UnknownSize

// maxWAVPiece bounds one piece read into memory: 5000 characters of speech
// are a few minutes, tens of MB of 16-bit PCM at most.
const maxWAVPiece = 256 << 20

// wavJoin gathers the PCM of several WAV pieces of one sample format.
type wavJoin struct {
	fmtChunk []byte
	pcm      bytes.Buffer
}

// add reads one whole WAV piece and keeps its PCM.
func (j *wavJoin) add(r io.Reader) error {
	b, err := io.ReadAll(io.LimitReader(r, maxWAVPiece+1))
	if err != nil {
		return err
	}
	if len(b) > maxWAVPiece {
		return fmt.Errorf("%w: a WAV piece over %d bytes", ErrNotAudio, maxWAVPiece)
	}
	fmtChunk, pcm, err := ParseWAV(b)
	if err != nil {
		return err
	}
	if j.fmtChunk == nil {
		j.fmtChunk = fmtChunk
	} else if !bytes.Equal(j.fmtChunk[:16], fmtChunk[:16]) {
		return fmt.Errorf("%w: the WAV pieces differ in sample format", ErrNotAudio)
	}
	j.pcm.Write(pcm)
	return nil
}

// writeTo writes one WAV: a header with the total sizes, then all PCM.
func (j *wavJoin) writeTo(w io.Writer) (int64, error) {
	head, err := WAVHeader(j.fmtChunk, j.pcm.Len())
	if err != nil {
		return 0, err
	}
	n, err := w.Write(head)
	if err != nil {
		return int64(n), err
	}
	m, err := j.pcm.WriteTo(w)
	if err == nil && j.pcm.Len()%2 == 1 {
		_, err = w.Write([]byte{0}) // chunks are padded to an even length
	}
	return int64(n) + m, err
}

// ParseWAV walks a WAV file's RIFF chunks and returns the body of its
// "fmt " chunk and its PCM data. Chunks other than fmt and data (LIST,
// fact, …) are skipped whatever their place. A data size of 0xFFFFFFFF or
// 0, or one past the end of b, as a WAV streamed from a pipe has, means
// the data runs to the end of b. The PCM is cut to whole sample frames.
func ParseWAV(b []byte) (fmtChunk, pcm []byte, err error) {
	h, ok, err := wav.ReadHead(b)
	switch {
	case err != nil:
		return nil, nil, fmt.Errorf("%w: %w", ErrNotAudio, err)
	case !ok:
		return nil, nil, fmt.Errorf("%w: a WAV cut off before its data", ErrNotAudio)
	}
	end := len(b)
	if h.DataSize != wav.UnknownSize && h.DataSize != 0 && uint64(h.Data)+uint64(h.DataSize) <= uint64(len(b)) {
		end = h.Data + int(h.DataSize)
	}
	pcm = b[h.Data:end]
	if align := int(binary.LittleEndian.Uint16(h.Fmt[12:14])); align > 0 {
		pcm = pcm[:len(pcm)/align*align]
	}
	return h.Fmt, pcm, nil
}

// WAVHeader is the header of a WAV of fmtChunk's sample format holding
// dataLen bytes of PCM: RIFF, fmt and the data chunk's head.
func WAVHeader(fmtChunk []byte, dataLen int) ([]byte, error) {
	fmtLen := len(fmtChunk) + len(fmtChunk)%2
	riff := uint64(4 + 8 + fmtLen + 8 + dataLen + dataLen%2)
	if riff >= unknownSize {
		return nil, fmt.Errorf("the joined WAV would be over 4 GiB")
	}
	h := make([]byte, 0, 20+fmtLen+8)
	h = append(h, "RIFF"...)
	h = binary.LittleEndian.AppendUint32(h, uint32(riff))
	h = append(h, "WAVEfmt "...)
	h = binary.LittleEndian.AppendUint32(h, uint32(len(fmtChunk)))
	h = append(h, fmtChunk...)
	if len(fmtChunk)%2 == 1 {
		h = append(h, 0)
	}
	h = append(h, "data"...)
	return binary.LittleEndian.AppendUint32(h, uint32(dataLen)), nil
}
