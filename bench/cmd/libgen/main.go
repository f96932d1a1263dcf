// Command libgen writes a synthetic media library for benchmarks:
//
//	go run ./bench/cmd/libgen -root ./bench/out/library -n 100000
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"mediateka/bench/libgen"
)

func main() {
	root := flag.String("root", "", "folder to fill (created if needed)")
	n := flag.Int("n", 100000, "how many video files")
	seed := flag.Uint64("seed", 1, "random seed: the same seed makes the same library")
	flag.Parse()
	if *root == "" {
		fmt.Fprintln(os.Stderr, "libgen: -root is required")
		os.Exit(2)
	}
	start := time.Now()
	st, err := libgen.Generate(*root, *n, *seed)
	if err != nil {
		fmt.Fprintln(os.Stderr, "libgen:", err)
		os.Exit(1)
	}
	fmt.Printf("%d files (%d movies, %d series) in %d folders, %s\n", st.Files, st.Movies, st.Series, st.Folders, time.Since(start).Round(time.Millisecond))
}
