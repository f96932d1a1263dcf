package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"mediateka/domain"
)

// GoogleConfig configures Google sign-in. The endpoint URLs default to
// Google's in config and point at a local fake provider in tests.
type GoogleConfig struct {
	ClientID      string
	ClientSecret  string
	RedirectURI   string
	AuthURL       string
	TokenURL      string
	UserinfoURL   string
	AllowedEmails []string
	StateTTL      time.Duration
	// MaxPending caps the sign-ins in progress (and, separately, the
	// one-time codes not yet exchanged); at the cap the oldest is dropped.
	// Default 10 000.
	MaxPending int
	HTTPClient *http.Client
}

// CodeTTL is how long the one-time code that ends a Google sign-in stays
// valid: the home page exchanges it as soon as it loads.
const CodeTTL = 60 * time.Second

// Google runs the OAuth authorization-code flow. States are kept in memory,
// bound to the browser by a cookie and usable once. A finished sign-in
// yields a one-time code, not a token, so no token ever travels in a URL;
// the code is bound to the browser that finished the sign-in too, so a
// code taken from someone else's sign-in signs nobody in.
type Google struct {
	auth   *Service
	users  UserStore
	cfg    GoogleConfig
	oauth  oauth2.Config
	states *expiring[struct{}]
	codes  *expiring[pendingCode] // one-time code → whose, and for which browser
	starts *throttle              // sign-in starts per client address
}

// maxStartsPerAddress bounds the sign-ins one client address may have
// started within a state's lifetime. The state map drops its oldest entry
// at the cap, so without this bound one address could push every other
// person's sign-in in progress out of it; with it a flood needs the cap
// divided by this many addresses. A person clicks the button a few times.
const maxStartsPerAddress = 20

// pendingCode is a one-time code not yet exchanged: the user it signs in
// and the SHA-256 of the binding secret the browser holds in a cookie (only
// the hash is kept, so the map itself holds nothing a browser could show).
type pendingCode struct {
	userID  int64
	binding [sha256.Size]byte
}

// Errors of the Google flow.
var (
	ErrBadState         = domain.NewError(domain.KindInvalid, "invalid_state", "the sign-in link is invalid or was already used; start again")
	ErrEmailNotVerified = domain.NewError(domain.KindForbidden, "email_not_verified", "Google has not verified this e-mail address")
	ErrNotAllowed       = domain.NewError(domain.KindForbidden, "not_allowed", "this Google account has no access to this server")
	ErrOAuthDisabled    = domain.NewError(domain.KindNotFound, "oauth_disabled", "Google sign-in is not configured")
	ErrBadCode          = domain.NewError(domain.KindInvalid, "invalid_code", "the sign-in code is invalid, expired or was already used; sign in again")
)

// NewGoogle builds the flow; s issues the tokens and records the logins.
func NewGoogle(s *Service, users UserStore, cfg GoogleConfig) *Google {
	if cfg.StateTTL <= 0 {
		cfg.StateTTL = 10 * time.Minute
	}
	if cfg.MaxPending <= 0 {
		cfg.MaxPending = 10000
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 15 * time.Second}
	}
	return &Google{auth: s, users: users, cfg: cfg,
		states: newExpiring[struct{}](cfg.MaxPending, cfg.StateTTL, s.opt.Now),
		codes:  newExpiring[pendingCode](cfg.MaxPending, CodeTTL, s.opt.Now),
		starts: newThrottle(maxStartsPerAddress, cfg.StateTTL, s.opt.Now),
		oauth: oauth2.Config{
			ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret, RedirectURL: cfg.RedirectURI,
			Endpoint: oauth2.Endpoint{AuthURL: cfg.AuthURL, TokenURL: cfg.TokenURL},
			Scopes:   []string{"openid", "email", "profile"},
		}}
}

// Enabled reports whether client id and secret are configured.
func (g *Google) Enabled() bool { return g != nil && g.cfg.ClientID != "" && g.cfg.ClientSecret != "" }

// StateTTL is how long a started sign-in stays valid (the cookie's lifetime).
func (g *Google) StateTTL() time.Duration { return g.cfg.StateTTL }

// Begin starts a sign-in for the client at remote: the provider URL to
// redirect to and the state the caller binds to the browser with a cookie.
// More than maxStartsPerAddress starts from one address within a state's
// lifetime is ErrTooManyAttempts.
func (g *Google) Begin(remote string) (redirect, state string, err error) {
	if !g.Enabled() {
		return "", "", ErrOAuthDisabled
	}
	if _, ok := g.starts.reserve(remote); !ok {
		return "", "", domain.ErrTooManyAttempts
	}
	state, err = randomToken()
	if err != nil {
		return "", "", fmt.Errorf("oauth state: %w", err)
	}
	g.states.put(state, struct{}{})
	return g.oauth.AuthCodeURL(state, oauth2.AccessTypeOnline), state, nil
}

// takeState consumes a state: true only the first time, before expiry, and
// when the browser's cookie carries the same value.
func (g *Google) takeState(state, cookie string) bool {
	if state == "" || state != cookie {
		return false
	}
	_, ok := g.states.take(state)
	return ok
}

