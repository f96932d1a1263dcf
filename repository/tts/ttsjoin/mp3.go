package ttsjoin

import (
	"bufio"
	"bytes"
	"io"

	"mediateka/domain/mp3"
)

// mp3Body is one mp3 piece of several without what would mislead a
// player of the joined file: a later piece's ID3v2 tag (the first one's
// speaks for the file) and every piece's Xing/Info frame, whose frame
// count and seek table describe the piece as if it were the whole file.
func mp3Body(r *bufio.Reader, first bool) (io.Reader, error) {
	var tag []byte
	if head, _ := r.Peek(10); len(head) == 10 && string(head[:3]) == "ID3" {
		size := mp3.ID3Size(head)
		if size > mp3.MaxID3 {
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
		length, side := mp3.Frame(head)
		frame, _ := r.Peek(length)
		if length > 0 && len(frame) == length && 4+side+4 <= length && mp3.IsXing(frame[4+side:4+side+4]) {
			if _, err := r.Discard(length); err != nil {
				return nil, err
			}
		}
	}
	return io.MultiReader(bytes.NewReader(tag), r), nil
}
