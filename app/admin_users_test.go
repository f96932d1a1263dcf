package app

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The Users tab in Chromium against a real server: an administrator adds
// an account through the form, that account signs in through the API and
// sees the "not an administrator" page; the tab makes it an administrator,
// sets it a new password, makes a Telegram link code and removes the link,
// and deletes it, each change checked through the API; a refused form and
// deleting yourself show the API's refusal. No script error, and no failed
// request but the two provoked.
func TestAdminUsersTab(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, nil)
	api := usersAPI{ta: ta}
	base := serve(t, ta)
	b, closeBrowser := newPageBrowser(t)
	defer closeBrowser()
	dir := t.TempDir()
	admin := ta.login(t, "admin@localhost", ta.initialPassword(t))
	_, me := ta.do(t, "GET", "/api/auth/me", admin, nil)
	adminID := int64(me["id"].(float64))
	for _, email := range []string{"anna@example.org", "boris@example.org"} { // a list worth a look
		status, body := api.object(t, "POST", "/api/admin/users", admin, map[string]string{"email": email, "password": "some-password"})
		require.Equal(t, 201, status, "%v", body)
	}

	tab := openAdmin(t, b, base, admin, "users")
	ctx := tab.ctx
	eval[any](t, ctx, `localStorage.setItem('mediateka_lang', 'en')`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Reload()))
	waitTab(t, ctx, "users")
	until(t, ctx, "the accounts are listed", `document.querySelectorAll('.user-card[data-email]').length === 3`)
	assert.Contains(t, visibleText(t, ctx, ".pager"), "1–3 of 3")

	// A form the server refuses says why, field by field.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS(`#user-add input[name=email]`), "not-an-address"),
		chromedp.SetValue(chromedp.CSS(`#user-add input[name=password]`), "short")))
	click(t, ctx, `#user-add button[type=submit]`)
	untilToast(t, ctx, "password: must be at least 8 characters")
	untilToast(t, ctx, "email: must be an e-mail address")
	assert.Equal(t, "not-an-address", eval[string](t, ctx, `document.querySelector('#user-add input[name=email]').value`), "the form keeps what was typed")

	// Add an account through the form.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS(`#user-add input[name=email]`), "Newbie@Example.org"),
		chromedp.SetValue(chromedp.CSS(`#user-add input[name=name]`), "Newbie"),
		chromedp.SetValue(chromedp.CSS(`#user-add input[name=password]`), "newbie-password")))
	click(t, ctx, `#user-add button[type=submit]`)
	row := `.user-card[data-email="newbie@example.org"]`
	until(t, ctx, "the new account is listed", fmt.Sprintf(`document.querySelector(%q) !== null`, row))
	untilToast(t, ctx, "Account newbie@example.org created")
	assert.Empty(t, eval[string](t, ctx, `document.querySelector('#user-add input[name=email]').value`), "the form is cleared")
	newbie := ta.login(t, "newbie@example.org", "newbie-password")
	newbieID := eval[string](t, ctx, fmt.Sprintf(`document.querySelector(%q).dataset.id`, row))
	path := "/api/admin/users/" + newbieID

	// Signed in as that account, /admin is the "not an administrator" page.
	// Another origin: its localStorage (the token) is its own.
	other := b.tab(t, "not-admin")
	port := base[strings.LastIndex(base, ":")+1:]
	openSignedIn(t, other, "http://localhost:"+port, newbie, "/healthz")
	eval[any](t, other, `localStorage.setItem('mediateka_lang', 'en')`)
	require.NoError(t, chromedp.Do(other, chromedp.Navigate("http://localhost:"+port+"/admin")))
	until(t, other, "the not-an-administrator page", `!document.getElementById('not-admin').hidden`)
	assert.Contains(t, visibleText(t, other, "#not-admin"), "You are not an administrator")
	assert.Contains(t, visibleText(t, other, "#not-admin"), "newbie@example.org")
	assert.True(t, eval[bool](t, other, `document.getElementById('tabs').hidden`), "no panel")

	// Make them an administrator: the API says so, and their token of
	// before is refused.
	click(t, ctx, row+` button[data-act=role]`)
	until(t, ctx, "the role shows", fmt.Sprintf(`document.querySelector(%q).innerText.includes('administrator')`, row+` .role`))
	untilToast(t, ctx, "newbie@example.org is now administrator")
	list, _ := api.list(t, admin, "")
	require.Len(t, list, 4)
	assert.Equal(t, true, list[3]["is_admin"])
	assert.Equal(t, "admin", list[3]["role"])
	status, _ := api.object(t, "GET", "/api/auth/me", newbie, nil)
	assert.Equal(t, 401, status, "the role change closed their earlier session")
	assert.Equal(t, "Make user", visibleText(t, ctx, row+` button[data-act=role]`))

	// Set a new password: the old one fails, the new one works.
	click(t, ctx, row+` button[data-act=password]`)
	until(t, ctx, "the password form opens", `document.querySelector('.user-panel[data-panel=password] input') !== null`)
	require.NoError(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS(`.user-panel input[name=new-password]`), "newbie-second-password")))
	click(t, ctx, `.user-panel button[type=submit]`)
	untilToast(t, ctx, "The password of newbie@example.org is changed")
	status, _ = api.object(t, "POST", "/api/auth/login", "", map[string]string{"email": "newbie@example.org", "password": "newbie-password"})
	assert.Equal(t, 401, status, "the old password fails")
	newbie = ta.login(t, "newbie@example.org", "newbie-second-password")
	list, _ = api.list(t, newbie, "") // the new password signs in, as an administrator
	assert.Len(t, list, 4)

	// A Telegram link code, shown with what to send to the bot; the bot
	// redeems it, and the tab removes the link.
	click(t, ctx, row+` button[data-act=code]`)
	until(t, ctx, "the link code shows", `document.querySelector('.user-panel [data-code]') !== null`)
	code := eval[string](t, ctx, `document.querySelector('.user-panel [data-code]').dataset.code`)
	assert.Regexp(t, `^[A-Z2-9]{10}$`, code)
	panel := visibleText(t, ctx, ".user-panel")
	assert.Contains(t, panel, "Send /link "+code+" to the bot")
	assert.Contains(t, panel, "Valid until")
	eval[any](t, ctx, `window.scrollTo(0, 0); document.getElementById('toasts').replaceChildren()`) // the code, not the messages over it
	screenshot(t, ctx, dir, "admin-users-code-1280-en")
	_, err := ta.uc.telegram.Redeem(t.Context(), code, 5151)
	require.NoError(t, err, "the code shown is the bot's code")
	adminShots(t, ctx, dir, "users", "admin-users")
	look(t, ctx, 1280, "light", "en")
	require.NoError(t, chromedp.Do(ctx, chromedp.Reload()))
	waitTab(t, ctx, "users")
	until(t, ctx, "the link shows", fmt.Sprintf(`document.querySelector(%q).innerText.includes('5151')`, row+` .telegram`))
	click(t, ctx, row+` button[data-act=unlink]`)
	untilToast(t, ctx, "Telegram unlinked from newbie@example.org")
	list, _ = api.list(t, admin, "")
	assert.Nil(t, list[3]["telegram_id"])
	newbie = ta.login(t, "newbie@example.org", "newbie-second-password")

	// Delete them, after a confirmation.
	click(t, ctx, row+` button[data-act=delete]`)
	until(t, ctx, "the confirmation shows", fmt.Sprintf(`document.querySelector(%q) !== null`, row+` .confirm button[data-confirm=yes]`))
	assert.Contains(t, visibleText(t, ctx, row+" .confirm"), "Delete newbie@example.org?")
	click(t, ctx, row+` .confirm button[data-confirm=yes]`)
	until(t, ctx, "the row is gone", fmt.Sprintf(`document.querySelector(%q) === null`, row))
	untilToast(t, ctx, "newbie@example.org deleted")
	status, body := api.object(t, "PATCH", path, admin, map[string]string{"name": "x"})
	assert.Equal(t, 404, status, "%v", body)
	status, _ = api.object(t, "GET", "/api/auth/me", newbie, nil)
	assert.Equal(t, 401, status, "a deleted account's token is refused")

	// Deleting yourself: the API's refusal, word for word.
	self := fmt.Sprintf(`.user-card[data-id="%d"]`, adminID)
	click(t, ctx, self+` button[data-act=delete]`)
	until(t, ctx, "the confirmation shows", fmt.Sprintf(`document.querySelector(%q) !== null`, self+` .confirm button[data-confirm=yes]`))
	click(t, ctx, self+` .confirm button[data-confirm=yes]`)
	status, body = api.object(t, "DELETE", fmt.Sprintf("/api/admin/users/%d", adminID), admin, nil)
	require.Equal(t, 409, status)
	untilToast(t, ctx, body["error"].(map[string]any)["message"].(string))
	assert.NotNil(t, eval[any](t, ctx, fmt.Sprintf(`document.querySelector(%q)`, self)), "still listed")

	// Demoting yourself or setting your own password signs you out: each
	// asks first, and No changes nothing.
	click(t, ctx, self+` button[data-act=role]`)
	until(t, ctx, "demoting yourself asks", fmt.Sprintf(`document.querySelector(%q)?.closest('.confirm')?.innerText.includes('Make yourself a user?')`, self+` button[data-confirm=no]`))
	click(t, ctx, self+` button[data-confirm=no]`)
	click(t, ctx, self+` button[data-act=password]`)
	until(t, ctx, "the password form opens", fmt.Sprintf(`document.querySelector(%q) !== null`, self+` .user-panel[data-panel=password] input`))
	require.NoError(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS(self+` .user-panel input[name=new-password]`), "admin-new-password")))
	eval[bool](t, ctx, fmt.Sprintf(`(document.querySelector(%q).requestSubmit(), true)`, self+` .user-panel form`))
	until(t, ctx, "your own password asks", fmt.Sprintf(`document.querySelector(%q)?.innerText.includes('Change your own password?')`, self+` .user-panel .confirm`))
	click(t, ctx, self+` .user-panel button[data-confirm=no]`)
	_, me = ta.do(t, "GET", "/api/auth/me", admin, nil)
	assert.Equal(t, true, me["is_admin"], "still an administrator, still signed in")

	tab.noFailedRequests(t, fmt.Sprintf("409 %s/api/admin/users/%d", base, adminID), fmt.Sprintf("400 %s/api/admin/users", base))
	b.noProblems(t)
	if out := os.Getenv("MEDIATEKA_SCREENSHOTS"); out != "" {
		t.Logf("screenshots in %s", out)
	}
}

// untilToast waits for a message of the page that contains text.
func untilToast(t *testing.T, ctx context.Context, text string) {
	t.Helper()
	until(t, ctx, "the message "+text, fmt.Sprintf(
		`[...document.querySelectorAll('#toasts .toast')].some((n) => n.textContent.includes(%q))`, text))
}
