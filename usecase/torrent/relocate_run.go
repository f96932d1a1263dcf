package torrent

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"mediateka/domain"
	jobrun "mediateka/usecase/job"
)

// relocateProgress is how a running relocation reports to the job runner.
type relocateProgress = jobrun.Progress[relocateCounts, RelocateError]

// relocation is one run: the torrents' file lists, one walk for all of
// them, then the new location and a recheck for each one found.
type relocation struct {
	s        *Service
	dirs     []string
	torrents []domain.Torrent
	p        *relocateProgress
}

func (r *relocation) run(ctx context.Context) error {
	if len(r.torrents) == 0 {
		return nil
	}
	lists := make([][]domain.TorrentFile, len(r.torrents))
	want := wantedFiles{keys: map[fileKey]bool{}, names: map[string]bool{}}
	for i, t := range r.torrents {
		files, err := r.s.client.Files(ctx, t.Hash)
		if err != nil && !domain.IsKind(err, domain.KindNotFound) { // one removed meanwhile has nothing to find
			return fmt.Errorf("list the files of %s: %w", t.Hash, err)
		}
		lists[i] = files
		want.want(files)
		r.p.Update(func(c *relocateCounts) { c.Checked++ })
	}
	found, truncated, err := walkFor(ctx, r.s.opt.FS, r.dirs, want)
	if err != nil {
		return err
	}
	r.p.Update(func(c *relocateCounts) { c.Result.Truncated = truncated })
	for i, t := range r.torrents {
		if err := r.move(ctx, t, found, lists[i]); err != nil {
			return err
		}
	}
	return nil
}

// move points one torrent at the folder holding its files and rechecks
// it, or records it as not found. A client that stopped answering ends the
// run; a refusal is this torrent's error.
func (r *relocation) move(ctx context.Context, t domain.Torrent, found foundFiles, files []domain.TorrentFile) error {
	dir, ok := found.locate(files)
	if !ok {
		r.p.Update(func(c *relocateCounts) {
			c.Result.NotFound = append(c.Result.NotFound, NotFound{Hash: t.Hash, Name: t.Name})
		})
		return nil
	}
	err := r.s.client.SetLocation(ctx, dir, t.Hash)
	if err == nil {
		err = r.s.settle(ctx, t.Hash, dir)
	}
	if err == nil {
		err = r.s.client.Recheck(ctx, t.Hash)
	}
	switch {
	case errors.Is(err, domain.ErrTorrentClientUnavailable):
		return fmt.Errorf("relocate %s: %w", t.Hash, err)
	case err != nil:
		r.p.Error(RelocateError{Hash: t.Hash, Name: t.Name, Error: "the torrent client refused the new location"})
		r.s.log.Warn("relocation refused", "hash", t.Hash, "to", dir, "err", err.Error())
		return nil
	}
	r.s.log.Info("torrent relocated", "hash", t.Hash, "name", t.Name, "to", dir)
	r.p.Update(func(c *relocateCounts) {
		c.Result.Relocated = append(c.Result.Relocated, Relocated{Hash: t.Hash, Name: t.Name, To: dir})
	})
	return nil
}

// Waiting for a new location to take: the client applies it in the
// background (state Moving), and a recheck asked for before it took can
// stay checking forever.
const (
	settleLimit = 10 * time.Second
	settleStep  = 100 * time.Millisecond
)

// settle waits until the client shows the torrent at dir and not moving,
// at most settleLimit; a move that takes longer is rechecked anyway.
func (s *Service) settle(ctx context.Context, hash, dir string) error {
	deadline := s.opt.Now().Add(settleLimit)
	for {
		ts, err := s.client.List(ctx, hash)
		if err != nil {
			return err
		}
		if len(ts) == 0 || (filepath.Clean(ts[0].SavePath) == dir && ts[0].State != domain.TorrentMoving) {
			return nil
		}
		if !s.opt.Now().Before(deadline) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(settleStep):
		}
	}
}
