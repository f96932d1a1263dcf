// Package chat answers a person's message: first the plugins in load order
// (the first non-empty answer wins), then the AI model with the system
// instruction and the dialogue so far. It validates the request, bounds the
// time an answer may take, turns model failures into one "AI unavailable"
// error that never carries a key, and records each exchange in the user's
// activity log without its text.
package chat

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
)

// Defaults used when Options leave a field unset (config chat.*).
const (
	DefaultMaxMessageChars = 4000
	DefaultMaxHistory      = 50
	DefaultTimeout         = 90 * time.Second
)

// HandledByModel is Answer.HandledBy when no plugin answered.
const HandledByModel = "model"

// ActivityAction is the action of a chat row in the activity log.
const ActivityAction = "chat"

// Validation errors with their own codes (API.md §2).
var (
	ErrEmptyMessage   = domain.NewError(domain.KindInvalid, "empty_message", "the message is empty")
	ErrMessageTooLong = domain.NewError(domain.KindInvalid, "message_too_long", "the message is too long")
)

// Options tune the service.
type Options struct {
	// MaxMessageChars bounds a message in Unicode characters.
	MaxMessageChars int
	// MaxHistory bounds the number of earlier turns (0: the default).
	MaxHistory int
	// Timeout bounds one exchange, plugins and model together.
	Timeout time.Duration
	Logger  *slog.Logger
	// Notices, when set, are told at the start of a person's next answer.
	Notices Notices
}

// Service is the chat use case.
type Service struct {
	chain    PluginChain
	model    domain.AIModel
	settings Settings
	activity ActivityLog
	opt      Options
	log      *slog.Logger
}

// New returns the chat over the plugin chain and the model.
func New(chain PluginChain, model domain.AIModel, settings Settings, activity ActivityLog, opt Options) *Service {
	if opt.MaxMessageChars <= 0 {
		opt.MaxMessageChars = DefaultMaxMessageChars
	}
	if opt.MaxHistory <= 0 {
		opt.MaxHistory = DefaultMaxHistory
	}
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultTimeout
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{chain: chain, model: model, settings: settings, activity: activity, opt: opt, log: opt.Logger}
}

// Request is one message with the dialogue before it (oldest first).
// Caller is who asks: delivery fills it from the signed-in account (the
// bot from the linked one), with Lang the account's language if it has one.
// Its UserID names whose activity log records the exchange (0: nobody's).
// A zero Caller is the least-privileged user.
type Request struct {
	Caller  domain.Caller
	Message string
	History []domain.ChatTurn
}

// Answer is the reply: HandledBy is the plugin's name or "model"; Model is
// the model's name when the model answered, "" when a plugin did.
type Answer struct {
	Text      string
	HandledBy string
	Model     string
}

// ModelName is the name of the model behind the chat ("offline",
// "gemini/gemini-2.5-flash"…).
func (s *Service) ModelName() string { return s.model.Name() }

// Validate checks a request without answering it, so delivery can refuse a
// bad one with a plain error before it starts a stream.
func (s *Service) Validate(r Request) error {
	msg := strings.TrimSpace(r.Message)
	if msg == "" {
		return ErrEmptyMessage
	}
	if n := utf8.RuneCountInString(msg); n > s.opt.MaxMessageChars {
		e := *ErrMessageTooLong
		e.Message = fmt.Sprintf("the message has %d characters; at most %d are allowed", n, s.opt.MaxMessageChars)
		return &e
	}
	if len(r.History) > s.opt.MaxHistory {
		return domain.ErrInvalid("the history is too long",
			map[string]string{"history": fmt.Sprintf("must have at most %d items", s.opt.MaxHistory)})
	}
	for i, t := range r.History {
		switch t.Role {
		case domain.TurnUser, domain.TurnModel, domain.TurnAssistant:
		default:
			return domain.ErrInvalid("a history item has an unknown role",
				map[string]string{fmt.Sprintf("history[%d].role", i): "must be user, model or assistant"})
		}
	}
	return nil
}

// Ask answers r in one piece.
func (s *Service) Ask(ctx context.Context, r Request) (Answer, error) {
	if err := s.Validate(r); err != nil {
		return Answer{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.opt.Timeout)
	defer cancel()
	msg := strings.TrimSpace(r.Message)
	ctx = withCaller(ctx, r.Caller, msg)
	if answer, plugin := s.chain.Handle(ctx, msg); answer != "" {
		s.record(ctx, r, msg, plugin, nil)
		return Answer{Text: s.withNotices(ctx, answer), HandledBy: plugin}, nil
	}
	text, err := s.model.Generate(ctx, s.prompt(ctx, msg, r.History))
	if err != nil {
		err = modelError(ctx, err)
		s.record(ctx, r, msg, HandledByModel, err)
		return Answer{}, err
	}
	s.record(ctx, r, msg, HandledByModel, nil)
	return Answer{Text: s.withNotices(ctx, text), HandledBy: HandledByModel, Model: s.model.Name()}, nil
}

// notices takes what the chat owes the caller in ctx ("" for none, and for
// a caller without an account, who cannot be told again).
func (s *Service) notices(ctx context.Context) string {
	c, _ := domain.CallerFrom(ctx)
	if s.opt.Notices == nil || c.UserID == 0 {
		return ""
	}
	return s.opt.Notices.Take(c.UserID, c.Lang)
}

// withNotices puts the caller's notices before an answer, a blank line
// between. They are taken only once the answer is there, so a failed
// answer loses none.
func (s *Service) withNotices(ctx context.Context, answer string) string {
	if n := s.notices(ctx); n != "" {
		return n + "\n\n" + answer
	}
	return answer
}

// withCaller puts the caller into the context every plugin and the model
// receive, with the answer language settled: the message's, else the
// account's, else domain.DefaultLang.
func withCaller(ctx context.Context, c domain.Caller, msg string) context.Context {
	if l := textmatch.DetectLang(msg); l != "" {
		c.Lang = l
	} else if c.Lang == "" {
		c.Lang = domain.DefaultLang
	}
	return domain.WithCaller(ctx, c)
}

// prompt builds what the model is asked: the stored system instruction (the
// built-in default until an administrator stores one), the history and the
// message.
func (s *Service) prompt(ctx context.Context, msg string, history []domain.ChatTurn) domain.Prompt {
	system := domain.DefaultSystemInstruction
	st, err := s.settings.Get(ctx, domain.SettingSystemInstruction)
	switch {
	case err == nil && strings.TrimSpace(st.Value) != "":
		system = st.Value
	case err != nil && !domain.IsKind(err, domain.KindNotFound):
		s.log.WarnContext(ctx, "chat: cannot read the system instruction, using the default", "err", err)
	}
	return domain.Prompt{System: system, History: history, Message: msg}
}

// modelError turns any model failure into 503 ai_unavailable. The message
// of the provider's typed error is kept (it never holds a key: the clients
// scrub them); anything else gets a generic one, with the cause kept for
// the log only.
func modelError(ctx context.Context, err error) error {
	if domain.IsKind(err, domain.KindInvalid) {
		return err
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return domain.ErrUnavailable(domain.ErrAIUnavailable.Code, "the AI model did not answer in time", err)
	}
	msg := domain.ErrAIUnavailable.Message
	var de *domain.Error
	if errors.As(err, &de) && de.Kind == domain.KindUnavailable {
		msg = de.Message
	}
	return domain.ErrUnavailable(domain.ErrAIUnavailable.Code, msg, err)
}
