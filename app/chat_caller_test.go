package app

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A user asking the chat for what only an admin endpoint does gets a
// refusal in the message's language and nothing starts; the same words
// from an admin start the scan.
func TestChatRefusesAdminActionsToUsers(t *testing.T) {
	t.Parallel()
	la := newLibApp(t, nil)
	la.put(t, libraryFiles())

	for msg, want := range map[string]string{
		"Просканируй библиотеку": "Это может сделать только администратор медиатеки.",
		"scan the library":       "Only an administrator of the library can do that.",
		"Проведи аудит":          "Это может сделать только администратор медиатеки.",
		"find duplicates":        "Only an administrator of the library can do that.",
	} {
		resp, body := la.do(t, "POST", "/api/chat", la.user, map[string]any{"message": msg})
		require.Equal(t, 200, resp.StatusCode, "%v", body)
		assert.Equal(t, want, body["response"], msg)
		assert.Equal(t, "media_organizer", body["handled_by"], msg)
	}
	_, st := la.do(t, "GET", "/api/media-admin/scan/status", la.admin, nil)
	assert.Equal(t, "idle", st["state"], "no scan started: %v", st)
	_, files := la.raw(t, "GET", "/api/media/files", la.user, nil)
	assert.JSONEq(t, "[]", string(files), "nothing was added to the catalogue")

	resp, body := la.do(t, "POST", "/api/chat", la.admin, map[string]any{"message": "Просканируй библиотеку"})
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	assert.Contains(t, body["response"], "Сканирование библиотеки запущено")
	require.Eventually(t, func() bool {
		_, st = la.do(t, "GET", "/api/media-admin/scan/status", la.admin, nil)
		return st["state"] == "completed"
	}, 10*time.Second, 10*time.Millisecond)
	assert.EqualValues(t, 6, st["added"])
}
