// Package linkfetch downloads the .torrent file behind a link a person
// (or an indexer's search result) gave the server, without letting that
// link turn the server against itself or its cloud: http(s) only, a size
// cap, a deadline, a few redirects and only to http(s), and no connection
// to a link-local address (169.254.0.0/16 — the cloud metadata service —
// and fe80::/10). The address check runs in the dialer on the address
// actually dialled, after DNS, so a name that resolves differently the
// second time (DNS rebinding) cannot slip past it. Loopback and private
// LAN addresses stay allowed: Jackett and Prowlarr serve their download
// links from there.
package linkfetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"

	"mediateka/domain"
)

// Defaults of Options.
const (
	DefaultMaxBytes     = 5 << 20
	DefaultTimeout      = 20 * time.Second
	DefaultMaxRedirects = 3
)

// Options bound one fetch; zero values take the defaults.
type Options struct {
	MaxBytes     int64
	Timeout      time.Duration
	MaxRedirects int
}

// Fetcher downloads torrent links. It is safe for concurrent use.
type Fetcher struct {
	client  *http.Client
	max     int64
	timeout time.Duration
}

var (
	errLinkLocal    = errors.New("link-local address")
	errTooMany      = errors.New("too many redirects")
	errBadRedirect  = errors.New("redirect to a link that is not http(s)")
	errSchemeDenied = errors.New("not an http(s) link")
)

// magnetRedirect stops the redirects at a magnet link, which indexers
// answer for results that have no .torrent file.
type magnetRedirect struct{ link string }

func (m *magnetRedirect) Error() string { return "redirected to a magnet link" }

// New builds a fetcher with its own transport: no proxy from the
// environment (a proxy would dial on our behalf, past the address check).
func New(opt Options) *Fetcher {
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = DefaultMaxBytes
	}
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultTimeout
	}
	if opt.MaxRedirects <= 0 {
		opt.MaxRedirects = DefaultMaxRedirects
	}
	dialer := &net.Dialer{Timeout: opt.Timeout, Control: refuseLinkLocal}
	tr := &http.Transport{Proxy: nil, DialContext: dialer.DialContext, TLSHandshakeTimeout: opt.Timeout,
		ResponseHeaderTimeout: opt.Timeout, MaxIdleConns: 4, IdleConnTimeout: 30 * time.Second}
	max := opt.MaxRedirects
	client := &http.Client{Transport: tr, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		switch {
		case req.URL.Scheme == "magnet":
			return &magnetRedirect{link: req.URL.String()}
		case req.URL.Scheme != "http" && req.URL.Scheme != "https":
			return errBadRedirect
		case len(via) > max:
			return errTooMany
		}
		return nil
	}}
	return &Fetcher{client: client, max: opt.MaxBytes, timeout: opt.Timeout}
}

// refuseLinkLocal is the dialer's Control: it sees the resolved address
// about to be connected to.
func refuseLinkLocal(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return err
	}
	if Forbidden(ip) {
		return fmt.Errorf("%w %s", errLinkLocal, ip)
	}
	return nil
}

// Forbidden reports whether the fetcher refuses to connect to ip:
// link-local unicast (IPv4 and IPv6, also as an IPv4-mapped IPv6
// address), multicast and the unspecified address.
func Forbidden(ip netip.Addr) bool {
	ip = ip.Unmap()
	return ip.IsLinkLocalUnicast() || ip.IsMulticast() || ip.IsUnspecified() || ip.IsLinkLocalMulticast()
}

// Fetch downloads link. When the server redirects to a magnet link, that
// link comes back in magnet and body is nil. Every failure is
// domain.ErrInvalidTorrentLink with the reason.
func (f *Fetcher) Fetch(ctx context.Context, link string) (body []byte, magnet string, err error) {
	u, err := url.Parse(link)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, "", domain.ErrInvalidTorrentLink("only http(s) links can be fetched").Wrap(errSchemeDenied)
	}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, "", domain.ErrInvalidTorrentLink("the link is malformed").Wrap(err)
	}
	req.Header.Set("Accept", "application/x-bittorrent, */*;q=0.5")
	resp, err := f.client.Do(req)
	if err != nil {
		var m *magnetRedirect
		if errors.As(err, &m) {
			return nil, m.link, nil
		}
		return nil, "", f.reason(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, "", domain.ErrInvalidTorrentLink(fmt.Sprintf("the server answered %d", resp.StatusCode))
	}
	if resp.ContentLength > f.max {
		return nil, "", f.tooLarge()
	}
	body, err = io.ReadAll(io.LimitReader(resp.Body, f.max+1))
	if err != nil {
		return nil, "", f.reason(err)
	}
	if int64(len(body)) > f.max {
		return nil, "", f.tooLarge()
	}
	return body, "", nil
}

func (f *Fetcher) tooLarge() error {
	return domain.ErrInvalidTorrentLink(fmt.Sprintf("the file is larger than %s", mib(f.max)))
}

// reason turns a transport failure into the sentence a person sees.
func (f *Fetcher) reason(err error) error {
	var ne net.Error
	switch {
	case errors.Is(err, errLinkLocal):
		return domain.ErrInvalidTorrentLink("link-local addresses (169.254.0.0/16, fe80::/10) are not allowed").Wrap(err)
	case errors.Is(err, errTooMany):
		return domain.ErrInvalidTorrentLink("too many redirects").Wrap(err)
	case errors.Is(err, errBadRedirect):
		return domain.ErrInvalidTorrentLink("it redirects to a link that is not http(s)").Wrap(err)
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		return domain.ErrInvalidTorrentLink(fmt.Sprintf("the server did not answer within %s", f.timeout)).Wrap(err)
	}
	return domain.ErrInvalidTorrentLink("the server cannot be reached").Wrap(err)
}

// mib writes a byte count as "5 MiB" (or bytes below one MiB).
func mib(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
