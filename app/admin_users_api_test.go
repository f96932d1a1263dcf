package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

// usersAPI calls /api/admin/users and checks that no answer carries a
// password hash, whatever the route or status.
type usersAPI struct {
	ta *testApp
}

// call sends a request and returns the status and the raw body.
func (u usersAPI) call(t *testing.T, method, path, token string, body any) (*http.Response, []byte) {
	t.Helper()
	var r io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		require.NoError(t, err)
		r = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, path, r)
	require.NoError(t, err)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := u.ta.HTTP().App().Test(req, 10_000)
	require.NoError(t, err)
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	for _, secret := range []string{"argon2", "password_hash", "$v=19$"} {
		assert.NotContains(t, string(raw), secret, "%s %s never answers a password hash", method, path)
	}
	return resp, raw
}

// object is call for answers that are one JSON object.
func (u usersAPI) object(t *testing.T, method, path, token string, body any) (int, map[string]any) {
	t.Helper()
	resp, raw := u.call(t, method, path, token, body)
	var out map[string]any
	if len(raw) > 0 {
		require.NoError(t, json.Unmarshal(raw, &out), "%s", raw)
	}
	return resp.StatusCode, out
}

// list reads one page of accounts and X-Total-Count.
func (u usersAPI) list(t *testing.T, token, query string) ([]map[string]any, string) {
	t.Helper()
	resp, raw := u.call(t, "GET", "/api/admin/users"+query, token, nil)
	require.Equal(t, 200, resp.StatusCode, "%s", raw)
	var out []map[string]any
	require.NoError(t, json.Unmarshal(raw, &out))
	return out, resp.Header.Get("X-Total-Count")
}

// newUsersApp is an app whose first administrator is signed in; it also
// returns an ordinary account's token.
func newUsersApp(t *testing.T) (api usersAPI, admin, user string, adminID float64) {
	t.Helper()
	ta := newTestApp(t, nil)
	api = usersAPI{ta: ta}
	admin = ta.login(t, "admin@localhost", ta.initialPassword(t))
	status, body := api.object(t, "POST", "/api/admin/users", admin, map[string]string{"email": "plain@example.org", "password": "plain-password"})
	require.Equal(t, 201, status, "%v", body)
	_, me := ta.do(t, "GET", "/api/auth/me", admin, nil)
	return api, admin, ta.login(t, "plain@example.org", "plain-password"), me["id"].(float64)
}

func TestAdminUsersAPIIsForAdminsOnly(t *testing.T) {
	api, _, user, adminID := newUsersApp(t)
	id := fmt.Sprint(adminID)
	for _, r := range []struct{ method, path string }{
		{"GET", "/api/admin/users"}, {"POST", "/api/admin/users"}, {"PATCH", "/api/admin/users/" + id},
		{"DELETE", "/api/admin/users/" + id}, {"POST", "/api/admin/users/" + id + "/telegram-link"},
		{"DELETE", "/api/admin/users/" + id + "/telegram"},
	} {
		status, body := api.object(t, r.method, r.path, "", map[string]any{})
		assert.Equal(t, 401, status, "%s %s without a token", r.method, r.path)
		assert.Equal(t, "unauthorized", errCode(body))
		status, body = api.object(t, r.method, r.path, user, map[string]any{"role": "admin", "is_admin": true})
		assert.Equal(t, 403, status, "%s %s with a user's token", r.method, r.path)
		assert.Equal(t, "forbidden", errCode(body))
	}
	got, _ := api.list(t, api.ta.login(t, "admin@localhost", api.ta.initialPassword(t)), "")
	require.Len(t, got, 2)
	assert.Equal(t, "plain@example.org", got[1]["email"])
	assert.Equal(t, false, got[1]["is_admin"], "the user's own PATCH changed nothing")
}

