package ws_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/delivery/ws"
	"mediateka/domain"
	"mediateka/usecase/control"
)

// stumbling is a token verifier that, while failing is set, cannot answer
// (as a store busy with a long write), and otherwise asks inner.
type stumbling struct {
	inner   atomic.Pointer[ws.TokenVerifier]
	failing atomic.Bool
	calls   atomic.Int32
}

func (s *stumbling) VerifyToken(ctx context.Context, token string) (domain.User, error) {
	s.calls.Add(1)
	if s.failing.Load() {
		return domain.User{}, errors.New("database is locked")
	}
	return (*s.inner.Load()).VerifyToken(ctx, token)
}

// A recheck that cannot be made says nothing against the token: the
// connection stays; a token that is refused still ends it.
func TestARecheckThatStumblesKeepsTheConnection(t *testing.T) {
	v := &stumbling{}
	s := start(t, control.Options{}, ws.Options{TokenRecheck: 20 * time.Millisecond, Verifier: v})
	var inner ws.TokenVerifier = s.auth
	v.inner.Store(&inner)
	token := s.token("ann@example.org")

	v.failing.Store(true)
	player := s.join("role=player&room=ann@example.org&token=" + token)
	assert.Equal(t, "presence", read(t, player, false)["event"])
	require.Eventually(t, func() bool { return v.calls.Load() >= 4 }, wait, 5*time.Millisecond, "several rechecks stumbled")
	v.failing.Store(false)

	remote := s.join("role=remote&room=ann@example.org&token=" + token)
	assert.Equal(t, float64(1), read(t, remote, false)["players"], "the player is still in the room")

	ann, err := s.db.Users.ByEmail(context.Background(), "ann@example.org")
	require.NoError(t, err)
	require.NoError(t, s.db.Users.Delete(context.Background(), ann.ID))
	assert.Equal(t, ws.ClosePolicy, closeCode(t, player), "a refused token still ends the connection")
}
