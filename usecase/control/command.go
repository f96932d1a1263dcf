package control

import (
	"context"
	"strconv"

	"mediateka/domain"
)

// Play starts the catalogue entry mediaID on the players of room, as a
// remote in that room sending {"event":"play","file":"media:<id>"} would,
// for a caller that is not a connection of the room (the Telegram bot's ▶
// button). The join rules apply (an e-mail room is that account's or an
// administrator's); the entry must be a video file on disk; a room without
// a player is ErrNoPlayer and nothing changes. It returns the entry played.
func (s *Service) Play(ctx context.Context, room string, caller domain.Caller, mediaID int64) (domain.Media, error) {
	name, err := ParseRoom(room)
	if err != nil {
		return domain.Media{}, err
	}
	if err := s.access(name, caller); err != nil {
		return domain.Media{}, err
	}
	s.mu.Lock()
	r, closed := s.rooms[name], s.closed
	s.mu.Unlock()
	switch {
	case closed:
		return domain.Media{}, ErrShuttingDown
	case r == nil:
		return domain.Media{}, ErrNoPlayer
	}
	media, err := s.cat.File(ctx, mediaID)
	if err != nil {
		return domain.Media{}, err
	}
	p := domain.Play{File: mediaPrefix + strconv.FormatInt(media.ID, 10), MediaID: media.ID, Title: media.Title}
	if err := s.sendPlay(ctx, r, message{event: EventPlay, change: p, mediaID: media.ID}, media); err != nil {
		return domain.Media{}, err
	}
	return media, nil
}

// sendPlay applies a resolved play to r and sends it to r's players: the
// same play message to all, or, with a PlayResolver, each player's own.
func (s *Service) sendPlay(ctx context.Context, r *room, m message, media domain.Media) error {
	if s.opt.Play == nil {
		return r.command(m)
	}
	players, err := r.playTo(m)
	p := m.change.(domain.Play)
	for _, pl := range players {
		pl.send(s.playFrameFor(ctx, pl, p, media))
	}
	return err
}
