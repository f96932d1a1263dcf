package chat

import (
	"context"

	"mediateka/domain"
)

// PluginChain offers a message to the plugins in load order and returns the
// first non-empty answer with the plugin's name, or ("", "") when no plugin
// handled it. A plugin's own failure is the chain's business (logged, next
// plugin), never the chat's. app/ connects it to the plugin manager, so this
// package never imports plugins/.
type PluginChain interface {
	Handle(ctx context.Context, message string) (answer, plugin string)
}

// Settings reads the stored system instruction.
type Settings interface {
	Get(ctx context.Context, key string) (domain.Setting, error)
}

// ActivityLog records each exchange in the user's activity log.
type ActivityLog interface {
	Add(ctx context.Context, a domain.Activity) error
}

// Notices are what the chat owes a person from earlier requests (a scan
// started from the chat has ended). Take returns them in lang, one line
// each, and forgets them; "" when there are none. The answer to the
// person's next message starts with them.
type Notices interface {
	Take(userID int64, lang string) string
}
