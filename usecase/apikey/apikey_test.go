package apikey_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/aimodel/aifake"
	"mediateka/repository/aimodel/gemini"
	"mediateka/repository/aimodel/openai"
	"mediateka/repository/sqlstore"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/apikey"
)

// clock is a settable time source.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time          { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }
func (c *clock) Set(t time.Time)         { c.mu.Lock(); c.t = t; c.mu.Unlock() }
func newClock(t time.Time) *clock        { return &clock{t: t} }
func start() time.Time                   { return time.Date(2026, 5, 10, 15, 30, 0, 0, time.UTC) }
func secretOf(name string) string        { return "AIzaSy-" + strings.ToUpper(name) + "-0123456789abcdef" }
func prompt(msg string) domain.Prompt    { return domain.Prompt{System: "be brief", Message: msg} }
func ptr[T any](v T) *T                  { return &v }

// newService returns the key service over a real SQLite store.
func newService(t *testing.T, clk *clock) *apikey.Service {
	t.Helper()
	repo, err := sqlstore.NewAPIKeys(sqlstoretest.New(t, nil).Store, []byte("test-master-secret-0123456789abcdef"))
	require.NoError(t, err)
	return apikey.New(repo, apikey.Options{Cooldown: 24 * time.Hour, Now: clk.Now})
}

func addKeys(t *testing.T, svc *apikey.Service, provider string, names ...string) {
	t.Helper()
	for _, n := range names {
		_, err := svc.Create(context.Background(), apikey.NewKey{Name: n, Secret: secretOf(n), Provider: provider})
		require.NoError(t, err)
	}
}

func geminiModel(t *testing.T, svc *apikey.Service) (*apikey.Model, *aifake.Gemini) {
	t.Helper()
	fake := aifake.NewGemini(t)
	c, err := gemini.New(gemini.Config{BaseURL: fake.URL()})
	require.NoError(t, err)
	return svc.Model(c, false), fake
}

func keysSent(reqs []aifake.Request) []string {
	out := make([]string, len(reqs))
	for i, r := range reqs {
		out[i] = r.Key
	}
	return out
}

func status(t *testing.T, svc *apikey.Service, name string) domain.APIKey {
	t.Helper()
	k, err := svc.Get(context.Background(), name)
	require.NoError(t, err)
	return k
}

func TestRotationAcrossThreeKeysWith429s(t *testing.T) {
	clk := newClock(start())
	svc := newService(t, clk)
	addKeys(t, svc, "gemini", "k1", "k2", "k3")
	model, fake := geminiModel(t, svc)
	fake.RateLimit(secretOf("k1"))
	fake.RateLimit(secretOf("k2"))
	ctx := context.Background()

	out, err := model.Generate(ctx, prompt("hello"))
	require.NoError(t, err)
	assert.Equal(t, aifake.DefaultReply, out)
	assert.Equal(t, []string{secretOf("k1"), secretOf("k2"), secretOf("k3")}, keysSent(fake.Requests()), "tried in order")
	for _, n := range []string{"k1", "k2"} {
		k := status(t, svc, n)
		assert.Equal(t, domain.KeyExhausted, k.Status, n)
		require.NotNil(t, k.ExhaustedAt, n)
		assert.Equal(t, start(), *k.ExhaustedAt, n)
	}
	k3 := status(t, svc, "k3")
	assert.Equal(t, domain.KeyActive, k3.Status)
	assert.Equal(t, 1, k3.UsedToday)
	assert.Equal(t, start(), *k3.LastRun)
	assert.Equal(t, "gemini/gemini-2.5-flash", model.Name())

	_, err = model.Generate(ctx, prompt("again"))
	require.NoError(t, err)
	assert.Equal(t, secretOf("k3"), fake.Last().Key, "exhausted keys are skipped")
	assert.Len(t, fake.Requests(), 4)

	// The last key is throttled too: every key exhausted → ai_unavailable.
	fake.RateLimit(secretOf("k3"))
	_, err = model.Generate(ctx, prompt("third"))
	assert.ErrorIs(t, err, domain.ErrAIUnavailable)
	assert.True(t, domain.IsKind(err, domain.KindUnavailable))
	assert.Contains(t, err.Error(), "exhausted")
	for _, n := range []string{"k1", "k2", "k3"} {
		assert.NotContains(t, err.Error(), secretOf(n))
	}
	n := len(fake.Requests())
	_, err = model.Generate(ctx, prompt("fourth"))
	assert.ErrorIs(t, err, domain.ErrAIUnavailable)
	assert.Len(t, fake.Requests(), n, "with every key exhausted nothing is sent upstream")

	// After the cool-down the keys come back by themselves.
	fake.Restore(secretOf("k1"))
	clk.Advance(24*time.Hour - time.Second)
	_, err = model.Generate(ctx, prompt("too early"))
	assert.ErrorIs(t, err, domain.ErrAIUnavailable)
	clk.Advance(time.Second)
	_, err = model.Generate(ctx, prompt("later"))
	require.NoError(t, err)
	assert.Equal(t, secretOf("k1"), fake.Last().Key)
	k1 := status(t, svc, "k1")
	assert.Equal(t, domain.KeyActive, k1.Status)
	assert.Nil(t, k1.ExhaustedAt)
	assert.Equal(t, 1, k1.UsedToday, "the count restarted when the key came back")
}

