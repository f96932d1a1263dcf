package auth

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/sqlstore"
	"mediateka/repository/sqlstore/sqlstoretest"
)

// userAdminFixture is user administration over a real SQLite store with
// one administrator, boss@example.org / "boss-password".
type userAdminFixture struct {
	svc   *Service
	admin *UserAdmin
	tg    *Telegram
	db    *sqlstoretest.DB
	boss  domain.User
}

func newUserAdmin(t *testing.T) userAdminFixture {
	t.Helper()
	db := sqlstoretest.New(t, nil)
	svc, err := New(db.Users, sqlstore.NewActivity(db.Store), Options{Secret: []byte("a-test-secret-of-enough-length")})
	require.NoError(t, err)
	boss, err := svc.CreateUser(context.Background(), NewUser{Email: "boss@example.org", Password: "boss-password", Admin: true})
	require.NoError(t, err)
	tg := NewTelegram(svc, db.Users, TelegramOptions{BotToken: testBotToken})
	return userAdminFixture{svc: svc, admin: NewUserAdmin(svc.Accounts, db.Users, tg), tg: tg, db: db, boss: boss}
}

func (f userAdminFixture) create(t *testing.T, email, role string) domain.User {
	t.Helper()
	u, err := f.admin.Create(context.Background(), f.boss, AccountRequest{Email: email, Password: "first-password", Role: role})
	require.NoError(t, err)
	return u
}

func fieldsOf(t *testing.T, err error) map[string]string {
	t.Helper()
	var e *domain.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, "invalid_input", e.Code, "%v", err)
	return e.Fields
}

func TestUserAdminCreatesAndLists(t *testing.T) {
	f := newUserAdmin(t)
	ctx := context.Background()
	u, err := f.admin.Create(ctx, f.boss, AccountRequest{Email: " Vera@Example.org ", Name: " Вера ", Password: "vera-password"})
	require.NoError(t, err)
	assert.Equal(t, "vera@example.org", u.Email)
	assert.Equal(t, "Вера", u.Name)
	assert.Equal(t, domain.RoleUser, u.EffectiveRole(), "role defaults to user")
	assert.False(t, u.IsAdmin)
	_, err = f.svc.Login(ctx, "vera@example.org", "vera-password", "1.2.3.4")
	require.NoError(t, err, "the new account signs in")

	a := f.create(t, "ann@example.org", domain.RoleAdmin)
	assert.True(t, a.IsAdmin && a.Role == domain.RoleAdmin, "admins carry both flags")

	err = nil
	_, err = f.admin.Create(ctx, f.boss, AccountRequest{Email: "VERA@example.org", Password: "other-password"})
	var e *domain.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "already_exists", e.Code, "the same e-mail in another case")

	_, err = f.admin.Create(ctx, f.boss, AccountRequest{Email: "not an address", Password: "short", Role: "root"})
	assert.Equal(t, map[string]string{"email": "must be an e-mail address", "password": "must be at least 8 characters",
		"role": `must be "user" or "admin"`}, fieldsOf(t, err), "every bad field is named at once")
	_, err = f.admin.Create(ctx, f.boss, AccountRequest{Email: "nopass@example.org"})
	assert.Contains(t, fieldsOf(t, err), "password", "an administrator gives every account a password")

	page, err := f.admin.List(ctx, new(2), 1)
	require.NoError(t, err)
	assert.EqualValues(t, 3, page.Total)
	require.Len(t, page.Items, 2)
	assert.Equal(t, []string{"vera@example.org", "ann@example.org"}, []string{page.Items[0].Email, page.Items[1].Email}, "by id")
	page, err = f.admin.List(ctx, nil, 0)
	require.NoError(t, err)
	assert.Len(t, page.Items, 3)
	page, err = f.admin.List(ctx, new(0), 0)
	require.NoError(t, err)
	assert.Empty(t, page.Items)
	assert.EqualValues(t, 3, page.Total, "limit 0: the count alone")
	_, err = f.admin.List(ctx, new(1001), -1)
	assert.Equal(t, map[string]string{"limit": "must be between 0 and 1000", "offset": "must be 0 or more"}, fieldsOf(t, err))
}

