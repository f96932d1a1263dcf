package telegram

import (
	"context"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"mediateka/domain"
)

// maxChats bounds the chats whose history and language are kept in memory;
// the chat unused longest is forgotten first.
const maxChats = 1000

// Settings keys of the per-user switches: "off" / "on".
const (
	notifyKeyPrefix = "telegram.notify."
	voiceKeyPrefix  = "telegram.voice."
	// langKeyPrefix + account id is the language ("ru", "en") the linked
	// account last wrote to the bot in.
	langKeyPrefix = "telegram.lang."
)

// chatState is what the bot remembers per chat and per Telegram user: the
// dialogue's last turns in memory; the /notify and /voice switches and
// the language of each linked account (for its notifications) in the
// settings store (memory only without one); and who was already refused.
type chatState struct {
	settings     Settings
	log          *slog.Logger
	historyTurns int

	mu       sync.Mutex
	chats    map[int64]*chatMemory
	switches map[string]bool
	refused  map[int64]bool
	// langs are the linked accounts' languages by account id (as many
	// as there are linked accounts).
	langs map[int64]string
}

// chatMemory is one chat's dialogue.
type chatMemory struct {
	turns []domain.ChatTurn
	used  time.Time
}

func newChatState(settings Settings, log *slog.Logger) *chatState {
	return &chatState{settings: settings, log: log, historyTurns: DefaultHistoryTurns,
		chats: map[int64]*chatMemory{}, switches: map[string]bool{}, refused: map[int64]bool{}, langs: map[int64]string{}}
}

// memory returns chat's memory, making room for it; the caller holds mu.
func (s *chatState) memory(chat int64) *chatMemory {
	m := s.chats[chat]
	if m == nil {
		if len(s.chats) >= maxChats {
			s.forgetOldest()
		}
		m = &chatMemory{}
		s.chats[chat] = m
	}
	m.used = time.Now()
	return m
}

// forgetOldest drops the chat unused longest; the caller holds mu.
func (s *chatState) forgetOldest() {
	var oldest int64
	var at time.Time
	for id, m := range s.chats {
		if at.IsZero() || m.used.Before(at) {
			oldest, at = id, m.used
		}
	}
	delete(s.chats, oldest)
}

// history is a copy of chat's last turns, oldest first.
func (s *chatState) history(chat int64) []domain.ChatTurn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]domain.ChatTurn(nil), s.memory(chat).turns...)
}

// remember appends an exchange, keeping the last historyTurns turns.
func (s *chatState) remember(chat int64, question, answer string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.memory(chat)
	m.turns = append(m.turns, domain.ChatTurn{Role: domain.TurnUser, Text: question},
		domain.ChatTurn{Role: domain.TurnModel, Text: answer})
	if n := len(m.turns) - s.historyTurns; n > 0 {
		m.turns = append([]domain.ChatTurn(nil), m.turns[n:]...)
	}
}

// setAccountLang remembers the language a linked account last wrote to
// the bot in, for its notifications: in the settings store, written only
// when it changes (memory only without a store).
func (s *chatState) setAccountLang(ctx context.Context, account int64, lang string) {
	s.mu.Lock()
	same := s.langs[account] == lang
	s.langs[account] = lang
	s.mu.Unlock()
	if same || s.settings == nil {
		return
	}
	if _, err := s.settings.Set(ctx, langKeyPrefix+strconv.FormatInt(account, 10), lang); err != nil {
		s.log.Warn("telegram: cannot store the language of a linked account", "err", err.Error())
	}
}

// accountLang is the language the account last wrote to the bot in, else
// domain.DefaultLang.
func (s *chatState) accountLang(ctx context.Context, account int64) string {
	s.mu.Lock()
	lang, ok := s.langs[account]
	s.mu.Unlock()
	if ok {
		return lang
	}
	if s.settings != nil {
		key := langKeyPrefix + strconv.FormatInt(account, 10)
		st, err := s.settings.Get(ctx, key)
		switch {
		case err == nil && (st.Value == domain.LangRussian || st.Value == domain.LangEnglish):
			s.mu.Lock()
			s.langs[account] = st.Value
			s.mu.Unlock()
			return st.Value
		case err != nil && !domain.IsKind(err, domain.KindNotFound):
			s.log.Warn("telegram: cannot read the language of a linked account", "err", err.Error())
		}
	}
	return domain.DefaultLang
}

// refuseOnce reports whether user is refused for the first time.
func (s *chatState) refuseOnce(user int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refused[user] || len(s.refused) >= maxChats*10 {
		return false
	}
	s.refused[user] = true
	return true
}

// flag reads a switch: prefix+id, def when never set.
func (s *chatState) flag(ctx context.Context, prefix string, id int64, def bool) bool {
	key := prefix + strconv.FormatInt(id, 10)
	s.mu.Lock()
	v, ok := s.switches[key]
	s.mu.Unlock()
	if ok {
		return v
	}
	if s.settings != nil {
		st, err := s.settings.Get(ctx, key)
		switch {
		case err == nil:
			v = st.Value == "on"
			s.mu.Lock()
			s.switches[key] = v
			s.mu.Unlock()
			return v
		case !domain.IsKind(err, domain.KindNotFound):
			s.log.Warn("telegram: cannot read a switch", "key", key, "err", err.Error())
		}
	}
	return def
}

// setFlag stores a switch; a store failure keeps it in memory and is
// returned so the person hears it will not survive a restart.
func (s *chatState) setFlag(ctx context.Context, prefix string, id int64, on bool) error {
	key := prefix + strconv.FormatInt(id, 10)
	s.mu.Lock()
	s.switches[key] = on
	s.mu.Unlock()
	if s.settings == nil {
		return nil
	}
	v := "off"
	if on {
		v = "on"
	}
	_, err := s.settings.Set(ctx, key, v)
	return err
}
