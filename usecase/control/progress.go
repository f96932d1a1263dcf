package control

import (
	"context"
	"errors"
	"time"

	"mediateka/domain"
)

// flushTimeout bounds the write of a leaving player's last position: the
// connection's own context has ended by then.
const flushTimeout = 5 * time.Second

// kept is what a player's reader last handed to the Progress port: the
// entry, and the position it saved on a pause (so a paused player that
// repeats its report is not written again).
type kept struct {
	media    int64
	paused   bool
	position float64
}

// keepProgress hands the position of a signed-in player's status_update
// to the Progress port, for the entry the report is about: its own
// media_id when it names one (the player is the account's own device,
// which may save any entry's position with PUT /progress anyway), else
// the entry this player is known to play (Client.playing), else nothing.
// Playing past position 0 is a throttled Report; a pause is saved at once
// (once per position); a stop, an idle player or position 0 writes only
// what the throttle held back, and so does moving on to another entry.
// It runs on this connection's reader, after the room's lock was released
// and the report forwarded, so a slow store delays this player's next
// message and nothing of other rooms or connections. A refusal (an entry
// that is not a movie or episode) is the player's business, not the
// room's: it is logged, not answered.
func (c *Client) keepProgress(m message, playing int64) {
	if c.hub.opt.Progress == nil || m.event != EventStatus || c.caller.UserID == 0 {
		return
	}
	st := m.status
	media := playing
	if st.MediaID > 0 {
		media = st.MediaID
	}
	if c.kept.media != 0 && c.kept.media != media {
		c.flush(c.ctx)
	}
	if media == 0 {
		return
	}
	p := c.hub.opt.Progress
	var err error
	switch {
	case st.State != domain.PlayPlaying && st.State != domain.PlayPaused || st.Position <= 0:
		c.flush(c.ctx)
		return
	case st.State == domain.PlayPaused:
		if c.kept == (kept{media: media, paused: true, position: st.Position}) {
			return
		}
		err = p.Save(c.ctx, c.caller.UserID, media, st.Position, st.Duration)
		c.kept = kept{media: media, paused: true, position: st.Position}
	default:
		err = p.Report(c.ctx, c.caller.UserID, media, st.Position, st.Duration)
		c.kept = kept{media: media}
	}
	c.logProgress(media, err)
}

// flush writes what the throttle held back of the entry last kept.
func (c *Client) flush(ctx context.Context) {
	if c.kept.media == 0 {
		return
	}
	media := c.kept.media
	err := c.hub.opt.Progress.Flush(ctx, c.caller.UserID, media)
	if err == nil {
		c.kept = kept{} // kept otherwise, so leaving tries once more
	}
	c.logProgress(media, err)
}

// flushProgress writes a leaving player's last position, which the
// throttle may have held back, within flushTimeout.
func (c *Client) flushProgress() {
	if c.hub.opt.Progress == nil || c.caller.UserID == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.ctx), flushTimeout)
	defer cancel()
	c.flush(ctx)
}

// logProgress logs a position that was not kept, unless the connection
// closing cancelled it.
func (c *Client) logProgress(media int64, err error) {
	switch {
	case err == nil, errors.Is(err, context.Canceled):
	case domain.KindOf(err) == domain.KindInternal:
		c.hub.log.Warn("keep a player's position", "room", c.room.name, "media_id", media, "err", err)
	default:
		c.hub.log.Debug("a player's position was not kept", "room", c.room.name, "media_id", media, "err", err)
	}
}
