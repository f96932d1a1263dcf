package sqlstore

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

// Change and Remove count the other administrators by either flag (older
// rows may carry only one), write what fn decides, and write nothing when
// it refuses.
func TestUsersChangeAndRemoveAreGuarded(t *testing.T) {
	s, _ := openTemp(t)
	users := NewUsers(s)
	acts := NewActivity(s)
	ctx := context.Background()
	mk := func(email, role string, isAdmin bool) domain.User {
		u, err := users.Create(ctx, domain.User{Email: email, Name: "n", Role: role, IsAdmin: isAdmin, PasswordHash: "h"})
		require.NoError(t, err)
		return u
	}
	plain := mk("plain@x.org", domain.RoleUser, false)
	byRole := mk("role@x.org", domain.RoleAdmin, false)
	byFlag := mk("flag@x.org", domain.RoleUser, true)
	_, err := users.ByID(ctx, plain.ID) // cached now: the change must still show
	require.NoError(t, err)

	var seen int64
	got, err := users.Change(ctx, plain.ID, func(u domain.User, others int64) (domain.User, error) {
		seen = others
		u.Name, u.TokenVersion = "Renamed", u.TokenVersion+1
		u.TelegramID = new(int64(77))
		return u, nil
	})
	require.NoError(t, err)
	assert.EqualValues(t, 2, seen, "both the role-only and the flag-only admin count")
	assert.Equal(t, "Renamed", got.Name)
	assert.EqualValues(t, 1, got.TokenVersion)
	assert.Equal(t, plain.CreatedAt.Unix(), got.CreatedAt.Unix(), "created_at is kept")
	again, err := users.ByID(ctx, plain.ID)
	require.NoError(t, err)
	assert.Equal(t, got, again, "the cached account was dropped by the write")

	_, err = users.Change(ctx, byRole.ID, func(u domain.User, others int64) (domain.User, error) {
		seen = others
		return u, nil
	})
	require.NoError(t, err)
	assert.EqualValues(t, 1, seen, "the other admin, not itself")

	refused := errors.New("no")
	_, err = users.Change(ctx, plain.ID, func(u domain.User, _ int64) (domain.User, error) {
		u.Name, u.TelegramID = "Never", nil
		return u, refused
	})
	assert.ErrorIs(t, err, refused)
	again, err = users.ByID(ctx, plain.ID)
	require.NoError(t, err)
	assert.Equal(t, "Renamed", again.Name, "a refused change writes nothing")
	require.NotNil(t, again.TelegramID)

	_, err = users.Change(ctx, 9999, func(u domain.User, _ int64) (domain.User, error) { return u, nil })
	assert.True(t, domain.IsKind(err, domain.KindNotFound), "%v", err)

	require.NoError(t, acts.Add(ctx, domain.Activity{UserID: byFlag.ID, Action: "login"}))
	assert.ErrorIs(t, users.Remove(ctx, byFlag.ID, func(domain.User, int64) error { return refused }), refused)
	_, err = users.ByID(ctx, byFlag.ID)
	require.NoError(t, err, "a refused removal deletes nothing")
	require.NoError(t, users.Remove(ctx, byFlag.ID, func(u domain.User, others int64) error {
		assert.True(t, u.Admin())
		assert.EqualValues(t, 1, others)
		return nil
	}))
	_, err = users.ByID(ctx, byFlag.ID)
	assert.True(t, domain.IsKind(err, domain.KindNotFound), "%v", err)
	left, err := acts.ForUser(ctx, byFlag.ID, 10)
	require.NoError(t, err)
	assert.Empty(t, left, "the activity went with the account")
	err = users.Remove(ctx, byFlag.ID, func(domain.User, int64) error { return nil })
	assert.True(t, domain.IsKind(err, domain.KindNotFound), "%v", err)
}
