package telegram

import (
	"crypto/rand"
	"encoding/base64"
	"sync"
	"time"

	"mediateka/domain"
	"mediateka/usecase/torrent"
)

// Bounds of the lists that /find and /torrent answer with.
const (
	// pageSize is how many results one message shows.
	pageSize = 5
	// maxFound is how many catalogue entries /find keeps (two pages).
	maxFound = 10
	// maxTorrents is how many torrent results /torrent keeps.
	maxTorrents = 50
	// listTTL is how long a list's buttons work; a press after that is
	// answered "This button has expired."
	listTTL = time.Hour
	// maxLists bounds the lists kept; the one expiring first goes first.
	maxLists = 1000
)

// Kinds of list.
const (
	listFind    = "find"
	listTorrent = "torrent"
)

// list is one /find or /torrent answer, kept on the server so that its
// buttons carry only a short id (callback_data is at most 64 bytes): who
// it was made for, where, and its results.
type list struct {
	kind           string
	chatID, userID int64
	query          string
	found          []domain.Media
	torrents       []torrent.Found
	expires        time.Time
}

// size is how many results the list has.
func (l *list) size() int {
	if l.kind == listTorrent {
		return len(l.torrents)
	}
	return len(l.found)
}

// lists keeps the lists by id until they expire.
type lists struct {
	now func() time.Time

	mu   sync.Mutex
	byID map[string]*list
}

func newLists(now func() time.Time) *lists {
	if now == nil {
		now = time.Now
	}
	return &lists{now: now, byID: map[string]*list{}}
}

// put keeps l for listTTL and returns its id: 8 random bytes, 11
// characters of base64url (no ':', the callback data's separator).
func (s *lists) put(l *list) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	id := base64.RawURLEncoding.EncodeToString(b[:])
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	l.expires = now.Add(listTTL)
	for k, v := range s.byID {
		if !now.Before(v.expires) {
			delete(s.byID, k)
		}
	}
	if len(s.byID) >= maxLists {
		var first string
		for k, v := range s.byID {
			if first == "" || v.expires.Before(s.byID[first].expires) {
				first = k
			}
		}
		delete(s.byID, first)
	}
	s.byID[id] = l
	return id
}

// get returns the list id names while it has not expired.
func (s *lists) get(id string) (*list, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.byID[id]
	if !ok {
		return nil, false
	}
	if !s.now().Before(l.expires) {
		delete(s.byID, id)
		return nil, false
	}
	return l, true
}