// randomToken returns 24 random bytes in hex: states and one-time codes.
func randomToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// googleUser is the part of the OpenID userinfo answer mediateka reads.
type googleUser struct {
	Email         string `json:"email"`
	EmailVerified bool   `json:"email_verified"`
	Name          string `json:"name"`
	Picture       string `json:"picture"`
}

// Complete finishes a sign-in: checks the state, exchanges the provider's
// code, reads the verified e-mail and finds the matching user, creating one
// only when the e-mail is in allowed_emails. It returns a one-time code
// (single use, CodeTTL) for the URL and a binding secret the caller puts
// in a cookie of the same browser: the code is exchanged only together with
// it, so whoever merely holds the code (a link sent to a victim) cannot.
func (g *Google) Complete(ctx context.Context, code, state, cookieState string) (once, binding string, err error) {
	if !g.Enabled() {
		return "", "", ErrOAuthDisabled
	}
	if !g.takeState(state, cookieState) {
		return "", "", ErrBadState
	}
	if code == "" {
		return "", "", domain.ErrInvalid("the provider sent no code", map[string]string{"code": "must not be empty"})
	}
	u, err := g.verifiedUser(ctx, code)
	if err != nil {
		return "", "", err
	}
	if once, err = randomToken(); err != nil {
		return "", "", fmt.Errorf("one-time code: %w", err)
	}
	if binding, err = randomToken(); err != nil {
		return "", "", fmt.Errorf("one-time code binding: %w", err)
	}
	g.codes.put(once, pendingCode{userID: u.ID, binding: sha256.Sum256([]byte(binding))})
	return once, binding, nil
}

// Exchange trades a one-time code from Complete for a token: once, within
// CodeTTL, and only with the binding secret Complete returned alongside.
// A wrong binding burns the code like a use: a code is worth nothing
// without its binding, and one guess per code is all anyone gets.
func (g *Google) Exchange(ctx context.Context, code, binding, remote string) (Login, error) {
	p, ok := g.codes.take(code)
	presented := sha256.Sum256([]byte(binding))
	if !ok || code == "" || binding == "" || subtle.ConstantTimeCompare(p.binding[:], presented[:]) != 1 {
		return Login{}, ErrBadCode
	}
	u, err := g.users.ByID(ctx, p.userID)
	if domain.IsKind(err, domain.KindNotFound) {
		return Login{}, ErrBadCode
	}
	if err != nil {
		return Login{}, fmt.Errorf("exchange sign-in code: %w", err)
	}
	return g.auth.signIn(ctx, u, "google", remote)
}

// verifiedUser trades the provider's code for the profile and returns the
// account it signs in.
func (g *Google) verifiedUser(ctx context.Context, code string) (domain.User, error) {
	ctx = context.WithValue(ctx, oauth2.HTTPClient, g.cfg.HTTPClient)
	tok, err := g.oauth.Exchange(ctx, code)
	if err != nil {
		return domain.User{}, domain.ErrUnavailable("oauth_failed", "Google did not accept the sign-in", err)
	}
	info, err := g.userinfo(ctx, tok)
	if err != nil {
		return domain.User{}, err
	}
	if !info.EmailVerified || info.Email == "" {
		return domain.User{}, ErrEmailNotVerified
	}
	if !isHTTPS(info.Picture) {
		info.Picture = "" // a page shows it as an image: nothing but https
	}
	return g.findOrCreate(ctx, info)
}

// isHTTPS reports whether s is an absolute https URL with a host.
func isHTTPS(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme == "https" && u.Host != ""
}

func (g *Google) userinfo(ctx context.Context, tok *oauth2.Token) (googleUser, error) {
	resp, err := g.oauth.Client(ctx, tok).Get(g.cfg.UserinfoURL)
	if err != nil {
		return googleUser{}, domain.ErrUnavailable("oauth_failed", "could not read the Google profile", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return googleUser{}, domain.ErrUnavailable("oauth_failed", "could not read the Google profile",
			fmt.Errorf("userinfo answered %d", resp.StatusCode))
	}
	var info googleUser
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&info); err != nil {
		return googleUser{}, domain.ErrUnavailable("oauth_failed", "could not read the Google profile", err)
	}
	return info, nil
}

func (g *Google) findOrCreate(ctx context.Context, info googleUser) (domain.User, error) {
	u, err := g.users.ByEmail(ctx, info.Email)
	if err == nil {
		if u.Picture == "" && info.Picture != "" {
			u.Picture = info.Picture
			return g.users.Update(ctx, u)
		}
		return u, nil
	}
	if !domain.IsKind(err, domain.KindNotFound) {
		return domain.User{}, err
	}
	allowed := slices.ContainsFunc(g.cfg.AllowedEmails, func(a string) bool { return strings.EqualFold(a, info.Email) })
	if !allowed {
		return domain.User{}, ErrNotAllowed
	}
	created, err := g.auth.CreateUser(ctx, NewUser{Email: info.Email, Name: info.Name})
	if err != nil {
		return domain.User{}, err
	}
	if info.Picture != "" {
		created.Picture = info.Picture
		return g.users.Update(ctx, created)
	}
	return created, nil
}
