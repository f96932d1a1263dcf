package sqlstore

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"mediateka/domain"
)

// openTemp opens a store on a fresh temporary file.
func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.db")
	s, err := Open(context.Background(), path)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s, path
}

func TestFreshDatabaseHasEveryTable(t *testing.T) {
	s, _ := openTemp(t)
	for _, table := range []string{"media", "media_vector", "search_history", "users", "user_activity", "api_keys", "settings", "watch_state"} {
		assert.True(t, s.writer.Migrator().HasTable(table), table)
	}
	var mode string
	require.NoError(t, s.reader.Raw("PRAGMA journal_mode").Scan(&mode).Error)
	assert.Equal(t, "wal", mode)
	var fk int
	require.NoError(t, s.reader.Raw("PRAGMA foreign_keys").Scan(&fk).Error)
	assert.Equal(t, 1, fk)
	var cols []struct{ Name string }
	require.NoError(t, s.reader.Raw("PRAGMA table_info(users)").Scan(&cols).Error)
	names := []string{}
	for _, c := range cols {
		names = append(names, c.Name)
	}
	assert.ElementsMatch(t, []string{"id", "email", "name", "picture", "role", "is_admin", "created_at", "password_hash", "telegram_id", "token_version"}, names)
}

func TestDefaultsOfStoredRecords(t *testing.T) {
	s, _ := openTemp(t)
	require.NoError(t, s.writer.Exec(`INSERT INTO users (email, name) VALUES ('a@b.c', 'A')`).Error)
	var u struct {
		Role      string
		IsAdmin   bool
		CreatedAt string
	}
	require.NoError(t, s.reader.Raw(`SELECT role, is_admin, created_at FROM users`).Scan(&u).Error)
	assert.Equal(t, "user", u.Role)
	assert.False(t, u.IsAdmin)
	assert.NotEmpty(t, u.CreatedAt)
	require.NoError(t, s.writer.Exec(`INSERT INTO media (disk_name, path, media_type) VALUES ('d', '/m.mkv', 'movie')`).Error)
	var m struct{ ParentID, EpisodeScanSkipped int }
	require.NoError(t, s.reader.Raw(`SELECT parent_id, episode_scan_skipped FROM media`).Scan(&m).Error)
	assert.Zero(t, m.ParentID)
	assert.Zero(t, m.EpisodeScanSkipped)
	err := s.writer.Exec(`INSERT INTO media (disk_name, path, media_type) VALUES ('d', '/x.mkv', 'song')`).Error
	assert.Error(t, err, "media_type is checked")
}

func TestReopenKeepsDataAndRunsNoStepTwice(t *testing.T) {
	path := filepath.Join(t.TempDir(), "test.db")
	s, err := Open(context.Background(), path)
	require.NoError(t, err)
	_, err = NewUsers(s).Create(context.Background(), domain.User{Email: "keep@me.org", Name: "Keep"})
	require.NoError(t, err)
	require.NoError(t, s.Close())

	s, err = Open(context.Background(), path)
	require.NoError(t, err)
	defer s.Close()
	u, err := NewUsers(s).ByEmail(context.Background(), "KEEP@me.org")
	require.NoError(t, err)
	assert.Equal(t, "Keep", u.Name)
	var n int64
	require.NoError(t, s.reader.Raw(`SELECT count(*) FROM schema_migrations`).Scan(&n).Error)
	assert.Equal(t, int64(len(migrations())), n)
}

func TestPendingStepAppliesToExistingDatabase(t *testing.T) {
	s, _ := openTemp(t)
	ran := 0
	extra := append(migrations(), migration{version: 999, name: "test column", up: func(tx *gorm.DB) error {
		ran++
		return tx.Exec(`ALTER TABLE settings ADD COLUMN note TEXT`).Error
	}})
	require.NoError(t, migrate(context.Background(), s.writer, extra))
	require.NoError(t, migrate(context.Background(), s.writer, extra))
	assert.Equal(t, 1, ran, "a recorded step never runs again")
	assert.True(t, s.writer.Migrator().HasColumn("settings", "note"))

	failing := append(extra, migration{version: 1000, name: "broken", up: func(tx *gorm.DB) error {
		if err := tx.Exec(`CREATE TABLE half (id INTEGER)`).Error; err != nil {
			return err
		}
		return fmt.Errorf("boom")
	}})
	require.Error(t, migrate(context.Background(), s.writer, failing))
	assert.False(t, s.writer.Migrator().HasTable("half"), "a failed step leaves nothing behind")
}

func TestCascades(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	u, err := NewUsers(s).Create(ctx, domain.User{Email: "x@y.z", Name: "X"})
	require.NoError(t, err)
	require.NoError(t, NewActivity(s).Add(ctx, domain.Activity{UserID: u.ID, Action: "login"}))
	require.NoError(t, NewUsers(s).Delete(ctx, u.ID))
	var n int64
	require.NoError(t, s.reader.Raw(`SELECT count(*) FROM user_activity`).Scan(&n).Error)
	assert.Zero(t, n, "activity goes with its user")

	require.NoError(t, s.writer.Exec(`INSERT INTO media (id, disk_name, path, media_type) VALUES (7, 'd', '/a.mkv', 'movie')`).Error)
	require.NoError(t, s.writer.Exec(`INSERT INTO media_vector (media_id, embedder, dimensions, content_hash, embedding) VALUES (7, 'local', 1, 'h', x'0000803f')`).Error)
	require.NoError(t, s.writer.Exec(`DELETE FROM media WHERE id = 7`).Error)
	require.NoError(t, s.reader.Raw(`SELECT count(*) FROM media_vector`).Scan(&n).Error)
	assert.Zero(t, n, "vectors go with their media")
}

func TestUserErrorsAreDomainErrors(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	users := NewUsers(s)
	_, err := users.Create(ctx, domain.User{Email: "dup@x.org", Name: "A"})
	require.NoError(t, err)
	_, err = users.Create(ctx, domain.User{Email: "dup@x.org", Name: "B"})
	assert.True(t, domain.IsKind(err, domain.KindConflict), "%v", err)
	_, err = users.ByID(ctx, 12345)
	assert.True(t, domain.IsKind(err, domain.KindNotFound), "%v", err)
	assert.True(t, domain.IsKind(users.Delete(ctx, 12345), domain.KindNotFound))
}

func TestReadPoolRefusesWrites(t *testing.T) {
	s, _ := openTemp(t)
	assert.Error(t, s.reader.Exec(`INSERT INTO settings (key, value) VALUES ('a', 'b')`).Error)
}

func TestConcurrentWritersNeverSeeLocked(t *testing.T) {
	s, _ := openTemp(t)
	settings := NewSettings(s)
	var wg sync.WaitGroup
	errs := make(chan error, 400)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				if _, err := settings.Set(context.Background(), fmt.Sprintf("k%d.%d", g, i), "v"); err != nil {
					errs <- err
				}
				if _, err := settings.Get(context.Background(), fmt.Sprintf("k%d.%d", g, i)); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func TestSettingsUpsert(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	st := NewSettings(s)
	_, err := st.Get(ctx, domain.SettingSystemInstruction)
	assert.True(t, domain.IsKind(err, domain.KindNotFound))
	_, err = st.Set(ctx, domain.SettingSystemInstruction, "one")
	require.NoError(t, err)
	_, err = st.Set(ctx, domain.SettingSystemInstruction, "two")
	require.NoError(t, err)
	got, err := st.Get(ctx, domain.SettingSystemInstruction)
	require.NoError(t, err)
	assert.Equal(t, "two", got.Value)
	assert.False(t, got.UpdatedAt.IsZero())
}
