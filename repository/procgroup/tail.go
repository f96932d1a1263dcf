package procgroup

import (
	"strings"
	"sync"
)

// TailSize is how much of a program's error output a Tail keeps: enough
// for ffmpeg's or espeak-ng's last complaint, bounded however much a
// broken run prints.
const TailSize = 4 << 10

// Tail keeps the last TailSize bytes written to it: a program's stderr,
// told in the error or log line when the program fails. Safe for
// concurrent use.
type Tail struct {
	mu  sync.Mutex
	buf []byte
}

// Write keeps the end of p and of what came before it.
func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - TailSize; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// String is what was kept, without surrounding blank space.
func (t *Tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}
