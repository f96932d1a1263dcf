package sqlstore

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

// TestAccountsMigrationFoldsEmailsAndKeepsCollisions builds a database as
// release 3 left it, with e-mails in mixed case, and opens it with 0004.
func TestAccountsMigrationFoldsEmailsAndKeepsCollisions(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	old, err := openPool(path, false, 1)
	require.NoError(t, err)
	require.NoError(t, migrate(ctx, old, migrations()[:3]))
	for _, email := range []string{"Anna@Example.org", "U@x.org", "u@x.org", " Both@Y.org", "BOTH@y.org"} {
		require.NoError(t, old.Exec(`INSERT INTO users (email, name) VALUES (?, 'n')`, email).Error)
	}
	db, _ := old.DB()
	require.NoError(t, db.Close())

	s, err := Open(ctx, path)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	users := NewUsers(s)
	n, err := users.Count(ctx)
	require.NoError(t, err)
	assert.EqualValues(t, 5, n, "no account is lost")

	all, err := users.List(ctx, 10, 0)
	require.NoError(t, err)
	var emails []string
	for _, u := range all {
		emails = append(emails, u.Email)
		assert.Zero(t, u.TokenVersion)
	}
	assert.Equal(t, []string{"anna@example.org", "U@x.org", "u@x.org", "both@y.org", "BOTH@y.org"}, emails,
		"lone rows are folded; of a colliding group only the oldest, and only when no row has the folded form")

	dups, err := users.DuplicateEmails(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"both@y.org", "u@x.org"}, dups)

	for _, again := range []string{"ANNA@example.org", "u@X.org", "Both@y.org"} {
		_, err = users.Create(ctx, domain.User{Email: again, Name: "x"})
		assert.True(t, domain.IsKind(err, domain.KindConflict), "%s: %v", again, err)
	}
}

func TestUserTokenVersionRoundTrips(t *testing.T) {
	s, _ := openTemp(t)
	users := NewUsers(s)
	ctx := context.Background()
	u, err := users.Create(ctx, domain.User{Email: " New@Example.org ", Name: "N"})
	require.NoError(t, err)
	assert.Equal(t, "new@example.org", u.Email, "stored normalised")
	u.TokenVersion = 3
	_, err = users.Update(ctx, u)
	require.NoError(t, err)
	got, err := users.ByEmail(ctx, "NEW@example.ORG")
	require.NoError(t, err)
	assert.EqualValues(t, 3, got.TokenVersion)
}