func TestUserAdminRoleAndPasswordChangesStopOldTokens(t *testing.T) {
	f := newUserAdmin(t)
	ctx := context.Background()
	vera := f.create(t, "vera@example.org", "")
	l, err := f.svc.Login(ctx, "vera@example.org", "first-password", "")
	require.NoError(t, err)

	same, err := f.admin.Update(ctx, f.boss, vera.ID, AccountChange{Name: new("  Vera V. "), Role: new(domain.RoleUser)})
	require.NoError(t, err)
	assert.Equal(t, "Vera V.", same.Name)
	_, err = f.svc.VerifyToken(ctx, l.Token)
	assert.NoError(t, err, "a name, or a role it already has, keeps the sessions")

	promoted, err := f.admin.Update(ctx, f.boss, vera.ID, AccountChange{IsAdmin: new(true)})
	require.NoError(t, err)
	assert.True(t, promoted.IsAdmin && promoted.Role == domain.RoleAdmin, "is_admin alone sets both flags")
	_, err = f.svc.VerifyToken(ctx, l.Token)
	assert.ErrorIs(t, err, domain.ErrUnauthorized, "a role change stops the tokens issued before")

	l, err = f.svc.Login(ctx, "vera@example.org", "first-password", "")
	require.NoError(t, err)
	reset, err := f.admin.Update(ctx, f.boss, vera.ID, AccountChange{Password: new("second-password")})
	require.NoError(t, err)
	assert.NotContains(t, reset.PasswordHash, "second-password")
	_, err = f.svc.VerifyToken(ctx, l.Token)
	assert.ErrorIs(t, err, domain.ErrUnauthorized, "a new password stops the tokens issued before")
	_, err = f.svc.Login(ctx, "vera@example.org", "first-password", "")
	assert.ErrorIs(t, err, domain.ErrInvalidCredentials, "the old password is gone")
	l, err = f.svc.Login(ctx, "vera@example.org", "second-password", "")
	require.NoError(t, err)

	demoted, err := f.admin.Update(ctx, f.boss, vera.ID, AccountChange{Role: new(domain.RoleUser), IsAdmin: new(false)})
	require.NoError(t, err)
	assert.False(t, demoted.Admin())
	_, err = f.svc.VerifyToken(ctx, l.Token)
	assert.ErrorIs(t, err, domain.ErrUnauthorized)

	for _, bad := range []struct {
		ch    AccountChange
		field string
	}{
		{AccountChange{Role: new(domain.RoleAdmin), IsAdmin: new(false)}, "is_admin"},
		{AccountChange{Role: new("owner")}, "role"},
		{AccountChange{Name: new("   ")}, "name"},
		{AccountChange{Password: new("short")}, "password"},
	} {
		_, err = f.admin.Update(ctx, f.boss, vera.ID, bad.ch)
		assert.Contains(t, fieldsOf(t, err), bad.field)
	}
	_, err = f.admin.Update(ctx, f.boss, 9999, AccountChange{Name: new("x")})
	assert.True(t, domain.IsKind(err, domain.KindNotFound), "%v", err)
	stored, err := f.db.Users.ByID(ctx, vera.ID)
	require.NoError(t, err)
	assert.Equal(t, "Vera V.", stored.Name, "refused changes wrote nothing")
}

