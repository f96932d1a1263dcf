package domain

import "context"

// Languages an answer can be given in, as ISO 639-1 codes (Telegram's
// language_code uses the same).
const (
	LangRussian = "ru"
	LangEnglish = "en"
	// DefaultLang is the answer language when neither the message nor the
	// account tells one: accounts have no language of their own yet, and
	// the system instruction and the admin pages are in English.
	DefaultLang = LangEnglish
)

// Caller is who sends a chat message: the account, its rights and the
// language to answer in. The chat use case puts it into the context it
// passes to every plugin and to the AI model, so the Plugin contract stays
// Handle(ctx, message) while plugins can still refuse admin actions to
// users and keep preferences per user. The zero Caller is the
// least-privileged one: no account, not an admin.
type Caller struct {
	UserID int64
	Email  string
	Role   string
	Admin  bool
	// Lang is "ru" or "en": the message's language, else the account's,
	// else DefaultLang.
	Lang string
}

// CallerOf is the caller for a signed-in user; the language is left to
// the chat, which reads it from the message.
func CallerOf(u User) Caller {
	return Caller{UserID: u.ID, Email: u.Email, Role: u.EffectiveRole(), Admin: u.Admin()}
}

type callerKey struct{}

// WithCaller returns ctx carrying c.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFrom returns the caller ctx carries. Without one (a programming
// error: every chat path sets it) it returns the zero Caller, which has no
// rights, and false.
func CallerFrom(ctx context.Context) (Caller, bool) {
	c, ok := ctx.Value(callerKey{}).(Caller)
	return c, ok
}
