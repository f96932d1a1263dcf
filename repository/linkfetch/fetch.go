// Package linkfetch downloads the .torrent file behind a link a person
// (or an indexer's search result) gave the server, without letting that
// link turn the server against itself or its cloud: http(s) only, a size
// cap, a deadline, a few redirects and only to http(s), never a connection
// to a link-local address (169.254.0.0/16 — the cloud metadata service —
// fe80::/10, or another cloud's metadata address), and a connection to a
// loopback or LAN address only when the caller allows it (Jackett and
// Prowlarr serve their download links from there; a link anybody pasted
// must not probe the LAN). The address check runs in the dialer on the
// address actually dialled, after DNS, so a name that resolves
// differently the second time (DNS rebinding) cannot slip past it.
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
	"slices"
	"syscall"
	"time"

	"mediateka/domain"
	"mediateka/repository/httperr"
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

// Fetcher downloads torrent links. It is safe for concurrent use. It has
// one client that may reach the LAN and one that may not, each with its
// own connection pool: a kept-alive connection to a LAN address is never
// reused by a fetch that may not dial it.
type Fetcher struct {
	public  *http.Client
	lan     *http.Client
	max     int64
	timeout time.Duration
}

var (
	errLinkLocal    = errors.New("link-local address")
	errLAN          = errors.New("loopback or LAN address")
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
	return &Fetcher{public: newClient(opt, false), lan: newClient(opt, true), max: opt.MaxBytes, timeout: opt.Timeout}
}

// newClient builds a client whose dialer refuses forbidden addresses and,
// unless lan, loopback and LAN ones.
func newClient(opt Options, lan bool) *http.Client {
	dialer := &net.Dialer{Timeout: opt.Timeout, Control: func(_, address string, _ syscall.RawConn) error {
		return refuse(address, lan)
	}}
	tr := &http.Transport{Proxy: nil, DialContext: dialer.DialContext, TLSHandshakeTimeout: opt.Timeout,
		ResponseHeaderTimeout: opt.Timeout, MaxIdleConns: 4, IdleConnTimeout: 30 * time.Second}
	max := opt.MaxRedirects
	return &http.Client{Transport: tr, CheckRedirect: func(req *http.Request, via []*http.Request) error {
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
}

// refuse is the dialer's check of the resolved address about to be
// connected to.
func refuse(address string, lan bool) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return err
	}
	switch {
	case Forbidden(ip):
		return fmt.Errorf("%w %s", errLinkLocal, ip)
	case !lan && Local(ip):
		return fmt.Errorf("%w %s", errLAN, ip)
	}
	return nil
}

// metadataAddrs are cloud metadata services outside 169.254.0.0/16:
// AWS's IPv6 one (Nitro) and Alibaba Cloud's.
var metadataAddrs = []netip.Addr{netip.MustParseAddr("fd00:ec2::254"), netip.MustParseAddr("100.100.100.200")}

// Forbidden reports whether the fetcher never connects to ip: link-local
// unicast (IPv4 and IPv6, also as an IPv4-mapped IPv6 address), the cloud
// metadata addresses outside it, multicast and the unspecified address.
func Forbidden(ip netip.Addr) bool {
	ip = ip.Unmap()
	return ip.IsLinkLocalUnicast() || ip.IsMulticast() || ip.IsUnspecified() || ip.IsLinkLocalMulticast() ||
		slices.Contains(metadataAddrs, ip)
}

// sharedSpace is RFC 6598's carrier-grade NAT range, where VPN meshes
// (Tailscale) put their hosts: the LAN as far as a fetch is concerned.
var sharedSpace = netip.MustParsePrefix("100.64.0.0/10")

// Local reports whether ip is this machine or the LAN: loopback, the
// private ranges (10/8, 172.16/12, 192.168/16, fc00::/7) and 100.64/10.
// Only a fetch that allows the LAN connects there.
func Local(ip netip.Addr) bool {
	ip = ip.Unmap()
	return ip.IsLoopback() || ip.IsPrivate() || sharedSpace.Contains(ip)
}

// Fetch downloads link; lan allows loopback and LAN addresses (an
// indexer's link, or an administrator's). When the server redirects to a
// magnet link, that link comes back in magnet and body is nil. Every
// failure is domain.ErrInvalidTorrentLink with the reason.
func (f *Fetcher) Fetch(ctx context.Context, link string, lan bool) (body []byte, magnet string, err error) {
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
	client := f.public
	if lan {
		client = f.lan
	}
	resp, err := client.Do(req)
	if err != nil {
		var m *magnetRedirect
		if errors.As(err, &m) {
			return nil, m.link, nil
		}
		return nil, "", f.reason(httperr.Redact(err))
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
		return nil, "", f.reason(httperr.Redact(err))
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
		return domain.ErrInvalidTorrentLink("link-local and cloud metadata addresses (169.254.0.0/16, fe80::/10) are not allowed").Wrap(err)
	case errors.Is(err, errLAN):
		return domain.ErrInvalidTorrentLink("loopback and LAN addresses are allowed only for the indexers' links").Wrap(err)
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