func TestUserAdminKeepsTheServerReachable(t *testing.T) {
	f := newUserAdmin(t)
	ctx := context.Background()
	vera := f.create(t, "vera@example.org", "")

	assert.ErrorIs(t, f.admin.Delete(ctx, f.boss, f.boss.ID), ErrCannotDeleteSelf)
	_, err := f.admin.Update(ctx, f.boss, f.boss.ID, AccountChange{Role: new(domain.RoleUser)})
	assert.ErrorIs(t, err, ErrLastAdmin, "the last admin cannot demote themselves")
	assert.ErrorIs(t, f.admin.Delete(ctx, vera, f.boss.ID), ErrLastAdmin, "nor be deleted (the rule holds whoever asks)")
	stored, err := f.db.Users.ByID(ctx, f.boss.ID)
	require.NoError(t, err)
	assert.True(t, stored.Admin())

	l, err := f.svc.Login(ctx, "vera@example.org", "first-password", "")
	require.NoError(t, err)
	require.NoError(t, f.admin.Delete(ctx, f.boss, vera.ID))
	_, err = f.svc.VerifyToken(ctx, l.Token)
	assert.ErrorIs(t, err, domain.ErrUnauthorized, "a deleted account's token is refused at once")
	assert.True(t, domain.IsKind(f.admin.Delete(ctx, f.boss, vera.ID), domain.KindNotFound))

	second := f.create(t, "second@example.org", domain.RoleAdmin)
	_, err = f.admin.Update(ctx, f.boss, f.boss.ID, AccountChange{IsAdmin: new(false)})
	require.NoError(t, err, "with another admin, one may step down")
	_, err = f.admin.Update(ctx, second, second.ID, AccountChange{Role: new(domain.RoleUser)})
	assert.ErrorIs(t, err, ErrLastAdmin)
}

// Two administrators, on two connections to the file as two processes
// would have, each demote themselves at the same moment: exactly one
// succeeds, and one administrator is left.
func TestUserAdminLastAdminRuleHoldsUnderRaces(t *testing.T) {
	for round := range 5 {
		f := newUserAdmin(t)
		ctx := context.Background()
		other := f.create(t, "other@example.org", domain.RoleAdmin)
		elsewhere := NewUserAdmin(f.svc.Accounts, f.db.Another().Users, f.tg)
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, job := range []struct {
			ua *UserAdmin
			u  domain.User
		}{{f.admin, f.boss}, {elsewhere, other}} {
			wg.Go(func() {
				_, errs[i] = job.ua.Update(ctx, job.u, job.u.ID, AccountChange{Role: new(domain.RoleUser)})
			})
		}
		wg.Wait()
		failed := 0
		for _, err := range errs {
			if err != nil {
				assert.ErrorIs(t, err, ErrLastAdmin, "round %d", round)
				failed++
			}
		}
		assert.Equal(t, 1, failed, "round %d: exactly one stepped down", round)
		all, err := f.db.Users.List(ctx, 10, 0)
		require.NoError(t, err)
		admins := 0
		for _, u := range all {
			if u.Admin() {
				admins++
			}
		}
		assert.Equal(t, 1, admins, "round %d", round)
	}
}

func TestUserAdminTelegramLinkCodeAndUnlink(t *testing.T) {
	f := newUserAdmin(t)
	ctx := context.Background()
	vera := f.create(t, "vera@example.org", "")
	code, err := f.admin.LinkCode(ctx, f.boss, vera.ID)
	require.NoError(t, err)
	assert.Regexp(t, `^[A-HJKMNP-TV-Z2-9]{10}$`, code.Code)
	linked, err := f.tg.Redeem(ctx, code.Code, 4242)
	require.NoError(t, err, "the administrator's code is the bot's code")
	assert.Equal(t, vera.ID, linked.ID, "and links the chosen account, not the administrator's")
	_, err = f.admin.LinkCode(ctx, f.boss, 9999)
	assert.True(t, domain.IsKind(err, domain.KindNotFound), "%v", err)

	l, err := f.svc.Login(ctx, "vera@example.org", "first-password", "")
	require.NoError(t, err)
	u, err := f.admin.UnlinkTelegram(ctx, f.boss, vera.ID)
	require.NoError(t, err)
	assert.Nil(t, u.TelegramID)
	_, found, err := f.tg.ByTelegramID(ctx, 4242)
	require.NoError(t, err)
	assert.False(t, found)
	_, err = f.svc.VerifyToken(ctx, l.Token)
	assert.ErrorIs(t, err, domain.ErrUnauthorized, "the unlinked Telegram user's sessions end")
	again, err := f.admin.UnlinkTelegram(ctx, f.boss, vera.ID)
	require.NoError(t, err, "unlinking an unlinked account changes nothing")
	assert.Equal(t, u.TokenVersion, again.TokenVersion)
}
