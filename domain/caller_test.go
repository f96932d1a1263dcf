package domain

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCallerOfAndTheContext(t *testing.T) {
	admin := CallerOf(User{ID: 7, Email: "a@x.org", IsAdmin: true})
	assert.Equal(t, Caller{UserID: 7, Email: "a@x.org", Role: RoleAdmin, Admin: true}, admin, "either admin flag counts")
	assert.Equal(t, Caller{UserID: 8, Role: RoleUser}, CallerOf(User{ID: 8}))

	got, ok := CallerFrom(WithCaller(context.Background(), admin))
	assert.True(t, ok)
	assert.Equal(t, admin, got)
	got, ok = CallerFrom(context.Background())
	assert.False(t, ok)
	assert.False(t, got.Admin, "no caller is the least-privileged one")
	assert.Zero(t, got.UserID)
}
