package domain

import "time"

// API key statuses. An exhausted key comes back to active by itself after the
// configured cool-down; a disabled one only by a person. A rejected key is one
// the provider refused (wrong, revoked or expired): retrying it cannot help,
// so it stays out of the rotation until a person replaces its secret or sets
// it active again.
const (
	KeyActive    = "active"
	KeyExhausted = "exhausted"
	KeyDisabled  = "disabled"
	KeyRejected  = "rejected"
)

// APIKey is an AI provider key. Secret is the plain key: repositories encrypt
// it at rest and delivery only ever shows MaskKey(Secret).
type APIKey struct {
	Name        string
	Provider    string
	Secret      string
	Status      string
	LastRun     *time.Time
	ExhaustedAt *time.Time
	DailyQuota  *int
	UsedToday   int
	UsedDay     string // UTC date (YYYY-MM-DD) UsedToday counts for
	CreatedAt   time.Time
}

// MaskKey shows the first and last four characters of a secret, enough for a
// person to tell keys apart and never enough to use one.
func MaskKey(secret string) string {
	r := []rune(secret)
	if len(r) <= 8 {
		return "…"
	}
	return string(r[:4]) + "…" + string(r[len(r)-4:])
}
