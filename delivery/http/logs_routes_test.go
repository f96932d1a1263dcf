package http

import (
	"net/http/httptest"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/usecase/logs"
)

// TestReadQueryOutlivesTheRequest: Fiber hands out query values that
// share the request's buffer, reused by the next request; the query the
// use case gets (and may keep, as the line-count cache keeps the name)
// must not change afterwards.
func TestReadQueryOutlivesTheRequest(t *testing.T) {
	app := fiber.New()
	var kept []logs.Query
	app.Get("/read", func(c *fiber.Ctx) error {
		q, err := readQuery(c)
		kept = append(kept, q)
		return err
	})
	for _, name := range []string{"aaaa.log", "bbbb.log"} {
		resp, err := app.Test(httptest.NewRequest("GET", "/read?filename="+name+"&level=warn&q=x"+name[:1], nil))
		require.NoError(t, err)
		_ = resp.Body.Close()
	}
	require.Len(t, kept, 2)
	assert.Equal(t, "aaaa.log", kept[0].Filename)
	assert.Equal(t, "xa", kept[0].Q)
	assert.Equal(t, "bbbb.log", kept[1].Filename)
}
