package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"mediateka/app"
	"mediateka/domain"
	"mediateka/usecase/library"
)

// pathList collects a repeatable --path flag.
type pathList []string

// String implements flag.Value.
func (p *pathList) String() string { return strings.Join(*p, ",") }

// Set implements flag.Value: each --path adds one.
func (p *pathList) Set(v string) error { *p = append(*p, v); return nil }

// scanCmd runs one library scan against the server's database, with a
// progress bar on standard error (unless --quiet) and a summary on
// standard output. Ctrl-C cancels it; what was written stays, and the next
// scan completes the work. A relative --path is taken from the current
// folder, as a shell user expects.
func scanCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("scan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("config", "./config.json", "path of config.json (search_dirs.json sits beside it)")
	var paths pathList
	fs.Var(&paths, "path", "scan only this folder or video file inside the library (repeatable)")
	disk := fs.String("disk", "", "scan only the library folders of this disk")
	quiet := fs.Bool("quiet", false, "no progress bar")
	if fs.Parse(args) != nil {
		return exitUsage
	}
	cfg, _, ok := loadConfig(*path, stderr)
	if !ok {
		return exitUsage
	}
	for i, p := range paths {
		if abs, err := filepath.Abs(p); err == nil && p != "" {
			paths[i] = abs
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	bar := newProgressBar(stderr, *quiet, "scanning", "files")
	st, err := app.Scan(ctx, cfg, library.ScanRequest{Paths: paths, Disk: *disk}, 100*time.Millisecond, func(st library.Status) {
		_ = bar.Set(st.FilesSeen)
	})
	_ = bar.Finish()
	if !*quiet {
		fmt.Fprintln(stderr)
	}
	if err != nil && st.State == "" {
		fmt.Fprintln(stderr, "mediateka:", describe(err))
		if domain.IsKind(err, domain.KindInvalid) || errors.Is(err, domain.ErrNoRoots) {
			return exitUsage
		}
		return exitFailed
	}
	printScan(stdout, stderr, st)
	if st.State != library.StateCompleted {
		return exitFailed
	}
	return 0
}

func printScan(stdout, stderr io.Writer, st library.Status) {
	fmt.Fprintf(stdout, "scan %s: %d files seen, %d added, %d updated, %d missing, %d errors (%s)\n", st.State,
		st.FilesSeen, st.Added, st.Updated, st.Missing, st.ErrorCount, st.FinishedAt.Sub(st.StartedAt).Round(time.Millisecond))
	for _, e := range st.Errors {
		fmt.Fprintf(stderr, "  %s: %s\n", e.Path, e.Error)
	}
	if st.ErrorCount > len(st.Errors) {
		fmt.Fprintf(stderr, "  … and %d more\n", st.ErrorCount-len(st.Errors))
	}
	if st.Failure != "" {
		fmt.Fprintln(stderr, "mediateka:", st.Failure)
	}
}
