package http

import (
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/usecase/tts"
)

// TestSendAudioOfAnEvictedFile: a cached file evicted between the cache's
// answer and the send is the plain 404 of an absent audio file, never an
// answer naming a path of the server's disk; one present is served, byte
// ranges included.
func TestSendAudioOfAnEvictedFile(t *testing.T) {
	dir := t.TempDir()
	name := strings.Repeat("a", 64) + ".mp3"
	path := filepath.Join(dir, name)
	app := fiber.New(fiber.Config{ErrorHandler: errorHandler(slog.New(slog.DiscardHandler))})
	app.Get("/file", func(c *fiber.Ctx) error {
		return sendAudio(c, tts.File{Name: name, Path: path, Format: domain.AudioMP3})
	})

	resp, err := app.Test(httptest.NewRequest("GET", "/file", nil))
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	assert.Equal(t, 404, resp.StatusCode)
	assert.NotContains(t, strings.ToLower(string(body)), strings.ToLower(dir), "the answer names a path of the server")
	assert.Contains(t, string(body), `"code":"not_found"`)
	assert.Contains(t, string(body), "audio file "+name)

	audio := strings.Repeat("x", 100_000)
	require.NoError(t, os.WriteFile(path, []byte(audio), 0o600))
	resp, err = app.Test(httptest.NewRequest("GET", "/file", nil))
	require.NoError(t, err)
	body, _ = io.ReadAll(resp.Body)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "audio/mpeg", resp.Header.Get("Content-Type"))
	assert.Equal(t, "private, max-age=86400, immutable", resp.Header.Get("Cache-Control"))
	assert.Equal(t, len(audio), len(body))

	req := httptest.NewRequest("GET", "/file", nil)
	req.Header.Set("Range", "bytes=10-19")
	resp, err = app.Test(req)
	require.NoError(t, err)
	body, _ = io.ReadAll(resp.Body)
	assert.Equal(t, 206, resp.StatusCode)
	assert.Equal(t, "xxxxxxxxxx", string(body))
}
