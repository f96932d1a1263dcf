package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"mediateka/app"
	"mediateka/domain"
	"mediateka/usecase/rag"
)

// ragCmd runs `mediateka rag build`: the semantic index is brought up to
// date against the server's database, with a progress bar of the entries
// indexed on standard error (unless --quiet) and a summary on standard
// output. Ctrl-C cancels it; the vectors written stay, and the next build
// embeds only what is still missing.
func ragCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "build" {
		fmt.Fprintln(stderr, "usage: mediateka rag build [--config PATH] [--quiet]")
		return exitUsage
	}
	fs := flag.NewFlagSet("rag build", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("config", "./config.json", "path of config.json")
	quiet := fs.Bool("quiet", false, "no progress bar")
	if fs.Parse(args[1:]) != nil {
		return exitUsage
	}
	cfg, _, ok := loadConfig(*path, stderr)
	if !ok {
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	bar := newProgressBar(stderr, *quiet, "indexing", "entries")
	st, err := app.BuildRAG(ctx, cfg, nil, 100*time.Millisecond, func(st rag.Status) {
		if st.Total > 0 {
			bar.ChangeMax(st.Total)
		}
		_ = bar.Set(st.Indexed)
	})
	_ = bar.Finish()
	if !*quiet {
		fmt.Fprintln(stderr)
	}
	if err != nil && st.State == "" {
		fmt.Fprintln(stderr, "mediateka:", describe(err))
		return exitFailed
	}
	return printRAG(stdout, stderr, st)
}

// printRAG prints a build's summary and returns the exit code.
func printRAG(stdout, stderr io.Writer, st rag.Status) int {
	fmt.Fprintf(stdout, "rag build %s: %d of %d entries indexed, %d embedded, %s %s %d dimensions\n", st.State,
		st.Indexed, st.Total, st.Embedded, st.Provider, st.Model, st.Dimensions)
	if st.Failure != "" {
		fmt.Fprintln(stderr, "mediateka:", st.Failure)
	}
	if st.State != domain.JobCompleted {
		return exitFailed
	}
	return 0
}
