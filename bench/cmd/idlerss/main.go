// Command idlerss starts a mediateka binary on loopback and prints the
// memory it holds at rest after it starts and after each request:
//
//	go build -o mediateka ./cmd/mediateka
//	go run ./bench/cmd/idlerss -bin ./mediateka -data "$(mktemp -d)/data"
//	go run ./bench/cmd/idlerss -bin ./mediateka -data /tmp/lib100k/data -library ./bench/out/library -scan \
//		-do login -do 'GET /api/media/files?limit=50' -do 'POST /api/media/by-title {"title":"матрица"}'
//
// A data folder without a database is a first start. -scan fills a new
// database from -library with `mediateka scan` before the server starts.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"mediateka/bench/idlerss"
)

// steps collects repeated -do flags.
type steps []string

func (s *steps) String() string     { return strings.Join(*s, "; ") }
func (s *steps) Set(v string) error { *s = append(*s, v); return nil }

func main() {
	var cfg idlerss.Config
	var do steps
	flag.StringVar(&cfg.Binary, "bin", "./mediateka", "mediateka executable")
	flag.StringVar(&cfg.DataDir, "data", "", "data folder (required; without a database: a first start)")
	flag.StringVar(&cfg.Library, "library", "", "library folder for search_dirs.json")
	flag.BoolVar(&cfg.Scan, "scan", false, "scan -library into a new database before serving")
	flag.DurationVar(&cfg.Settle, "settle", 3*time.Second, "rest before each reading")
	flag.Var(&do, "do", `after the first reading: "login", "GET /path" or "POST /path {json}" (repeatable)`)
	verbose := flag.Bool("v", false, "show the server's log")
	flag.Parse()
	if cfg.DataDir == "" {
		fmt.Fprintln(os.Stderr, "idlerss: -data is required")
		os.Exit(2)
	}
	cfg.Requests, cfg.Log = do, io.Discard
	if *verbose {
		cfg.Log = os.Stderr
	}
	readings, err := idlerss.Run(context.Background(), cfg)
	for _, r := range readings {
		fmt.Printf("%-60s VmRSS %5.1f MiB  (anon %5.1f, file %5.1f)\n", r.Step, mib(r.RSS), mib(r.Anon), mib(r.File))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "idlerss:", err)
		os.Exit(1)
	}
}

func mib(kib int64) float64 { return float64(kib) / 1024 }
