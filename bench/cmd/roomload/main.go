// Command roomload loads a mediateka server's rooms from this machine and
// reports delivered/sent, the remote→player latency and the server's RSS:
//
//	go run ./bench/cmd/roomload -rooms 1000 -rate 5000 -duration 30s
//	go run ./bench/cmd/roomload -rooms 1000 -rate 5000 -duration 30s -stall
//	go run ./bench/cmd/roomload -url http://127.0.0.1:3000 -pid $(pidof mediateka) -rooms 100 -rate 500 -duration 5s
//
// Without -url it starts a server of its own, with an empty data folder,
// as a child process (this same program), so the memory it reports is the
// server's alone and not the load's. Only loopback addresses are accepted.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"mediateka/app"
	"mediateka/bench/measure"
	"mediateka/bench/roomload"
	"mediateka/config"
)

// serveEnv marks the child process that runs the server.
const serveEnv = "ROOMLOAD_SERVE"

func main() {
	if os.Getenv(serveEnv) != "" {
		if err := serve(); err != nil {
			fmt.Fprintln(os.Stderr, "roomload server:", err)
			os.Exit(1)
		}
		return
	}
	cfg := roomload.Config{}
	flag.StringVar(&cfg.BaseURL, "url", "", "server base URL, loopback only (empty: start a server of its own)")
	flag.IntVar(&cfg.PID, "pid", 0, "with -url: the server's process id, to sample its RSS")
	flag.IntVar(&cfg.Rooms, "rooms", 100, "rooms, each with one player and one remote")
	flag.IntVar(&cfg.Rate, "rate", 500, "seek commands a second, all rooms together (at most 20 a room)")
	flag.DurationVar(&cfg.Duration, "duration", 5*time.Second, "how long to send")
	flag.BoolVar(&cfg.Stall, "stall", false, "add a remote that never reads to the first room")
	flag.Parse()
	if cfg.BaseURL == "" {
		base, pid, stop, err := startServer()
		if err != nil {
			fmt.Fprintln(os.Stderr, "roomload:", err)
			os.Exit(1)
		}
		defer stop()
		cfg.BaseURL, cfg.PID = base, pid
	}
	res, err := roomload.Run(context.Background(), cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "roomload:", err)
		os.Exit(2)
	}
	report(cfg, res)
}

func report(cfg roomload.Config, res roomload.Result) {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }
	fmt.Printf("rooms %d × (player + remote), %d commands/s for %s, stall %v\n", cfg.Rooms, cfg.Rate, cfg.Duration, cfg.Stall)
	fmt.Printf("connected in %s\n", res.Connect.Round(time.Millisecond))
	pct := 0.0
	if res.Sent > 0 {
		pct = 100 * float64(res.Delivered) / float64(res.Sent)
	}
	fmt.Printf("delivered/sent %d/%d (%.3f %%), lost %d\n", res.Delivered, res.Sent, pct, res.Sent-res.Delivered)
	fmt.Printf("latency remote→player: p50 %s, p99 %s, max %s\n", ms(measure.Percentile(res.Latency, 50)),
		ms(measure.Percentile(res.Latency, 99)), ms(measure.Percentile(res.Latency, 100)))
	fmt.Printf("  all rooms but the first: p50 %s, p99 %s\n", ms(measure.Percentile(res.Others, 50)), ms(measure.Percentile(res.Others, 99)))
	fmt.Printf("error events at remotes: %v; connections the server dropped: %d\n", res.Errors, res.Dropped)
	if cfg.PID > 0 {
		fmt.Printf("server RSS: idle %d MiB, connected %d MiB, peak during the load %d MiB\n",
			res.RSSIdleKiB/1024, res.RSSConnectedKiB/1024, res.RSSPeakKiB/1024)
	}
	if cfg.Stall {
		if res.StalledDropped > 0 {
			fmt.Printf("stalled remote: dropped by the server %s after it began to receive\n", res.StalledDropped.Round(10*time.Millisecond))
		} else {
			fmt.Println("stalled remote: not dropped during the run")
		}
	}
}

// startServer runs this program as the server in a child process and
// returns its base URL, its process id and a function that stops it.
func startServer() (string, int, func(), error) {
	self, err := os.Executable()
	if err != nil {
		return "", 0, nil, err
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), serveEnv+"=1")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return "", 0, nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", 0, nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", 0, nil, err
	}
	stop := func() {
		_ = stdin.Close() // the child ends when its standard input closes
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		stop()
		return "", 0, nil, fmt.Errorf("the server did not start: %w", err)
	}
	return "http://" + strings.TrimSpace(line), cmd.Process.Pid, stop, nil
}

// serve is the child: a mediateka on 127.0.0.1 with a fresh data folder,
// until its standard input closes or it is told to stop.
func serve() error {
	dir, err := os.MkdirTemp("", "roomload-server-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	env := map[string]string{"MEDIATEKA_DATA_DIR": filepath.Join(dir, "data"), "MEDIATEKA_LOG__LEVEL": "warn"}
	cfg, warnings, err := config.Load(filepath.Join(dir, "config.json"), func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); stop() }()
	a, err := app.New(ctx, cfg, app.Options{Version: "roomload", Warnings: warnings})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		a.Close()
		return err
	}
	fmt.Println(ln.Addr().String())
	return a.Run(ctx, ln)
}
