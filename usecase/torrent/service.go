// Package torrent is the torrents capability of API.md §5: the list of the
// client's torrents in client-independent states, and adding a download
// from a magnet or an http(s) .torrent link. Every link is checked — and a
// .torrent fetched, decoded and hashed — before the client is asked
// anything, so a bad link is a 400 even while the client is down.
package torrent

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"mediateka/domain"
	jobrun "mediateka/usecase/job"
)

// Methods of an added download, as the API reports them.
const (
	MethodMagnet = "magnet"
	MethodFile   = "file"
)

// maxLabelChars bounds the optional title and source of a download.
const maxLabelChars = 500

// Options are the service's collaborators besides the client.
type Options struct {
	Logger *slog.Logger
	// Roots lists the library folders now: a relocation searches them and
	// refuses folders outside them.
	Roots func() []domain.Root
	// FS is the disk a relocation walks.
	FS FileSystem
	// Titles finds catalogue entries for assign-categories.
	Titles TitleSearch
	// Indexers puts the API key back into an indexer's download link and
	// lets the fetch of such a link reach the LAN; nil: no indexer.
	Indexers IndexerLinks
	// RelocateInline is how many torrents with missing files a relocation
	// handles within the request; more run as a background job.
	RelocateInline int
	// Now is the clock (nil: time.Now): the release-name parser's year
	// bound and the job's times.
	Now func() time.Time
}

// Service lists and adds torrents, relocates those whose files moved and
// files them under the catalogue's categories.
type Service struct {
	client    Client
	fetch     LinkFetcher
	log       *slog.Logger
	opt       Options
	relocates *jobrun.Runner[relocateCounts, RelocateError]
}

// New builds the service. client may be nil when no torrent client is
// configured: every call that needs it then answers
// domain.ErrTorrentClientUnavailable, after the input was checked.
func New(client Client, fetch LinkFetcher, opt Options) *Service {
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Roots == nil {
		opt.Roots = func() []domain.Root { return nil }
	}
	return &Service{client: client, fetch: fetch, log: opt.Logger, opt: opt, relocates: newRelocateRunner(opt)}
}

