// Package apikey is the key store of the AI providers: keys are added,
// changed and removed by administrators, and handed out in rotation to the
// model clients. A key whose provider answers 429 or "quota used up" is
// marked exhausted and the call moves on to the next key; exhausted keys come
// back by themselves after a cool-down. Each key may carry a daily quota of
// calls, counted per UTC day.
package apikey

import (
	"context"
	"log/slog"
	"regexp"
	"strings"
	"time"

	"mediateka/domain"
)

// DefaultCooldown is how long an exhausted key rests before it is tried
// again, when Options leave it unset.
const DefaultCooldown = 24 * time.Hour

// DefaultProvider is the provider of a key created without one.
const DefaultProvider = "gemini"

// maxSecretLen bounds a stored secret; real keys are far shorter.
const maxSecretLen = 4096

// Key names appear in URLs (/api/keys/{key_name}), so they are kept to
// characters that need no escaping. Providers are lower-case slugs so that
// "Gemini" and "gemini" are never two rotations.
var (
	nameRe     = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)
	providerRe = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`)
)

// Options tune the service; zero values get the defaults.
type Options struct {
	// Cooldown is how long an exhausted key rests (config ai.key_cooldown).
	Cooldown time.Duration
	// Now is the clock; tests move it to cross midnight and the cool-down.
	Now    func() time.Time
	Logger *slog.Logger
}

// Service is the key store use case.
type Service struct {
	store Store
	opt   Options
	log   *slog.Logger
}

// New returns the service over store.
func New(store Store, opt Options) *Service {
	if opt.Cooldown <= 0 {
		opt.Cooldown = DefaultCooldown
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{store: store, opt: opt, log: opt.Logger}
}

func (s *Service) now() time.Time { return s.opt.Now().UTC() }

// NewKey is a key to add. Provider defaults to "gemini", Status to "active";
// a nil DailyQuota means unlimited.
type NewKey struct {
	Name       string
	Secret     string
	Provider   string
	Status     string
	DailyQuota *int
}

// Patch is a change to a key; nil fields stay as they are. SetQuota says
// that DailyQuota is part of the change (nil then means unlimited).
type Patch struct {
	Status     *string
	Secret     *string
	Provider   *string
	SetQuota   bool
	DailyQuota *int
}

// List returns every key in rotation order, as it stands now: a key whose
// cool-down is over shows as active and a count of an earlier day as 0, even
// before the next call stores that.
func (s *Service) List(ctx context.Context) ([]domain.APIKey, error) {
	keys, err := s.store.List(ctx)
	if err != nil {
		return nil, err
	}
	now := s.now()
	for i := range keys {
		s.refresh(&keys[i], now)
	}
	return keys, nil
}

// Get returns one key as it stands now; NotFound when absent.
func (s *Service) Get(ctx context.Context, name string) (domain.APIKey, error) {
	k, err := s.store.Get(ctx, name)
	if err != nil {
		return domain.APIKey{}, err
	}
	s.refresh(&k, s.now())
	return k, nil
}

// Create validates and stores a new key.
func (s *Service) Create(ctx context.Context, n NewKey) (domain.APIKey, error) {
	k := domain.APIKey{Name: strings.TrimSpace(n.Name), Secret: strings.TrimSpace(n.Secret),
		Provider: n.Provider, Status: n.Status, DailyQuota: n.DailyQuota, CreatedAt: s.now()}
	if k.Provider == "" {
		k.Provider = DefaultProvider
	}
	if k.Status == "" {
		k.Status = domain.KeyActive
	}
	fields := map[string]string{}
	if !nameRe.MatchString(k.Name) {
		fields["key_name"] = "must be 1 to 64 letters, digits, dots, dashes or underscores"
	}
	checkSecret(k.Secret, fields)
	checkCommon(k.Provider, k.Status, k.DailyQuota, fields)
	if len(fields) > 0 {
		return domain.APIKey{}, domain.ErrInvalid("the key is not valid", fields)
	}
	created, err := s.store.Create(ctx, k)
	if err != nil {
		return domain.APIKey{}, err
	}
	s.log.InfoContext(ctx, "api key added", "key_name", created.Name, "provider", created.Provider, "key_hint", domain.MaskKey(created.Secret))
	return created, nil
}

// Update applies p to the key. Setting the status to active, or giving a
// new secret, returns an exhausted or rejected key to the rotation.
func (s *Service) Update(ctx context.Context, name string, p Patch) (domain.APIKey, error) {
	if err := p.validate(); err != nil {
		return domain.APIKey{}, err
	}
	k, err := s.store.Update(ctx, name, func(k *domain.APIKey) error {
		p.apply(k)
		return nil
	})
	if err != nil {
		return domain.APIKey{}, err
	}
	s.refresh(&k, s.now())
	return k, nil
}

// Delete removes a key.
func (s *Service) Delete(ctx context.Context, name string) error {
	return s.store.Delete(ctx, name)
}

// ResetQuota zeroes today's count and clears exhausted_at; an exhausted key
// becomes active again. A disabled or rejected key keeps its status: a
// quota reset does not make a refused key valid.
func (s *Service) ResetQuota(ctx context.Context, name string) (domain.APIKey, error) {
	now := s.now()
	return s.store.Update(ctx, name, func(k *domain.APIKey) error {
		k.UsedToday, k.UsedDay, k.ExhaustedAt = 0, day(now), nil
		if k.Status == domain.KeyExhausted {
			k.Status = domain.KeyActive
		}
		return nil
	})
}

func (p Patch) validate() error {
	fields := map[string]string{}
	if p.Status == nil && p.Secret == nil && p.Provider == nil && !p.SetQuota {
		return domain.ErrInvalid("nothing to change", map[string]string{"body": "give status, api_key, daily_quota or provider"})
	}
	if p.Secret != nil {
		checkSecret(strings.TrimSpace(*p.Secret), fields)
	}
	status, provider := domain.KeyActive, DefaultProvider
	if p.Status != nil {
		status = *p.Status
	}
	if p.Provider != nil {
		provider = *p.Provider
	}
	checkCommon(provider, status, p.DailyQuota, fields)
	if len(fields) > 0 {
		return domain.ErrInvalid("the change is not valid", fields)
	}
	return nil
}

func (p Patch) apply(k *domain.APIKey) {
	if p.Secret != nil {
		k.Secret = strings.TrimSpace(*p.Secret)
		if k.Status == domain.KeyExhausted || k.Status == domain.KeyRejected {
			k.Status, k.ExhaustedAt = domain.KeyActive, nil
		}
	}
	if p.Status != nil {
		k.Status = *p.Status
		if k.Status == domain.KeyActive {
			k.ExhaustedAt = nil
		}
	}
	if p.Provider != nil {
		k.Provider = *p.Provider
	}
	if p.SetQuota {
		k.DailyQuota = p.DailyQuota
	}
}

func checkSecret(secret string, fields map[string]string) {
	switch {
	case secret == "":
		fields["api_key"] = "must not be empty"
	case len(secret) > maxSecretLen:
		fields["api_key"] = "is too long"
	case strings.ContainsFunc(secret, func(r rune) bool { return r <= ' ' || r == 0x7f }):
		fields["api_key"] = "must not contain spaces or control characters"
	}
}

// checkCommon validates what create and update share. Only active and
// disabled may be set by a person: exhausted and rejected are the
// rotation's verdicts.
func checkCommon(provider, status string, quota *int, fields map[string]string) {
	if !providerRe.MatchString(provider) {
		fields["provider"] = "must be a lower-case provider name such as gemini or openai"
	}
	if status != domain.KeyActive && status != domain.KeyDisabled {
		fields["status"] = "must be active or disabled"
	}
	if quota != nil && *quota < 1 {
		fields["daily_quota"] = "must be at least 1, or null for unlimited"
	}
}
