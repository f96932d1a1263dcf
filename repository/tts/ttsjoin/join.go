package ttsjoin

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"mediateka/domain"
)

// ErrNotAudio is the cause when a server's answer is not audio of the
// asked format (an HTML error page from a proxy, a JSON error with status
// 200, a WAV asked as mp3). It is found before any byte of the piece is
// written, so an engine can still answer with a status.
var ErrNotAudio = errors.New("the answer is not audio of the asked format")

// WriteError wraps a failure of the caller's writer (a client gone), which
// is neither the server's fault nor the engine's.
type WriteError struct{ Err error }

func (e *WriteError) Error() string { return "writing the audio: " + e.Err.Error() }

// Unwrap returns the writer's error.
func (e *WriteError) Unwrap() error { return e.Err }

// Joiner writes the audio of a text's pieces, in order, to one writer as
// one file of its format (see the package comment). It is not safe for
// concurrent use: pieces come one after another.
type Joiner struct {
	w      *countWriter
	format domain.AudioFormat
	total  int
	n      int
	wav    wavJoin
	ogg    oggSerials
}

// NewJoiner returns a joiner of pieces pieces of format into w.
func NewJoiner(w io.Writer, format domain.AudioFormat, pieces int) *Joiner {
	return &Joiner{w: &countWriter{w: w}, format: format, total: pieces}
}

// Written reports whether any byte reached the writer: before that, a
// failed piece can still be retried or answered with a status.
func (j *Joiner) Written() bool { return j.w.n > 0 }

// Add reads the next piece's audio from r and writes it: passed through as
// it arrives for a text of one piece, for mp3 and for ogg; kept until Close
// for a WAV of several pieces. The piece's first bytes are checked against
// the format before anything of it is written (ErrNotAudio).
func (j *Joiner) Add(r io.Reader) error {
	br := bufio.NewReaderSize(r, 16<<10)
	head, _ := br.Peek(12)
	if err := Check(j.format, head); err != nil {
		return err
	}
	j.n++
	if j.total <= 1 {
		return j.copy(br)
	}
	switch j.format {
	case domain.AudioWAV:
		return j.wav.add(br)
	case domain.AudioMP3:
		body, err := mp3Body(br, j.n == 1)
		if err != nil {
			return err
		}
		return j.copy(body)
	default:
		return j.ogg.copy(j.w, br)
	}
}

// Close writes what was held back (the WAV of several pieces). It writes
// nothing when no piece was added.
func (j *Joiner) Close() error {
	if j.total <= 1 || j.format != domain.AudioWAV || j.n == 0 {
		return nil
	}
	if _, err := j.wav.writeTo(j.w); err != nil {
		return &WriteError{Err: err}
	}
	return nil
}

// copy passes r to the writer as it arrives. Read errors are the server's
// (a cut connection); write errors are the caller's.
func (j *Joiner) copy(r io.Reader) error {
	_, err := io.Copy(j.w, r)
	if err != nil && j.w.err != nil {
		return &WriteError{Err: j.w.err}
	}
	return err
}

// Join writes whole pieces, already received, as one file of format:
// every piece is checked first, so a bad one leaves w untouched.
func Join(w io.Writer, format domain.AudioFormat, pieces [][]byte) error {
	for i, p := range pieces {
		if err := Check(format, p[:min(len(p), 12)]); err != nil {
			return fmt.Errorf("piece %d of %d: %w", i+1, len(pieces), err)
		}
	}
	j := NewJoiner(w, format, len(pieces))
	for _, p := range pieces {
		if err := j.Add(bytes.NewReader(p)); err != nil {
			return err
		}
	}
	return j.Close()
}

// Check reports whether head, the first bytes of an answer, starts a file
// of format: "RIFF…WAVE", "OggS", or an ID3v2 tag or MPEG frame sync.
func Check(format domain.AudioFormat, head []byte) error {
	ok := false
	switch format {
	case domain.AudioWAV:
		ok = len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WAVE"
	case domain.AudioOGG:
		ok = bytes.HasPrefix(head, []byte("OggS"))
	case domain.AudioMP3:
		ok = bytes.HasPrefix(head, []byte("ID3")) || (len(head) >= 2 && head[0] == 0xFF && head[1]&0xE0 == 0xE0)
	}
	if !ok {
		return fmt.Errorf("%w (%s): starts with %q", ErrNotAudio, format, head[:min(len(head), 8)])
	}
	return nil
}

// countWriter counts what reached w and keeps w's first error.
type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}
