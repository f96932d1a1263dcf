package sqlstore

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

func TestByPathFindsTheExactPathOnly(t *testing.T) {
	r, _ := newMediaRepo(t)
	ctx := context.Background()
	ids, err := r.ApplyScan(ctx, []domain.MediaChange{{Media: fileMedia("/films/Heat (1995).mkv", "Heat", domain.MediaMovie)}})
	require.NoError(t, err)

	got, err := r.ByPath(ctx, "/films/Heat (1995).mkv")
	require.NoError(t, err)
	assert.Equal(t, ids["/films/Heat (1995).mkv"], got.ID)
	assert.Equal(t, "Heat", got.Title)

	for _, p := range []string{"/films/heat (1995).mkv", "/films/../films/Heat (1995).mkv", "/films/Heat (1995).mkv ", "/films", ""} {
		_, err := r.ByPath(ctx, p)
		assert.ErrorIs(t, err, domain.ErrMediaNotFound, "%q", p)
	}
}
