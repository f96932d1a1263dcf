package sqlstore

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

// TestWatchingMigrationOnAnExistingDatabase builds a database as release
// 4 left it, with accounts and media, and opens it with 0005: every row
// is kept, and the new watching state works for them and goes with them.
func TestWatchingMigrationOnAnExistingDatabase(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	old, err := openPool(path, false, 1)
	require.NoError(t, err)
	require.NoError(t, migrate(ctx, old, migrations()[:4]))
	for _, email := range []string{"ann@example.org", "bob@example.org"} {
		require.NoError(t, old.Exec(`INSERT INTO users (email, name) VALUES (?, 'n')`, email).Error)
	}
	for _, p := range []string{"/library/Heat (1995)/Heat.mkv", "/library/Alien (1979)/Alien.mkv"} {
		require.NoError(t, old.Exec(`INSERT INTO media (disk_name, path, title, media_type) VALUES ('d', ?, 't', 'movie')`, p).Error)
	}
	var ids []int64
	require.NoError(t, old.Raw(`SELECT id FROM media ORDER BY id`).Scan(&ids).Error)
	var ann int64
	require.NoError(t, old.Raw(`SELECT id FROM users WHERE email = 'ann@example.org'`).Scan(&ann).Error)
	db, _ := old.DB()
	require.NoError(t, db.Close())

	s, err := Open(ctx, path)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	var users, media, steps int64
	require.NoError(t, s.reader.Raw(`SELECT count(*) FROM users`).Scan(&users).Error)
	require.NoError(t, s.reader.Raw(`SELECT count(*) FROM media`).Scan(&media).Error)
	require.NoError(t, s.reader.Raw(`SELECT max(version) FROM schema_migrations`).Scan(&steps).Error)
	assert.EqualValues(t, 2, users, "no account is lost")
	assert.EqualValues(t, 2, media, "no entry is lost")
	assert.EqualValues(t, len(migrations()), steps)

	ws := NewWatchStates(s)
	at := time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC)
	w := domain.WatchState{MediaID: ids[0], Position: 600, Duration: 6000, UpdatedAt: at}
	require.NoError(t, ws.SaveProgress(ctx, ann, w))
	got, err := ws.States(ctx, ann)
	require.NoError(t, err)
	assert.Equal(t, map[int64]domain.WatchState{ids[0]: w}, got)
	require.NoError(t, s.writer.Exec(`DELETE FROM media WHERE id = ?`, ids[0]).Error)
	got, err = ws.States(ctx, ann)
	require.NoError(t, err)
	assert.Empty(t, got, "a state goes with its media record")
}