func TestAdminUsersAPIRefusals(t *testing.T) {
	api, admin, _, adminID := newUsersApp(t)
	self := fmt.Sprintf("/api/admin/users/%d", int64(adminID))
	fields := func(body map[string]any) map[string]any {
		f, _ := body["error"].(map[string]any)["fields"].(map[string]any)
		return f
	}

	status, body := api.object(t, "POST", "/api/admin/users", admin, map[string]string{"email": "nope", "password": "short", "role": "root"})
	assert.Equal(t, 400, status)
	assert.Equal(t, "invalid_input", errCode(body))
	assert.Equal(t, map[string]any{"email": "must be an e-mail address", "password": "must be at least 8 characters",
		"role": `must be "user" or "admin"`}, fields(body))
	status, body = api.object(t, "POST", "/api/admin/users", admin, map[string]string{"email": "PLAIN@example.org", "password": "another-password"})
	assert.Equal(t, 409, status)
	assert.Equal(t, "already_exists", errCode(body))
	status, body = api.object(t, "POST", "/api/admin/users", admin, map[string]any{"email": "x@example.org", "password": 12345678})
	assert.Equal(t, 400, status, "a field of the wrong type")
	assert.Contains(t, fields(body), "password")
	list, total := api.list(t, admin, "")
	assert.Len(t, list, 2, "nothing refused was stored")
	assert.Equal(t, "2", total)

	status, body = api.object(t, "DELETE", self, admin, nil)
	assert.Equal(t, 409, status)
	assert.Equal(t, "cannot_delete_self", errCode(body))
	assert.NotEmpty(t, body["error"].(map[string]any)["message"])
	status, body = api.object(t, "PATCH", self, admin, map[string]any{"role": "user"})
	assert.Equal(t, 409, status)
	assert.Equal(t, "last_admin", errCode(body))
	status, body = api.object(t, "PATCH", self, admin, map[string]any{"is_admin": false})
	assert.Equal(t, 409, status)
	assert.Equal(t, "last_admin", errCode(body))
	status, body = api.object(t, "PATCH", self, admin, map[string]any{"role": "admin", "is_admin": false})
	assert.Equal(t, 400, status)
	assert.Contains(t, fields(body), "is_admin")
	status, body = api.object(t, "PATCH", self, admin, map[string]any{"password": "short", "name": " "})
	assert.Equal(t, 400, status)
	assert.Len(t, fields(body), 2)
	status, _ = api.object(t, "GET", "/api/auth/me", admin, nil)
	assert.Equal(t, 200, status, "refusals changed nothing: the token still works")

	for _, r := range []struct{ method, suffix string }{{"PATCH", ""}, {"DELETE", ""}, {"POST", "/telegram-link"}, {"DELETE", "/telegram"}} {
		status, body = api.object(t, r.method, "/api/admin/users/9999"+r.suffix, admin, map[string]any{"name": "x"})
		assert.Equal(t, 404, status, "%s unknown id%s", r.method, r.suffix)
		assert.Equal(t, "not_found", errCode(body))
		status, body = api.object(t, r.method, "/api/admin/users/abc"+r.suffix, admin, map[string]any{"name": "x"})
		assert.Equal(t, 400, status, "%s id abc%s", r.method, r.suffix)
		assert.Contains(t, fields(body), "id")
	}
	for _, q := range []string{"?limit=1001", "?limit=x", "?offset=-1"} {
		status, body = api.object(t, "GET", "/api/admin/users"+q, admin, nil)
		assert.Equal(t, 400, status, q)
		assert.Equal(t, "invalid_input", errCode(body))
	}
}

