// Package measure holds what the load tools under bench/ share: the
// loopback-only check of a target address, a process's resident memory
// read from /proc, and percentiles of latencies.
package measure

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
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
