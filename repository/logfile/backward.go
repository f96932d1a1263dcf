package logfile

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
)

// blockSize is how much ReadBackward reads at a time from the end.
const blockSize = 64 << 10

// MaxLine bounds one line as the readers hand it out: a longer line is cut
// to its first MaxLine bytes, whichever way it is read, so a record keeps
// its time and level (which slog writes first) and the same line reads
// the same from the end as from the start.
const MaxLine = 1 << 20

// ErrCompressed is ReadBackward's answer for a .gz file, which can only
// be read from its start.
var ErrCompressed = fmt.Errorf("a compressed file cannot be read backwards")

// ReadBackward calls fn with the lines of a plain log file from the last
// to the first, reading blocks from the end, so the tail of a large file
// costs only the blocks it spans. fn's line is valid during the call only;
// returning false stops. Empty lines are skipped.
func (d *Dir) ReadBackward(name string, fn func(line []byte) bool) error {
	if strings.HasSuffix(name, ".gz") {
		return ErrCompressed
	}
	f, err := d.open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("stat %s: %w", name, err)
	}
	return backward(f, fi.Size(), fn)
}

// backward walks r's first size bytes from the end. Two buffers take
// turns: the one holding the unfinished line (carry) of the last block and
// the one the next block is joined with it in.
func backward(r io.ReaderAt, size int64, fn func([]byte) bool) error {
	chunk := make([]byte, blockSize)
	bufs := [2][]byte{make([]byte, 0, 2*blockSize), make([]byte, 0, 2*blockSize)}
	var carry []byte
	turn := 0
	for pos := size; pos > 0; {
		n := int64(blockSize)
		if pos < n {
			n = pos
		}
		pos -= n
		if _, err := r.ReadAt(chunk[:n], pos); err != nil && err != io.EOF {
			return fmt.Errorf("read at %d: %w", pos, err)
		}
		data := append(append(bufs[turn][:0], chunk[:n]...), carry...)
		bufs[turn] = data[:0]
		turn = 1 - turn
		end := len(data)
		for i := end - 1; i >= 0; i-- {
			if data[i] != '\n' {
				continue
			}
			if !emit(data[i+1:end], fn) {
				return nil
			}
			end = i
		}
		carry = data[:end]
		if len(carry) > MaxLine { // an overlong line: keep its start, which the next block comes before
			carry = carry[:MaxLine]
		}
	}
	emit(carry, fn)
	return nil
}

func emit(line []byte, fn func([]byte) bool) bool {
	line = bytes.TrimSuffix(line, []byte{'\r'})
	line = line[:min(len(line), MaxLine)]
	if len(line) == 0 {
		return true
	}
	return fn(line)
}

// LineCount is the number of lines of a log file. The count of a plain
// file is remembered with the offset it reached, so asking again after the
// logger appended costs only the new bytes; a file that was replaced
// (rotation) or shrank is counted afresh.
func (d *Dir) LineCount(name string) (int, error) {
	if strings.HasSuffix(name, ".gz") {
		r, err := d.Open(name)
		if err != nil {
			return 0, err
		}
		defer r.Close()
		n, last, _, err := countLines(r)
		return n + unterminated(last), err
	}
	f, err := d.open(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, fmt.Errorf("stat %s: %w", name, err)
	}
	c, ok := d.lines.get(name)
	if !ok || !os.SameFile(c.id, fi) || fi.Size() < c.offset {
		c = lineCount{id: fi}
	}
	n, last, read, err := countLines(io.NewSectionReader(f, c.offset, fi.Size()-c.offset))
	if err != nil {
		return 0, fmt.Errorf("count the lines of %s: %w", name, err)
	}
	c.newlines += n
	c.offset += read
	d.lines.put(name, c)
	if read == 0 && c.offset > 0 { // nothing new: look at the last byte
		var b [1]byte
		if _, err := f.ReadAt(b[:], c.offset-1); err == nil {
			last = b[0]
		}
	}
	return c.newlines + unterminated(last), nil
}

// countLines counts newlines; last is the last byte read (0: none).
func countLines(r io.Reader) (newlines int, last byte, read int64, err error) {
	buf := make([]byte, 256<<10)
	for {
		n, rerr := r.Read(buf)
		if n > 0 {
			newlines += bytes.Count(buf[:n], []byte{'\n'})
			last = buf[n-1]
			read += int64(n)
		}
		if rerr == io.EOF {
			return newlines, last, read, nil
		}
		if rerr != nil {
			return newlines, last, read, rerr
		}
	}
}

// unterminated is 1 when the file's last line has no newline yet.
func unterminated(last byte) int {
	if last != 0 && last != '\n' {
		return 1
	}
	return 0
}
