package sqlstore

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

// TestTelegramLinkOnAnExistingDatabase opens a database as release 6 left
// it, with accounts, with the current code. telegram_id has been a
// nullable UNIQUE column since the base schema (0001), so no migration is
// needed: this checks that old rows read as unlinked, that many unlinked
// accounts coexist (NULLs are not equal), that a link is stored and found,
// that a Telegram id moves between accounts in one step, and that the
// column still refuses the same id on two accounts written directly.
func TestTelegramLinkOnAnExistingDatabase(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	old, err := openPool(path, false, 1)
	require.NoError(t, err)
	require.NoError(t, migrate(ctx, old, migrations()[:6]))
	for _, email := range []string{"ann@example.org", "bob@example.org", "cat@example.org"} {
		require.NoError(t, old.Exec(`INSERT INTO users (email, name) VALUES (?, 'n')`, email).Error)
	}
	db, _ := old.DB()
	require.NoError(t, db.Close())

	s, err := Open(ctx, path)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	users := NewUsers(s)
	ann, err := users.ByEmail(ctx, "ann@example.org")
	require.NoError(t, err)
	bob, err := users.ByEmail(ctx, "bob@example.org")
	require.NoError(t, err)
	assert.Nil(t, ann.TelegramID, "an old account is unlinked")

	_, err = users.ByTelegramID(ctx, 777)
	assert.True(t, domain.IsKind(err, domain.KindNotFound), "%v", err)

	linked, err := users.LinkTelegram(ctx, ann.ID, 777)
	require.NoError(t, err)
	require.NotNil(t, linked.TelegramID)
	assert.EqualValues(t, 777, *linked.TelegramID)
	found, err := users.ByTelegramID(ctx, 777)
	require.NoError(t, err)
	assert.Equal(t, ann.ID, found.ID)

	moved, err := users.LinkTelegram(ctx, bob.ID, 777)
	require.NoError(t, err)
	assert.EqualValues(t, 777, *moved.TelegramID)
	again, err := users.ByID(ctx, ann.ID)
	require.NoError(t, err)
	assert.Nil(t, again.TelegramID, "the Telegram account moved: the first account lost it")
	found, err = users.ByTelegramID(ctx, 777)
	require.NoError(t, err)
	assert.Equal(t, bob.ID, found.ID)

	relinked, err := users.LinkTelegram(ctx, bob.ID, 777)
	require.NoError(t, err, "linking the same pair again is fine")
	assert.EqualValues(t, 777, *relinked.TelegramID)

	_, err = users.LinkTelegram(ctx, 999999, 888)
	assert.True(t, domain.IsKind(err, domain.KindNotFound), "%v", err)
	_, err = users.ByTelegramID(ctx, 888)
	assert.True(t, domain.IsKind(err, domain.KindNotFound), "an unknown account links nothing")

	ann.TelegramID = moved.TelegramID
	_, err = users.Update(ctx, ann)
	assert.True(t, domain.IsKind(err, domain.KindConflict), "the column stays UNIQUE: %v", err)
	var unlinked int64
	require.NoError(t, s.reader.Raw(`SELECT count(*) FROM users WHERE telegram_id IS NULL`).Scan(&unlinked).Error)
	assert.EqualValues(t, 2, unlinked, "several unlinked accounts coexist")
}
