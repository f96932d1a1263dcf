package qbittorrent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"time"

	"mediateka/domain"
)

// infoJSON is one torrent of /torrents/info, the fields we read.
type infoJSON struct {
	Hash     string  `json:"hash"`
	Name     string  `json:"name"`
	State    string  `json:"state"`
	Progress float64 `json:"progress"`
	Size     int64   `json:"size"`
	Category string  `json:"category"`
	SavePath string  `json:"save_path"`
	Content  string  `json:"content_path"`
	AddedOn  int64   `json:"added_on"`
	ETA      int64   `json:"eta"`
	DLSpeed  int64   `json:"dlspeed"`
}

// infiniteETA is qBittorrent's "never" (100 days, in seconds).
const infiniteETA = 8640000

func (t infoJSON) domain() domain.Torrent {
	out := domain.Torrent{Hash: strings.ToLower(t.Hash), Name: t.Name, State: MapState(t.State),
		ClientState: t.State, Progress: t.Progress, Size: t.Size, Category: t.Category,
		SavePath: t.SavePath, ContentPath: t.Content, DownloadSpeed: t.DLSpeed}
	if t.AddedOn > 0 {
		out.AddedOn = time.Unix(t.AddedOn, 0).UTC()
	}
	if t.ETA > 0 && t.ETA < infiniteETA {
		out.ETA = time.Duration(t.ETA) * time.Second
	}
	return out
}

// List returns the torrents, all of them when hashes is empty, else those
// with these info-hashes (unknown ones are left out).
func (c *Client) List(ctx context.Context, hashes ...string) ([]domain.Torrent, error) {
	q := url.Values{}
	if len(hashes) > 0 {
		q.Set("hashes", strings.Join(hashes, "|"))
	}
	body, err := c.do(ctx, get("torrents/info", q))
	if err != nil {
		return nil, fail("list torrents", err)
	}
	var raw []infoJSON
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, domain.ErrTorrentClientUnavailable.Wrap(fmt.Errorf("list torrents: %w", err))
	}
	out := make([]domain.Torrent, 0, len(raw))
	for _, t := range raw {
		out = append(out, t.domain())
	}
	return out, nil
}

// Add adds a magnet (or any link the client fetches itself) or a .torrent
// file. The client's refusal — a duplicate, or bytes that are not a
// torrent (415) — is domain.ErrTorrentRefused; 5.x may also answer 409 for a
// duplicate, which is domain Conflict.
func (c *Client) Add(ctx context.Context, a domain.TorrentAdd) error {
	if (a.URL == "") == (len(a.File) == 0) {
		return fmt.Errorf("add torrent: exactly one of a link and a file is needed")
	}
	body, err := c.do(ctx, request{method: http.MethodPost, path: "torrents/add", body: addForm(a)})
	if hasStatus(err, http.StatusUnsupportedMediaType) { // not a torrent file
		return domain.ErrTorrentRefused.Wrap(err)
	}
	if err != nil {
		return fail("add torrent", err)
	}
	if !addAccepted(body) {
		return domain.ErrTorrentRefused.Wrap(fmt.Errorf("qbittorrent answered %q", strings.TrimSpace(string(body))))
	}
	return nil
}

// addForm builds the multipart form of /torrents/add. Both paused (4.x)
// and stopped (5.x) are sent: each version ignores the other's word.
func addForm(a domain.TorrentAdd) func() (io.Reader, string) {
	return func() (io.Reader, string) {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		field := func(k, v string) {
			if v != "" {
				_ = w.WriteField(k, v) // writes to a bytes.Buffer do not fail
			}
		}
		field("urls", a.URL)
		if len(a.File) > 0 {
			part, _ := w.CreateFormFile("torrents", "upload.torrent")
			_, _ = part.Write(a.File)
		}
		field("category", a.Category)
		field("savepath", a.SavePath)
		if a.Paused {
			field("paused", "true")
			field("stopped", "true")
		}
		_ = w.Close()
		return &buf, w.FormDataContentType()
	}
}

// addAccepted reads the answer of /torrents/add: "Ok." (4.x), or 5.x's
// JSON counts, where nothing added, nothing pending and a failure is a
// refusal.
func addAccepted(body []byte) bool {
	s := strings.TrimSpace(string(body))
	if s == "Ok." || s == "" {
		return true
	}
	var counts struct {
		Success int `json:"success_count"`
		Failure int `json:"failure_count"`
		Pending int `json:"pending_count"`
	}
	if strings.HasPrefix(s, "{") && json.Unmarshal(body, &counts) == nil {
		return counts.Success > 0 || counts.Pending > 0 || counts.Failure == 0
	}
	return false
}

