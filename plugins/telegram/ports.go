package telegram

import (
	"context"
	"sync"

	"mediateka/domain"
	"mediateka/usecase/chat"
	"mediateka/usecase/event"
	"mediateka/usecase/torrent"
	"mediateka/usecase/tts"
)

// Chat is the chat use case, the same pipeline as POST /api/chat.
type Chat interface {
	Ask(ctx context.Context, r chat.Request) (chat.Answer, error)
}

// Accounts are the accounts as the bot needs them: who a Telegram user
// is linked to, redeeming a link code (API.md §1) and the linked
// administrators that library events go to.
type Accounts interface {
	// ByTelegramID returns the account linked to the Telegram user;
	// false when none is.
	ByTelegramID(ctx context.Context, tgID int64) (domain.User, bool, error)
	// Redeem links the Telegram user to the account that made code. A
	// wrong, used or expired code is a domain error of kind NotFound or
	// Invalid.
	Redeem(ctx context.Context, code string, tgID int64) (domain.User, error)
	// LinkedAdmins are the administrators with a linked Telegram account.
	LinkedAdmins(ctx context.Context) ([]domain.User, error)
}

// Status gathers what /status shows for the caller.
type Status interface {
	Status(ctx context.Context, caller domain.Caller) StatusReport
}

// StatusReport is /status's content; each part says whether it could be
// read, so one part down never hides the others.
type StatusReport struct {
	// Library is nil when the catalogue could not be counted.
	Library *LibraryCounts
	// Torrents is the torrent client's side.
	Torrents TorrentsStatus
	// Room is the caller's room (their e-mail); nil for a caller with no
	// account.
	Room *RoomStatus
	// Model is the chat's model name ("offline", "gemini/gemini-2.5-flash").
	Model string
	// ModelKey tells whether the model has a usable API key (always true
	// for the offline assistant and keyless servers).
	ModelKey bool
}

// LibraryCounts are the catalogue's counts.
type LibraryCounts struct {
	Movies, Series, Episodes, Missing int
}

// TorrentsStatus is the torrent client as /status shows it.
type TorrentsStatus struct {
	Configured bool
	Reachable  bool
	// Active counts the unfinished torrents, Total all of them.
	Active, Total int
}

// RoomStatus is the caller's room player state.
type RoomStatus struct {
	Room    string
	Players int
	State   domain.PlayState
	// Position and Duration are seconds.
	Position, Duration float64
	Volume             int
	Title              string
}

// Catalog finds library entries by title for /find
// (catalog.Service.SearchTitles: best first, no match is an empty list).
type Catalog interface {
	SearchTitles(ctx context.Context, query string, limit int) ([]domain.Media, error)
}

// Rooms starts an entry on the players of a room, under the room's join
// rules (control.Service.Play): /find's ▶ button plays in the caller's
// room, their e-mail.
type Rooms interface {
	Play(ctx context.Context, room string, caller domain.Caller, mediaID int64) (domain.Media, error)
}

// TorrentSearch asks the Torznab indexers for /torrent (torrent.Searcher,
// as GET /api/torrents/search).
type TorrentSearch interface {
	Search(ctx context.Context, query, category string) (torrent.SearchResult, error)
}

// Torrents adds a download for /torrent's ⬇ button (torrent.Service, as
// POST /api/torrents/download).
type Torrents interface {
	Download(ctx context.Context, req torrent.DownloadRequest) (torrent.Added, error)
}

// Speech speaks an answer (the TTS use case): OGG/Opus for sendVoice.
type Speech interface {
	Speak(ctx context.Context, text string, format domain.AudioFormat) (tts.File, error)
}

// Events are the library events the bot forwards to linked admins
// (*event.Bus).
type Events interface {
	Listen(buffer int) *event.Listener
}

// Settings keep the per-user switches (/notify, /voice) across restarts.
type Settings interface {
	Get(ctx context.Context, key string) (domain.Setting, error)
	Set(ctx context.Context, key, value string) (domain.Setting, error)
}

// ChatRef is the chat, bound late. app/ builds the plugins before the chat
// use case, which holds the plugin chain, so the bot cannot receive the
// chat in its factory; app/ gives it a ChatRef and calls Set once the chat
// exists (before the plugins start). Until then Ask answers that the
// assistant is unavailable.
type ChatRef struct {
	mu sync.RWMutex
	c  Chat
}

// Set binds the chat.
func (r *ChatRef) Set(c Chat) {
	r.mu.Lock()
	r.c = c
	r.mu.Unlock()
}

// Ask forwards to the bound chat.
func (r *ChatRef) Ask(ctx context.Context, req chat.Request) (chat.Answer, error) {
	r.mu.RLock()
	c := r.c
	r.mu.RUnlock()
	if c == nil {
		return chat.Answer{}, domain.ErrUnavailable(domain.ErrAIUnavailable.Code, "the chat is not ready yet", nil)
	}
	return c.Ask(ctx, req)
}
