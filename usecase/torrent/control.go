package torrent

import (
	"context"
	"fmt"
	"strings"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
)

// Action is what Control does to a torrent.
type Action string

// The actions of the torrents chat plugin.
const (
	ActionPause   Action = "pause"
	ActionResume  Action = "resume"
	ActionRecheck Action = "recheck"
)

// ErrAmbiguousTorrent is Control's answer when name fits several torrents
// and none exactly: nothing is done, and the torrents are returned so the
// person can be more precise.
var ErrAmbiguousTorrent = domain.NewError(domain.KindConflict, "ambiguous_torrent", "several torrents have this name")

// Control pauses, resumes or rechecks the torrent called name: the one
// whose name is name (ignoring case, dots and the like), else the only
// one whose name contains it, or whose hash starts with it. It returns the
// torrents it acted on; none found is NotFound; several is
// ErrAmbiguousTorrent with the candidates.
func (s *Service) Control(ctx context.Context, action Action, name string) ([]domain.Torrent, error) {
	if s.client == nil {
		return nil, errNotConfigured
	}
	all, err := s.client.List(ctx)
	if err != nil {
		return nil, fmt.Errorf("list torrents: %w", err)
	}
	picked := pickByName(all, name)
	switch {
	case len(picked) == 0:
		return nil, domain.ErrNotFound("torrent")
	case len(picked) > 1:
		return picked, ErrAmbiguousTorrent
	}
	hash := picked[0].Hash
	switch action {
	case ActionPause:
		err = s.client.Pause(ctx, hash)
	case ActionResume:
		err = s.client.Resume(ctx, hash)
	case ActionRecheck:
		err = s.client.Recheck(ctx, hash)
	default:
		return nil, fmt.Errorf("unknown torrent action %q", action)
	}
	if err != nil {
		return nil, fmt.Errorf("%s torrent %s: %w", action, hash, err)
	}
	s.log.Info("torrent "+string(action), "hash", hash, "name", picked[0].Name)
	return picked, nil
}

// pickByName finds the torrents name means (see Control).
func pickByName(all []domain.Torrent, name string) []domain.Torrent {
	want := textmatch.Normalize(name)
	if want == "" {
		return nil
	}
	var exact, part []domain.Torrent
	for _, t := range all {
		have := textmatch.Normalize(t.Name)
		switch {
		case have == want:
			exact = append(exact, t)
		case strings.Contains(have, want) || len(want) >= 6 && strings.HasPrefix(t.Hash, strings.ToLower(strings.TrimSpace(name))):
			part = append(part, t)
		}
	}
	if len(exact) > 0 {
		return exact
	}
	return part
}
