// Package measure holds what the load tools under bench/ (and the tests
// that play a stalled client) share: the loopback-only check of a target
// address, a process's resident memory read from /proc, percentiles of
// latencies, and a dialer for a client that stops reading.
package measure

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Loopback checks that base is an http:// URL of a loopback address: the
// tools measure a server on this machine and refuse to aim at another.
func Loopback(base string) error {
	u, err := url.Parse(base)
	if err != nil || u.Scheme != "http" {
		return fmt.Errorf("base URL %q must be http://127.0.0.1:PORT", base)
	}
	ip := net.ParseIP(u.Hostname())
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("base URL %q: only loopback addresses are allowed", base)
	}
	return nil
}

// RSSKiB reads VmRSS of pid from /proc; 0 when unknown.
func RSSKiB(pid int) int64 {
	if pid <= 0 {
		return 0
	}
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

// Percentile returns the p-th percentile (0..100) of d; 0 for no data.
func Percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p/100))]
}

// StallingDial dials with a 4 KiB receive buffer. A client that then stops
// reading stalls the server's writes after a few megabytes on loopback
// (about 3 MB here) instead of the twice as many a default buffer takes:
// the way to play a phone that went to sleep mid-stream.
func StallingDial(ctx context.Context, network, addr string) (net.Conn, error) {
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) { serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
		return errors.Join(err, serr)
	}}
	return d.DialContext(ctx, network, addr)
}
