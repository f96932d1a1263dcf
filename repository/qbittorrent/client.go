// Package qbittorrent is a small client of qBittorrent's WebUI API v2 on
// net/http: a cookie session that logs in again when the server forgets
// it, a deadline on every call, and the answers of qBittorrent 4.x and 5.x
// (state names, pause/resume renamed stop/start, "Ok."/"Fails." text or
// JSON on add) turned into domain types. A client that cannot be reached,
// does not answer in time or refuses the login is
// domain.ErrTorrentClientUnavailable; the password never leaves the login
// form.
package qbittorrent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"mediateka/domain"
)

// DefaultTimeout bounds each call when Config.Timeout is zero. It is also
// the promise of API.md §5: an unreachable client is a 503 within it.
const DefaultTimeout = 3 * time.Second

// maxAnswer bounds what is read of one answer (a list of many thousands of
// torrents fits easily).
const maxAnswer = 64 << 20

// Config says where the WebUI is and how to log in.
type Config struct {
	URL      string // http://127.0.0.1:8080, with or without a path prefix
	Username string
	Password string
	// Timeout bounds each call, the login included (DefaultTimeout when 0).
	Timeout time.Duration
}

// Client talks to one qBittorrent. It is safe for concurrent use: calls
// share one cookie session, and one login at a time renews it.
type Client struct {
	base    *url.URL
	http    *http.Client
	user    string
	pass    string
	timeout time.Duration

	loginMu sync.Mutex
	// session counts successful logins; 0 means never logged in. A call
	// remembers the session it was sent with, so a burst of 403s after a
	// restart of qBittorrent logs in once, not once per call.
	session atomic.Uint64
	// legacy is set once the server answered 404 to a 5.x verb (stop,
	// start): it is 4.x, which says pause and resume.
	legacy atomic.Bool
}

// New builds a client; it does not connect until the first call.
func New(cfg Config) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(cfg.URL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("torrent client url %q must be an http(s) URL", cfg.URL)
	}
	jar, _ := cookiejar.New(nil) // never fails without options
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	tr := &http.Transport{
		// The client is on the local network: no proxy from the
		// environment between us and it.
		Proxy:                 nil,
		DialContext:           (&net.Dialer{Timeout: timeout}).DialContext,
		TLSHandshakeTimeout:   timeout,
		ResponseHeaderTimeout: timeout,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
	}
	return &Client{base: u, http: &http.Client{Jar: jar, Transport: tr}, user: cfg.Username,
		pass: cfg.Password, timeout: timeout}, nil
}

// Close drops the idle connections.
func (c *Client) Close() { c.http.CloseIdleConnections() }

// statusError is an answer other than 200 or 202; the exported methods turn
// it into a domain error.
type statusError struct {
	path   string
	status int
	body   string
}

func (e *statusError) Error() string {
	return fmt.Sprintf("qbittorrent %s answered %d %s", e.path, e.status, e.body)
}

// hasStatus reports whether err is an answer with the given status.
func hasStatus(err error, status int) bool {
	var se *statusError
	return errors.As(err, &se) && se.status == status
}

// request is one call: the API path (below /api/v2) and a body builder, so
// a retry after a fresh login can rebuild the body.
type request struct {
	method string
	path   string
	query  url.Values
	body   func() (io.Reader, string) // nil: no body; else reader and content type
}

// do sends r with the session, logging in first when there is none and
// once more when the server answers 403 (its session expired or it
// restarted), and returns the body of a 200 or 202 answer.
func (c *Client) do(ctx context.Context, r request) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	sess := c.session.Load()
	if sess == 0 {
		if err := c.login(ctx, 0); err != nil {
			return nil, err
		}
		sess = c.session.Load()
	}
	body, err := c.send(ctx, r)
	if !hasStatus(err, http.StatusForbidden) {
		return body, err
	}
	if err := c.login(ctx, sess); err != nil {
		return nil, err
	}
	body, err = c.send(ctx, r)
	if hasStatus(err, http.StatusForbidden) {
		return nil, domain.ErrTorrentClientUnavailable.Wrap(err)
	}
	return body, err
}

// send makes one HTTP exchange. A transport failure (refused, timed out)
// is ErrTorrentClientUnavailable.
func (c *Client) send(ctx context.Context, r request) ([]byte, error) {
	u := c.base.JoinPath("api", "v2", r.path)
	u.RawQuery = r.query.Encode()
	var rd io.Reader
	var ctype string
	if r.body != nil {
		rd, ctype = r.body()
	}
	req, err := http.NewRequestWithContext(ctx, r.method, u.String(), rd)
	if err != nil {
		return nil, fmt.Errorf("qbittorrent %s: %w", r.path, err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, domain.ErrTorrentClientUnavailable.Wrap(fmt.Errorf("qbittorrent %s: %w", r.path, redact(err)))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return nil, domain.ErrTorrentClientUnavailable.Wrap(fmt.Errorf("qbittorrent %s: read answer: %w", r.path, err))
	}
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusAccepted {
		return nil, &statusError{path: r.path, status: resp.StatusCode, body: strings.TrimSpace(string(body))}
	}
	return body, nil
}

// redact drops the URL (which never holds the password, but may hold a
// user-info part someone put into torrent_client.url) from a transport
// error, keeping its cause.
func redact(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s: %w", ue.Op, ue.Err)
	}
	return err
}

// login renews the session unless another call already did since stale.
// qBittorrent answers "Ok." or "Fails." with status 200, and 403 to an
// address it has banned after too many failures: all but "Ok." are
// ErrTorrentClientUnavailable.
func (c *Client) login(ctx context.Context, stale uint64) error {
	c.loginMu.Lock()
	defer c.loginMu.Unlock()
	if c.session.Load() != stale {
		return nil
	}
	form := url.Values{"username": {c.user}, "password": {c.pass}}
	body, err := c.send(ctx, postForm("auth/login", form))
	if err != nil {
		if domain.IsKind(err, domain.KindUnavailable) {
			return err
		}
		return domain.ErrTorrentClientUnavailable.Wrap(fmt.Errorf("login: %w", err))
	}
	if strings.TrimSpace(string(body)) != "Ok." {
		return domain.ErrTorrentClientUnavailable.Wrap(fmt.Errorf("login as %q refused: %q", c.user, strings.TrimSpace(string(body))))
	}
	c.session.Add(1)
	return nil
}

// postForm is a POST with an url-encoded form.
func postForm(path string, form url.Values) request {
	return request{method: http.MethodPost, path: path, body: func() (io.Reader, string) {
		return strings.NewReader(form.Encode()), "application/x-www-form-urlencoded"
	}}
}

// get is a GET with a query.
func get(path string, query url.Values) request {
	return request{method: http.MethodGet, path: path, query: query}
}

// fail turns what do returned into the domain error of op: unknown torrent
// (404) is NotFound, a 409 is a Conflict, any other answer means the
// client is not working as it should and counts as unavailable.
func fail(op string, err error) error {
	var se *statusError
	if !errors.As(err, &se) {
		return err
	}
	switch se.status {
	case http.StatusNotFound:
		return domain.ErrNotFound("torrent").Wrap(err)
	case http.StatusConflict:
		return domain.NewError(domain.KindConflict, "torrent_client_conflict", op+": "+se.body).Wrap(err)
	}
	return domain.ErrTorrentClientUnavailable.Wrap(fmt.Errorf("%s: %w", op, err))
}
