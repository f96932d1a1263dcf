package apikey

import (
	"context"
	"time"

	"mediateka/domain"
)

// day is the UTC date a use is counted for: used_today resets at 00:00 UTC.
func day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// quotaReached reports whether the key has used its daily quota today.
func quotaReached(k *domain.APIKey, today string) bool {
	return k.DailyQuota != nil && k.UsedDay == today && k.UsedToday >= *k.DailyQuota
}

// refresh brings k up to now and reports whether it changed:
//   - an exhausted key whose cool-down is over becomes active, with its count
//     zeroed;
//   - an exhausted key that had used its daily quota on an earlier day
//     becomes active at once, since its quota is fresh at 00:00 UTC;
//   - a count of an earlier day becomes 0.
func (s *Service) refresh(k *domain.APIKey, now time.Time) bool {
	today := day(now)
	changed := false
	if k.Status == domain.KeyExhausted {
		cooled := k.ExhaustedAt == nil || !now.Before(k.ExhaustedAt.Add(s.opt.Cooldown))
		newDay := k.DailyQuota != nil && k.UsedDay != today && k.UsedDay != "" && k.UsedToday >= *k.DailyQuota
		if cooled || newDay {
			k.Status, k.ExhaustedAt, k.UsedToday, k.UsedDay = domain.KeyActive, nil, 0, today
			changed = true
		}
	}
	if k.UsedDay != today && k.UsedToday != 0 {
		k.UsedToday, k.UsedDay = 0, today
		changed = true
	}
	return changed
}

// claim is the outcome of picking a key for one call.
type claim struct {
	key   domain.APIKey
	found bool
	// configured is true when the provider has any key that takes part in
	// the rotation (active or exhausted), i.e. keys are meant to be used.
	configured bool
}

// acquire picks the first active key of provider under its daily quota,
// counts the call against it and stamps last_run, all in one atomic step. On
// the way it brings every key up to date and marks a key whose quota is used
// up as exhausted.
func (s *Service) acquire(ctx context.Context, provider string) (claim, error) {
	var c claim
	err := s.store.UpdateProvider(ctx, provider, func(keys []domain.APIKey) ([]domain.APIKey, error) {
		c = claim{}
		now := s.now()
		today := day(now)
		var changed []domain.APIKey
		for i := range keys {
			k := &keys[i]
			dirty := s.refresh(k, now)
			if k.Status == domain.KeyActive && quotaReached(k, today) {
				k.Status, k.ExhaustedAt = domain.KeyExhausted, &now
				dirty = true
				s.log.WarnContext(ctx, "api key used its daily quota", "key_name", k.Name, "provider", provider)
			}
			if k.Status == domain.KeyActive && !c.found {
				k.UsedToday, k.UsedDay, k.LastRun = k.UsedToday+1, today, &now
				c.key, c.found, dirty = *k, true, true
			}
			c.configured = c.configured || k.Status == domain.KeyActive || k.Status == domain.KeyExhausted
			if dirty {
				changed = append(changed, *k)
			}
		}
		return changed, nil
	})
	return c, err
}

// markExhausted takes a key the provider throttled out of the rotation until
// its cool-down ends. A key changed meanwhile (disabled, deleted) is left
// alone.
func (s *Service) markExhausted(ctx context.Context, k domain.APIKey) {
	now := s.now()
	s.mark(ctx, k, func(stored *domain.APIKey) {
		stored.Status, stored.ExhaustedAt = domain.KeyExhausted, &now
	})
	s.log.WarnContext(ctx, "api key exhausted: the provider answered 429 or quota used up",
		"key_name", k.Name, "provider", k.Provider, "key_hint", domain.MaskKey(k.Secret), "back_after", s.opt.Cooldown.String())
}

// markRejected takes a key the provider refused out of the rotation until a
// person gives a new secret or sets it active.
func (s *Service) markRejected(ctx context.Context, k domain.APIKey) {
	s.mark(ctx, k, func(stored *domain.APIKey) { stored.Status = domain.KeyRejected })
	s.log.WarnContext(ctx, "api key rejected by the provider; it stays out of the rotation until it is replaced",
		"key_name", k.Name, "provider", k.Provider, "key_hint", domain.MaskKey(k.Secret))
}

func (s *Service) mark(ctx context.Context, k domain.APIKey, set func(*domain.APIKey)) {
	// The verdict must be stored even if the chat's own context is ending,
	// or the next call would pick the same failing key again.
	ctx = context.WithoutCancel(ctx)
	_, err := s.store.Update(ctx, k.Name, func(stored *domain.APIKey) error {
		if stored.Status == domain.KeyActive && stored.Secret == k.Secret {
			set(stored)
		}
		return nil
	})
	if err != nil && !domain.IsKind(err, domain.KindNotFound) {
		s.log.ErrorContext(ctx, "could not store the state of an api key", "key_name", k.Name, "err", err)
	}
}
