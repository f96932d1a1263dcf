// Command loginflood measures what many concurrent wrong logins do to a
// mediateka server on this machine (statuses, /healthz latency, RSS):
//
//	go run ./bench/cmd/loginflood -url http://127.0.0.1:3000 -n 400 -pid $(pidof mediateka)
//
// Only loopback addresses are accepted.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"mediateka/bench/loginflood"
	"mediateka/bench/measure"
)

func main() {
	base := flag.String("url", "http://127.0.0.1:3000", "server base URL (loopback only)")
	n := flag.Int("n", 400, fmt.Sprintf("concurrent wrong logins (at most %d)", loginflood.MaxRequests))
	email := flag.String("email", "admin@localhost", "e-mail to try")
	pid := flag.Int("pid", 0, "server process id, to sample its RSS")
	flag.Parse()
	res, err := loginflood.Run(context.Background(), loginflood.Config{BaseURL: *base, Requests: *n, Email: *email, PID: *pid})
	if err != nil {
		fmt.Fprintln(os.Stderr, "loginflood:", err)
		os.Exit(2)
	}
	fmt.Printf("requests %d in %s; statuses %v\n", *n, res.Elapsed.Round(time.Millisecond), res.Statuses)
	fmt.Printf("healthz during the flood: %d probes, p50 %s, max %s\n", len(res.Health),
		measure.Percentile(res.Health, 50).Round(time.Microsecond), measure.Percentile(res.Health, 100).Round(time.Microsecond))
	if *pid > 0 {
		fmt.Printf("server RSS: before %d MiB, peak %d MiB\n", res.RSSBeforeKiB/1024, res.RSSPeakKiB/1024)
	}
}
