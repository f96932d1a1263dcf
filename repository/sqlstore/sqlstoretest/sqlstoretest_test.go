package sqlstoretest_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/sqlstore/sqlstoretest"
)

func TestBuildersStoreATree(t *testing.T) {
	db := sqlstoretest.New(t, nil)
	movie := db.Movie("Heat", 1995, func(m *domain.Media) { m.MainCategory = "crime" })
	assert.Equal(t, 1995, *movie.Year)
	assert.Equal(t, "crime", movie.MainCategory)
	assert.True(t, movie.HasFile())

	season := db.Series("Dark").Season(1)
	ep := season.Episode(2)
	assert.Equal(t, season.ID, ep.ParentID)
	assert.Equal(t, 2, *ep.Number)
	series, err := db.Media.ByID(context.Background(), season.ParentID)
	require.NoError(t, err)
	assert.Equal(t, domain.MediaSeries, series.MediaType)

	admin := db.User("root@example.org", sqlstoretest.Admin)
	assert.True(t, admin.Admin())
	assert.False(t, db.User("u@example.org").Admin())
}

func TestDataVersionSeesCommitsOnly(t *testing.T) {
	db := sqlstoretest.New(t, nil)
	before := db.DataVersion()
	assert.Equal(t, before, db.DataVersion(), "a read is not a write")
	db.Movie("Solaris", 1972)
	assert.NotEqual(t, before, db.DataVersion())
}

func TestExecAndScanReachTheFile(t *testing.T) {
	db := sqlstoretest.New(t, nil)
	m := db.Movie("Alien", 1979)
	db.Exec(`UPDATE media SET parent_id = 9999 WHERE id = ?`, m.ID)
	var parent int64
	db.Scan(`SELECT parent_id FROM media WHERE id = ?`, []any{m.ID}, &parent)
	assert.Equal(t, int64(9999), parent)
	got, err := db.Media.ByID(context.Background(), m.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(9999), got.ParentID, "the store sees the raw write")
}

func TestAnotherStoreWritesThroughTheFile(t *testing.T) {
	db := sqlstoretest.New(t, nil)
	other := db.Another()
	assert.Equal(t, db.Path, other.Path)
	dark := other.Series("Dark", sqlstoretest.Year(2017))
	got, err := db.Media.ByID(context.Background(), dark.ID)
	require.NoError(t, err)
	assert.Equal(t, "Dark", got.Title)
	require.NotNil(t, got.Year)
	assert.Equal(t, 2017, *got.Year, "Year sets what the series builder takes no argument for")
}
