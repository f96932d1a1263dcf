package httperr

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRedactDropsTheURLAndKeepsTheCause(t *testing.T) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, "http://user:pw@127.0.0.1:1/api?apikey=SECRET", nil)
	assert.NoError(t, err)
	_, err = http.DefaultClient.Do(req)
	assert.Contains(t, err.Error(), "SECRET", "the transport's error names the URL")
	red := Redact(err)
	assert.NotContains(t, red.Error(), "SECRET")
	assert.NotContains(t, red.Error(), "pw")
	assert.Contains(t, red.Error(), "Get")
	plain := errors.New("plain")
	assert.Equal(t, plain, Redact(plain))
}
