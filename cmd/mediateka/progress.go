package main

import (
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// newProgressBar is the bar of the long commands (scan, rag build): a
// count of unit with its rate, on w, hidden when quiet. The total is
// unknown at first (a spinner; ChangeMax gives it one later).
//
// The spinner turns on each update (every 100 ms from the commands'
// callbacks), not on the library's own timer: that timer's goroutine
// reads the bar's state without its lock (progressbar v3.19.1), a data
// race the race detector reports.
func newProgressBar(w io.Writer, quiet bool, description, unit string) *progressbar.ProgressBar {
	return progressbar.NewOptions(-1, progressbar.OptionSetWriter(w), progressbar.OptionSetVisibility(!quiet),
		progressbar.OptionSetDescription(description), progressbar.OptionShowCount(), progressbar.OptionSetItsString(unit),
		progressbar.OptionShowIts(), progressbar.OptionSpinnerType(14), progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetSpinnerChangeInterval(0))
}