// SetLocation moves the torrents' files to dir (the client moves them).
func (c *Client) SetLocation(ctx context.Context, dir string, hashes ...string) error {
	return c.action(ctx, "set location", "torrents/setLocation", url.Values{"location": {dir}}, hashes)
}

// Recheck verifies the torrents' data on disk.
func (c *Client) Recheck(ctx context.Context, hashes ...string) error {
	return c.action(ctx, "recheck", "torrents/recheck", nil, hashes)
}

// SetCategory files the torrents under category ("" removes it). The
// category must exist (CreateCategory).
func (c *Client) SetCategory(ctx context.Context, category string, hashes ...string) error {
	return c.action(ctx, "set category", "torrents/setCategory", url.Values{"category": {category}}, hashes)
}

// CreateCategory creates a category; one that exists already is fine.
// savePath may be empty (the client's default).
func (c *Client) CreateCategory(ctx context.Context, name, savePath string) error {
	form := url.Values{"category": {name}, "savePath": {savePath}}
	_, err := c.do(ctx, postForm("torrents/createCategory", form))
	if hasStatus(err, http.StatusConflict) {
		return c.editCategory(ctx, name, savePath)
	}
	if err != nil {
		return fail("create category "+name, err)
	}
	return nil
}

// editCategory is CreateCategory for a category that exists: it sets the
// save path when one is asked for, and is done otherwise.
func (c *Client) editCategory(ctx context.Context, name, savePath string) error {
	if savePath == "" {
		return nil
	}
	form := url.Values{"category": {name}, "savePath": {savePath}}
	if _, err := c.do(ctx, postForm("torrents/editCategory", form)); err != nil {
		return fail("edit category "+name, err)
	}
	return nil
}

// Files lists the files of one torrent; an unknown hash is NotFound.
func (c *Client) Files(ctx context.Context, hash string) ([]domain.TorrentFile, error) {
	body, err := c.do(ctx, get("torrents/files", url.Values{"hash": {hash}}))
	if err != nil {
		return nil, fail("list files", err)
	}
	var raw []struct {
		Name     string  `json:"name"`
		Size     int64   `json:"size"`
		Progress float64 `json:"progress"`
		Priority int     `json:"priority"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, domain.ErrTorrentClientUnavailable.Wrap(fmt.Errorf("list files: %w", err))
	}
	out := make([]domain.TorrentFile, 0, len(raw))
	for _, f := range raw {
		out = append(out, domain.TorrentFile{Name: f.Name, Size: f.Size, Progress: f.Progress, Skipped: f.Priority == 0})
	}
	return out, nil
}

// Pause stops the torrents (5.x "stop", 4.x "pause").
func (c *Client) Pause(ctx context.Context, hashes ...string) error {
	return c.versioned(ctx, "pause", "torrents/stop", "torrents/pause", hashes)
}

// Resume starts the torrents again (5.x "start", 4.x "resume").
func (c *Client) Resume(ctx context.Context, hashes ...string) error {
	return c.versioned(ctx, "resume", "torrents/start", "torrents/resume", hashes)
}

// versioned posts to the 5.x path, or to the 4.x one once a 404 has
// shown the server is 4.x (remembered for every later call).
func (c *Client) versioned(ctx context.Context, op, v5, v4 string, hashes []string) error {
	if !c.legacy.Load() {
		_, err := c.do(ctx, postForm(v5, url.Values{"hashes": {strings.Join(hashes, "|")}}))
		if !hasStatus(err, http.StatusNotFound) {
			if err != nil {
				return fail(op, err)
			}
			return nil
		}
		c.legacy.Store(true)
	}
	return c.action(ctx, op, v4, nil, hashes)
}

// action posts form plus the hashes to path.
func (c *Client) action(ctx context.Context, op, path string, form url.Values, hashes []string) error {
	if form == nil {
		form = url.Values{}
	}
	form.Set("hashes", strings.Join(hashes, "|"))
	if _, err := c.do(ctx, postForm(path, form)); err != nil {
		return fail(op, err)
	}
	return nil
}

// Version is the client's version ("v4.5.2").
func (c *Client) Version(ctx context.Context) (string, error) {
	body, err := c.do(ctx, get("app/version", nil))
	if err != nil {
		return "", fail("version", err)
	}
	return strings.TrimSpace(string(body)), nil
}
