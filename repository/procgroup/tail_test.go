package procgroup

import (
	"strings"
	"testing"
)

// A Tail keeps only the end of a long error output, without its blank
// edges.
func TestTailKeepsTheEnd(t *testing.T) {
	var tl Tail
	_, _ = tl.Write([]byte(strings.Repeat("x", TailSize)))
	_, _ = tl.Write([]byte("\nUnknown encoder 'libopus'\n"))
	got := tl.String()
	if len(got) > TailSize || !strings.HasSuffix(got, "Unknown encoder 'libopus'") {
		t.Fatalf("kept %d bytes ending %q", len(got), got[max(0, len(got)-30):])
	}
}