// List returns the client's torrents, newest first.
func (s *Service) List(ctx context.Context) ([]domain.Torrent, error) {
	if s.client == nil {
		return nil, errNotConfigured
	}
	ts, err := s.client.List(ctx)
	if err != nil {
		return nil, fmt.Errorf("list torrents: %w", err)
	}
	slices.SortStableFunc(ts, func(a, b domain.Torrent) int {
		if c := b.AddedOn.Compare(a.AddedOn); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return ts, nil
}

// DownloadRequest is POST /api/torrents/download: the link, and what the
// person or indexer called it (kept in the log only). Admin says the
// caller is an administrator: their links may point into the LAN and a
// failed fetch tells them why.
type DownloadRequest struct {
	URL string
	// File is a .torrent file sent by the client itself, instead of URL.
	File   []byte
	Title  string
	Source string
	Admin  bool
}

// Added is what Download added.
type Added struct {
	Hash   string
	Method string // MethodMagnet or MethodFile
}

// errNotConfigured is the client-less service's answer.
var errNotConfigured = domain.ErrTorrentClientUnavailable.Wrap(errors.New("torrent_client.url is empty"))

// Download checks the link (fetching an http(s) one), then adds it unless
// the client has it already (409 already_exists).
func (s *Service) Download(ctx context.Context, req DownloadRequest) (Added, error) {
	add, added, err := s.prepare(ctx, req)
	if err != nil {
		return Added{}, err
	}
	if s.client == nil {
		return Added{}, errNotConfigured
	}
	if err := s.refuseDuplicate(ctx, added.Hash); err != nil {
		return Added{}, err
	}
	if err := s.client.Add(ctx, add); err != nil {
		// "Fails." (4.x) and a 409 (5.x) both mean a duplicate that raced
		// us, or a torrent the client will not take.
		if errors.Is(err, domain.ErrTorrentRefused) || domain.IsKind(err, domain.KindConflict) {
			if dup := s.refuseDuplicate(ctx, added.Hash); dup != nil {
				return Added{}, dup
			}
			return Added{}, domain.ErrTorrentRefused.Wrap(fmt.Errorf("add torrent %s: %w", added.Hash, err))
		}
		return Added{}, fmt.Errorf("add torrent %s: %w", added.Hash, err)
	}
	s.log.Info("torrent added", "hash", added.Hash, "method", added.Method,
		"title", strings.TrimSpace(req.Title), "source", strings.TrimSpace(req.Source))
	return added, nil
}

// refuseDuplicate is already_exists when the client has hash.
func (s *Service) refuseDuplicate(ctx context.Context, hash string) error {
	have, err := s.client.List(ctx, hash)
	if err != nil {
		return fmt.Errorf("look up torrent %s: %w", hash, err)
	}
	if len(have) > 0 {
		return domain.ErrConflict(fmt.Sprintf("the torrent client already has this torrent (%s)", have[0].Name))
	}
	return nil
}

// prepare validates the request and turns the link into what the client
// is asked to add: a magnet as it is, an http(s) link fetched and checked
// to be a torrent.
func (s *Service) prepare(ctx context.Context, req DownloadRequest) (domain.TorrentAdd, Added, error) {
	link := strings.TrimSpace(req.URL)
	if len(req.File) > 0 {
		return uploaded(link, req)
	}
	if err := validateRequest(link, req); err != nil {
		return domain.TorrentAdd{}, Added{}, err
	}
	kind, hash, err := classifyLink(link)
	if err != nil {
		return domain.TorrentAdd{}, Added{}, err
	}
	if kind == linkMagnet {
		return domain.TorrentAdd{URL: link}, Added{Hash: hash, Method: MethodMagnet}, nil
	}
	add, added, err := s.fetchTorrent(ctx, link, req.Admin)
	if err != nil && !req.Admin {
		// One reason for every failure, so that a user cannot tell a
		// closed port from a silent host or a web page: no LAN probing.
		s.log.Warn("torrent link not fetched", "link", link, "err", err.Error())
		return domain.TorrentAdd{}, Added{}, errNotFetched
	}
	return add, added, err
}

// uploaded checks a .torrent file sent with the request: alone (not with a
// link), a bencoded torrent, and no larger than a fetched one may be.
func uploaded(link string, req DownloadRequest) (domain.TorrentAdd, Added, error) {
	fields := map[string]string{}
	if link != "" {
		fields["url"] = "give url or torrent_file, not both"
	}
	if len(req.File) > maxTorrentFileBytes {
		fields["torrent_file"] = fmt.Sprintf("must be at most %d MiB", maxTorrentFileBytes>>20)
	}
	if err := validateRequest("-", req); err != nil {
		return domain.TorrentAdd{}, Added{}, err
	}
	if len(fields) > 0 {
		return domain.TorrentAdd{}, Added{}, domain.ErrInvalid("the download request is not valid", fields)
	}
	meta, err := ParseTorrentFile(req.File)
	if err != nil {
		return domain.TorrentAdd{}, Added{}, err
	}
	return domain.TorrentAdd{File: req.File}, Added{Hash: meta.Hash, Method: MethodFile}, nil
}

// maxTorrentFileBytes bounds an uploaded .torrent file as a fetched one is.
const maxTorrentFileBytes = 5 << 20

// errNotFetched is what a user hears of any failure to fetch a link.
var errNotFetched = domain.ErrInvalidTorrentLink("the link could not be downloaded as a torrent file (the server log says why)")

// fetchTorrent fetches an http(s) link, with the indexer's key put back
// when it is an indexer's, and checks that it is a torrent. Only an
// indexer's link or an admin's may reach loopback and LAN addresses.
func (s *Service) fetchTorrent(ctx context.Context, link string, admin bool) (domain.TorrentAdd, Added, error) {
	full, indexer := link, false
	if s.opt.Indexers != nil {
		full, indexer = s.opt.Indexers.Restore(link)
	}
	body, magnet, err := s.fetch.Fetch(ctx, full, indexer || admin)
	if err != nil {
		return domain.TorrentAdd{}, Added{}, err
	}
	if magnet != "" {
		hash, err := MagnetHash(magnet)
		return domain.TorrentAdd{URL: magnet}, Added{Hash: hash, Method: MethodMagnet}, err
	}
	meta, err := ParseTorrentFile(body)
	if err != nil {
		return domain.TorrentAdd{}, Added{}, err
	}
	return domain.TorrentAdd{File: body}, Added{Hash: meta.Hash, Method: MethodFile}, nil
}

// validateRequest checks the fields' presence and lengths.
func validateRequest(link string, req DownloadRequest) error {
	fields := map[string]string{}
	switch {
	case link == "":
		fields["url"] = "must not be empty"
	case utf8.RuneCountInString(link) > maxLinkChars:
		fields["url"] = fmt.Sprintf("must be at most %d characters", maxLinkChars)
	}
	for name, v := range map[string]string{"title": req.Title, "source": req.Source} {
		if utf8.RuneCountInString(v) > maxLabelChars {
			fields[name] = fmt.Sprintf("must be at most %d characters", maxLabelChars)
		}
	}
	if len(fields) > 0 {
		return domain.ErrInvalid("the download request is not valid", fields)
	}
	return nil
}