func TestOpenAIQuotaErrorsRotateWhileStreaming(t *testing.T) {
	clk := newClock(start())
	svc := newService(t, clk)
	addKeys(t, svc, "openai", "a", "b")
	fake := aifake.NewOpenAI(t)
	c, err := openai.New(openai.Config{BaseURL: fake.URL()})
	require.NoError(t, err)
	model := svc.Model(c, true)
	fake.ExhaustQuota(secretOf("a"))
	fake.SetReply("one two three")

	var chunks []string
	err = model.Stream(context.Background(), prompt("stream please"), func(s string) error { chunks = append(chunks, s); return nil })
	require.NoError(t, err)
	assert.Equal(t, "one two three", strings.Join(chunks, ""))
	assert.Greater(t, len(chunks), 1, "the answer arrived in pieces")
	assert.Equal(t, []string{secretOf("a"), secretOf("b")}, keysSent(fake.Requests()))
	assert.Equal(t, domain.KeyExhausted, status(t, svc, "a").Status)

	// Keys exist but are all exhausted: no keyless fallback, 503.
	fake.RateLimit(secretOf("b"))
	err = model.Stream(context.Background(), prompt("x"), func(string) error { return nil })
	assert.ErrorIs(t, err, domain.ErrAIUnavailable)
	assert.NotEqual(t, "", fake.Last().Key, "a keyless call is only made when no key is meant to be used")
}

func TestKeylessProviderWithoutKeys(t *testing.T) {
	svc := newService(t, newClock(start()))
	fake := aifake.NewOpenAI(t)
	c, err := openai.New(openai.Config{BaseURL: fake.URL(), Model: "llama3.2"})
	require.NoError(t, err)
	out, err := svc.Model(c, true).Generate(context.Background(), prompt("local"))
	require.NoError(t, err)
	assert.Equal(t, aifake.DefaultReply, out)
	assert.Equal(t, "", fake.Last().Key)
	assert.Equal(t, "openai/llama3.2", svc.Model(c, true).Name())

	// A provider that needs a key and has none: ai_unavailable, no request.
	model, gfake := geminiModel(t, svc)
	_, err = model.Generate(context.Background(), prompt("x"))
	assert.ErrorIs(t, err, domain.ErrAIUnavailable)
	assert.Contains(t, err.Error(), "no active API key of gemini")
	assert.Empty(t, gfake.Requests())
}

func TestDailyQuotaAndMidnightReset(t *testing.T) {
	clk := newClock(start())
	svc := newService(t, clk)
	ctx := context.Background()
	_, err := svc.Create(ctx, apikey.NewKey{Name: "small", Secret: secretOf("small"), DailyQuota: ptr(2)})
	require.NoError(t, err)
	addKeys(t, svc, "gemini", "big")
	model, fake := geminiModel(t, svc)

	for range 3 {
		_, err := model.Generate(ctx, prompt("q"))
		require.NoError(t, err)
	}
	assert.Equal(t, []string{secretOf("small"), secretOf("small"), secretOf("big")}, keysSent(fake.Requests()))
	small := status(t, svc, "small")
	assert.Equal(t, domain.KeyExhausted, small.Status, "used_today >= daily_quota marks the key exhausted")
	assert.Equal(t, 2, small.UsedToday)

	clk.Set(time.Date(2026, 5, 11, 0, 0, 0, 0, time.UTC))
	small = status(t, svc, "small")
	assert.Equal(t, domain.KeyActive, small.Status, "a new UTC day gives a fresh quota")
	assert.Equal(t, 0, small.UsedToday)
	assert.Equal(t, 0, status(t, svc, "big").UsedToday, "used_today resets at 00:00 UTC")
	_, err = model.Generate(ctx, prompt("next day"))
	require.NoError(t, err)
	assert.Equal(t, secretOf("small"), fake.Last().Key)
}

func TestRejectedKeyStaysOutUntilReplaced(t *testing.T) {
	clk := newClock(start())
	svc := newService(t, clk)
	addKeys(t, svc, "gemini", "bad", "good")
	model, fake := geminiModel(t, svc)
	fake.InvalidKey(secretOf("bad"))
	ctx := context.Background()

	_, err := model.Generate(ctx, prompt("q"))
	require.NoError(t, err)
	assert.Equal(t, secretOf("good"), fake.Last().Key)
	assert.Equal(t, domain.KeyRejected, status(t, svc, "bad").Status)
	clk.Advance(48 * time.Hour)
	assert.Equal(t, domain.KeyRejected, status(t, svc, "bad").Status, "a refused key does not come back by itself")
	k, err := svc.ResetQuota(ctx, "bad")
	require.NoError(t, err)
	assert.Equal(t, domain.KeyRejected, k.Status, "a quota reset does not make a refused key valid")

	k, err = svc.Update(ctx, "bad", apikey.Patch{Secret: ptr(secretOf("fixed"))})
	require.NoError(t, err)
	assert.Equal(t, domain.KeyActive, k.Status, "a new secret returns the key to the rotation")
	_, err = model.Generate(ctx, prompt("q"))
	require.NoError(t, err)
	assert.Equal(t, secretOf("fixed"), fake.Last().Key)
}

