package sqlstore_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/sqlstore/sqlstoretest"
)

// TestUserReadsSeeEveryChangeAtOnce: the account every request loads is
// kept in memory, yet a password change (token version), a demotion or a
// deletion — through the repository, by another process or by raw SQL —
// is what the very next read gives.
func TestUserReadsSeeEveryChangeAtOnce(t *testing.T) {
	db := sqlstoretest.New(t, nil)
	ctx := context.Background()
	u := db.User("root@example.org", sqlstoretest.Admin)
	for range 3 { // warm
		got, err := db.Users.ByID(ctx, u.ID)
		require.NoError(t, err)
		require.True(t, got.Admin())
	}

	u.TokenVersion++
	_, err := db.Users.Update(ctx, u)
	require.NoError(t, err)
	got, err := db.Users.ByID(ctx, u.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(1), got.TokenVersion)

	other := db.Another()
	got.TokenVersion = 7
	_, err = other.Users.Update(ctx, got)
	require.NoError(t, err)
	got, err = db.Users.ByID(ctx, u.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(7), got.TokenVersion, "a change by another process")

	db.Exec(`UPDATE users SET role = 'user', is_admin = 0 WHERE id = ?`, u.ID)
	got, err = db.Users.ByID(ctx, u.ID)
	require.NoError(t, err)
	assert.False(t, got.Admin(), "a demotion by raw SQL")

	db.Exec(`DELETE FROM users WHERE id = ?`, u.ID)
	_, err = db.Users.ByID(ctx, u.ID)
	assert.True(t, domain.IsKind(err, domain.KindNotFound), "a deletion: %v", err)
}

// TestCountsAndPagesSeeEveryChangeAtOnce: the total of the file list and
// its pages are kept in memory, yet a record added or changed — by this
// store, by another process (the command-line scan) or by raw SQL — shows
// in the very next count and page.
func TestCountsAndPagesSeeEveryChangeAtOnce(t *testing.T) {
	db := sqlstoretest.New(t, nil)
	ctx := context.Background()
	first := db.Movie("Alien", 1979)
	page := func() []string {
		t.Helper()
		var titles []string
		require.NoError(t, db.Media.Each(ctx, domain.MediaFilter{Type: domain.MediaMovie, Limit: 50}, func(m domain.Media) error {
			titles = append(titles, m.Title)
			return nil
		}))
		return titles
	}
	count := func() int64 {
		t.Helper()
		n, err := db.Media.Count(ctx, domain.MediaFilter{Type: domain.MediaMovie})
		require.NoError(t, err)
		return n
	}
	assert.Equal(t, []string{"Alien"}, page())
	assert.Equal(t, int64(1), count())

	db.Movie("Solaris", 1972)
	assert.Equal(t, []string{"Alien", "Solaris"}, page())
	assert.Equal(t, int64(2), count())

	db.Another().Movie("Stalker", 1979)
	assert.Equal(t, []string{"Alien", "Solaris", "Stalker"}, page(), "added by another process")
	assert.Equal(t, int64(3), count())

	db.Exec(`UPDATE media SET title = 'Alien³' WHERE id = ?`, first.ID)
	db.Exec(`UPDATE media SET media_type = 'episode' WHERE title = 'Solaris'`)
	assert.Equal(t, []string{"Alien³", "Stalker"}, page(), "changed by raw SQL")
	assert.Equal(t, int64(2), count())
}

// TestCachedPageEntriesAreCopies: changing an entry a page gave does not
// change what the next read of the same page gives.
func TestCachedPageEntriesAreCopies(t *testing.T) {
	db := sqlstoretest.New(t, nil)
	ctx := context.Background()
	db.Movie("Alien", 1979, func(m *domain.Media) { m.Genres = []string{"horror"} })
	f := domain.MediaFilter{Limit: 10}
	require.NoError(t, db.Media.Each(ctx, f, func(m domain.Media) error {
		m.Genres[0], *m.Year = "comedy", 2000
		return nil
	}))
	require.NoError(t, db.Media.Each(ctx, f, func(m domain.Media) error {
		assert.Equal(t, []string{"horror"}, m.Genres)
		assert.Equal(t, 1979, *m.Year)
		return nil
	}))
}