func TestAdminUsersAPILifecycle(t *testing.T) {
	api, admin, _, _ := newUsersApp(t)
	status, vera := api.object(t, "POST", "/api/admin/users", admin,
		map[string]string{"email": "Vera@Example.org", "name": "Вера", "password": "vera-password", "role": "user"})
	require.Equal(t, 201, status, "%v", vera)
	for _, k := range []string{"id", "email", "name", "role", "is_admin", "telegram_id", "created_at", "has_password"} {
		assert.Contains(t, vera, k)
	}
	assert.Equal(t, "vera@example.org", vera["email"])
	assert.Equal(t, "user", vera["role"])
	assert.Nil(t, vera["telegram_id"])
	path := fmt.Sprintf("/api/admin/users/%d", int64(vera["id"].(float64)))

	page, total := api.list(t, admin, "?limit=2&offset=1")
	assert.Equal(t, "3", total)
	require.Len(t, page, 2)
	assert.Equal(t, []any{"plain@example.org", "vera@example.org"}, []any{page[0]["email"], page[1]["email"]})

	veraTok := api.ta.login(t, "vera@example.org", "vera-password")
	status, body := api.object(t, "PATCH", path, admin, map[string]any{"role": "admin"})
	require.Equal(t, 200, status, "%v", body)
	assert.Equal(t, true, body["is_admin"])
	status, _ = api.object(t, "GET", "/api/auth/me", veraTok, nil)
	assert.Equal(t, 401, status, "a role change stops the older tokens at once")
	veraTok = api.ta.login(t, "vera@example.org", "vera-password")
	list, _ := api.list(t, veraTok, "")
	assert.Len(t, list, 3, "the promoted account administers")

	status, _ = api.object(t, "PATCH", path, admin, map[string]any{"is_admin": false})
	require.Equal(t, 200, status)
	status, body = api.object(t, "GET", "/api/admin/users", veraTok, nil)
	assert.Equal(t, 401, status, "a demoted administrator's token is refused at once")
	assert.Equal(t, "unauthorized", errCode(body))
	veraTok = api.ta.login(t, "vera@example.org", "vera-password")
	status, body = api.object(t, "GET", "/api/admin/users", veraTok, nil)
	assert.Equal(t, 403, status, "and signed in again, is a user")
	assert.Equal(t, "forbidden", errCode(body))

	status, _ = api.object(t, "PATCH", path, admin, map[string]any{"password": "vera-new-password"})
	require.Equal(t, 200, status)
	status, _ = api.object(t, "GET", "/api/auth/me", veraTok, nil)
	assert.Equal(t, 401, status, "a reset password stops the older tokens at once")
	status, _ = api.object(t, "POST", "/api/auth/login", "", map[string]string{"email": "vera@example.org", "password": "vera-password"})
	assert.Equal(t, 401, status, "the old password fails")
	veraTok = api.ta.login(t, "vera@example.org", "vera-new-password")

	status, code := api.object(t, "POST", path+"/telegram-link", admin, nil)
	require.Equal(t, 200, status, "%v", code)
	assert.Regexp(t, `^[A-Z2-9]{10}$`, code["code"])
	assert.NotEmpty(t, code["expires_at"])
	linked, err := api.ta.uc.telegram.Redeem(t.Context(), code["code"].(string), 777)
	require.NoError(t, err)
	assert.Equal(t, "vera@example.org", linked.Email)
	list, _ = api.list(t, admin, "")
	assert.EqualValues(t, 777, list[2]["telegram_id"], "telegram_id is shown")
	status, body = api.object(t, "DELETE", path+"/telegram", admin, nil)
	require.Equal(t, 200, status)
	assert.Nil(t, body["telegram_id"])
	status, _ = api.object(t, "GET", "/api/auth/me", veraTok, nil)
	assert.Equal(t, 401, status, "the unlinked account's sessions end")
	veraTok = api.ta.login(t, "vera@example.org", "vera-new-password")
	status, pending := api.object(t, "POST", path+"/telegram-link", admin, nil)
	require.Equal(t, 200, status, "%v", pending)

	resp, raw := api.call(t, "DELETE", path, admin, nil)
	require.Equal(t, 204, resp.StatusCode, "%s", raw)
	_, err = api.ta.uc.telegram.Redeem(t.Context(), pending["code"].(string), 778)
	assert.Error(t, err, "a deleted account's pending link code links nothing")
	_, err = api.ta.repos.users.ByTelegramID(t.Context(), 778)
	assert.True(t, domain.IsKind(err, domain.KindNotFound), "nobody is linked to 778: %v", err)
	assert.Empty(t, raw)
	status, body = api.object(t, "GET", "/api/auth/me", veraTok, nil)
	assert.Equal(t, 401, status, "a deleted account's token is refused at the next request")
	assert.Equal(t, "unauthorized", errCode(body))
	status, _ = api.object(t, "DELETE", path, admin, nil)
	assert.Equal(t, 404, status)
	_, total = api.list(t, admin, "?limit=0")
	assert.Equal(t, "2", total)
	assert.False(t, strings.Contains(api.ta.stderr.String(), "vera-new-password"), "passwords are never logged")
}