func TestResetQuota(t *testing.T) {
	clk := newClock(start())
	svc := newService(t, clk)
	addKeys(t, svc, "gemini", "k1", "off")
	ctx := context.Background()
	model, fake := geminiModel(t, svc)
	_, err := svc.Update(ctx, "off", apikey.Patch{Status: ptr(domain.KeyDisabled)})
	require.NoError(t, err)
	fake.RateLimit(secretOf("k1"))
	_, err = model.Generate(ctx, prompt("q"))
	assert.ErrorIs(t, err, domain.ErrAIUnavailable, "k1 throttled and the other key disabled")
	require.Equal(t, domain.KeyExhausted, status(t, svc, "k1").Status)

	k, err := svc.ResetQuota(ctx, "k1")
	require.NoError(t, err)
	assert.Equal(t, domain.KeyActive, k.Status)
	assert.Nil(t, k.ExhaustedAt)
	assert.Equal(t, 0, k.UsedToday)
	k, err = svc.ResetQuota(ctx, "off")
	require.NoError(t, err)
	assert.Equal(t, domain.KeyDisabled, k.Status, "a disabled key stays disabled")
	_, err = svc.ResetQuota(ctx, "none")
	assert.True(t, domain.IsKind(err, domain.KindNotFound))

	fake.Restore(secretOf("k1"))
	_, err = model.Generate(ctx, prompt("q"))
	require.NoError(t, err)
	assert.Equal(t, secretOf("k1"), fake.Last().Key, "the disabled key is never used")
}

func TestCreateAndUpdateValidation(t *testing.T) {
	svc := newService(t, newClock(start()))
	ctx := context.Background()
	k, err := svc.Create(ctx, apikey.NewKey{Name: "main", Secret: "  " + secretOf("main") + "\n"})
	require.NoError(t, err)
	assert.Equal(t, "gemini", k.Provider)
	assert.Equal(t, domain.KeyActive, k.Status)
	assert.Equal(t, secretOf("main"), k.Secret, "pasted whitespace is trimmed")
	assert.Nil(t, k.DailyQuota)

	_, err = svc.Create(ctx, apikey.NewKey{Name: "main", Secret: "other-secret"})
	assert.True(t, domain.IsKind(err, domain.KindConflict))

	bad := []struct {
		key   apikey.NewKey
		field string
	}{
		{apikey.NewKey{Name: "", Secret: "s3cr3t-value"}, "key_name"},
		{apikey.NewKey{Name: "a/b", Secret: "s3cr3t-value"}, "key_name"},
		{apikey.NewKey{Name: "ok", Secret: "   "}, "api_key"},
		{apikey.NewKey{Name: "ok", Secret: "two words"}, "api_key"},
		{apikey.NewKey{Name: "ok", Secret: "s3cr3t-value", Provider: "Gemini"}, "provider"},
		{apikey.NewKey{Name: "ok", Secret: "s3cr3t-value", Status: domain.KeyExhausted}, "status"},
		{apikey.NewKey{Name: "ok", Secret: "s3cr3t-value", DailyQuota: ptr(0)}, "daily_quota"},
	}
	for _, b := range bad {
		_, err := svc.Create(ctx, b.key)
		var de *domain.Error
		require.ErrorAs(t, err, &de, "%+v", b.key)
		assert.Equal(t, domain.KindInvalid, de.Kind)
		assert.Contains(t, de.Fields, b.field, "%+v", b.key)
	}

	_, err = svc.Update(ctx, "main", apikey.Patch{})
	assert.True(t, domain.IsKind(err, domain.KindInvalid), "an empty change is refused")
	_, err = svc.Update(ctx, "main", apikey.Patch{Status: ptr(domain.KeyRejected)})
	assert.True(t, domain.IsKind(err, domain.KindInvalid))
	k, err = svc.Update(ctx, "main", apikey.Patch{SetQuota: true, DailyQuota: ptr(10), Provider: ptr("openai")})
	require.NoError(t, err)
	assert.Equal(t, 10, *k.DailyQuota)
	assert.Equal(t, "openai", k.Provider)
	k, err = svc.Update(ctx, "main", apikey.Patch{SetQuota: true})
	require.NoError(t, err)
	assert.Nil(t, k.DailyQuota, "null quota means unlimited")
	_, err = svc.Update(ctx, "ghost", apikey.Patch{Status: ptr(domain.KeyActive)})
	assert.True(t, domain.IsKind(err, domain.KindNotFound))
	require.NoError(t, svc.Delete(ctx, "main"))
	list, err := svc.List(ctx)
	require.NoError(t, err)
	assert.Empty(t, list)
}
