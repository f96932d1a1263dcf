package tts

import (
	"io"

	"mediateka/domain/mp3"
)

// mp3Joiner joins the mp3 files of several sentences into one mp3 stream
// as they are written: the first file's ID3v2 tag is kept (it speaks for
// the stream), later files' tags are dropped, and so is every file's
// Xing/Info frame, whose frame count would make a player stop after the
// first sentence (remote engines' mp3 carries one; espeak's ffmpeg pipe
// writes bare frames). Every frame after them passes straight through.
type mp3Joiner struct {
	w      io.Writer
	files  int  // files begun
	inBody bool // this file's head is behind us
	head   []byte
	skip   int // bytes of a Xing frame still to drop
}

// next is called before each sentence's file.
func (j *mp3Joiner) next() {
	j.files++
	j.inBody, j.head, j.skip = false, j.head[:0], 0
}

// end is called after each sentence's file: a file too short to have a
// head to read is passed on as it is.
func (j *mp3Joiner) end() error {
	if j.inBody || len(j.head) == 0 {
		return nil
	}
	j.inBody = true
	_, err := j.w.Write(j.head)
	return err
}

// Write implements io.Writer. It reports all of p written once p is
// consumed, dropped bytes included, so engines see a normal writer.
func (j *mp3Joiner) Write(p []byte) (int, error) {
	n := len(p)
	if !j.inBody {
		j.head = append(j.head, p...)
		h, ok := mp3.ReadHead(j.head)
		if !ok {
			return n, nil
		}
		j.inBody = true
		var keep []byte
		if j.files == 1 {
			keep = j.head[:h.Tag]
		}
		p = j.head[h.Tag:]
		j.skip = h.Xing
		if len(keep) > 0 {
			if _, err := j.w.Write(keep); err != nil {
				return 0, err
			}
		}
	}
	if j.skip > 0 {
		d := min(j.skip, len(p))
		p, j.skip = p[d:], j.skip-d
	}
	if len(p) > 0 {
		if _, err := j.w.Write(p); err != nil {
			return 0, err
		}
	}
	return n, nil
}
