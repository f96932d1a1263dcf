package playback_test

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/localfs"
	"mediateka/usecase/catalog"
	"mediateka/usecase/playback"
)

func TestPlayTokenOpensOneEntryForOneAccount(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	heat := e.film(t, "Heat", mp4(1))
	matrix := e.film(t, "Matrix", mp4(1))
	ctx := context.Background()
	info, err := e.svc.Play(ctx, e.viewer, heat.ID)
	require.NoError(t, err)
	st := tokenOf(t, info.StreamURL)
	assert.Less(t, len(st), 64, "compact enough for a URL")

	u, err := e.svc.Authorize(ctx, st, heat.ID)
	require.NoError(t, err)
	assert.Equal(t, e.viewer.ID, u.ID)
	_, err = e.svc.Authorize(ctx, st, matrix.ID)
	assert.ErrorIs(t, err, playback.ErrInvalidPlayToken, "another entry")

	raw, err := base64.RawURLEncoding.DecodeString(st)
	require.NoError(t, err)
	for i := range raw {
		forged := append([]byte(nil), raw...)
		forged[i] ^= 1
		_, err = e.svc.Authorize(ctx, base64.RawURLEncoding.EncodeToString(forged), heat.ID)
		assert.ErrorIs(t, err, playback.ErrInvalidPlayToken, "byte %d changed", i)
	}
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	for i := range st {
		for _, c := range alphabet {
			if byte(c) == st[i] {
				continue
			}
			_, err = e.svc.Authorize(ctx, st[:i]+string(c)+st[i+1:], heat.ID)
			require.ErrorIs(t, err, playback.ErrInvalidPlayToken, "character %d changed to %c", i, c)
		}
	}
	for _, bad := range []string{"", "x", "!!!!", strings.Repeat("A", 4000), st + "A", st[:len(st)-1]} {
		_, err = e.svc.Authorize(ctx, bad, heat.ID)
		assert.ErrorIs(t, err, playback.ErrInvalidPlayToken, "%q", bad)
	}

	// Another server (another JWT secret) cannot mint tokens for this one.
	other := playback.New(catalog.New(e.db.Media, e.db.Media, localfs.FS{}, catalog.Options{}), e.db.Users,
		playback.Options{Secret: []byte("another secret of sixteen bytes"), Now: e.clock.Now})
	foreign, err := other.Play(ctx, e.viewer, heat.ID)
	require.NoError(t, err)
	_, err = e.svc.Authorize(ctx, tokenOf(t, foreign.StreamURL), heat.ID)
	assert.ErrorIs(t, err, playback.ErrInvalidPlayToken)
}

func TestPlayTokenEnds(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	heat := e.film(t, "Heat", mp4(1))
	ctx := context.Background()
	play := func(u domain.User) string {
		info, err := e.svc.Play(ctx, u, heat.ID)
		require.NoError(t, err)
		return tokenOf(t, info.StreamURL)
	}

	st := play(e.viewer)
	e.clock.advance(6*time.Hour - time.Second)
	_, err := e.svc.Authorize(ctx, st, heat.ID)
	require.NoError(t, err, "valid until the end of its six hours")
	e.clock.advance(time.Second)
	_, err = e.svc.Authorize(ctx, st, heat.ID)
	assert.ErrorIs(t, err, playback.ErrPlayTokenExpired)

	st = play(e.viewer)
	e.viewer.TokenVersion++
	_, err = e.db.Users.Update(ctx, e.viewer)
	require.NoError(t, err)
	_, err = e.svc.Authorize(ctx, st, heat.ID)
	assert.ErrorIs(t, err, playback.ErrInvalidPlayToken, "a password change ends the account's play tokens")

	gone := e.db.User("gone@example.org")
	st = play(gone)
	require.NoError(t, e.db.Users.Delete(ctx, gone.ID))
	_, err = e.svc.Authorize(ctx, st, heat.ID)
	assert.ErrorIs(t, err, playback.ErrInvalidPlayToken, "a deleted account's token")
}
