package sqlstore

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

var testMaster = []byte("0123456789abcdef0123456789abcdef")

func newKeys(t *testing.T) (*APIKeys, *Store, string) {
	t.Helper()
	s, path := openTemp(t)
	k, err := NewAPIKeys(s, testMaster)
	require.NoError(t, err)
	return k, s, path
}

func TestAPIKeysRoundTripAndOrder(t *testing.T) {
	keys, _, _ := newKeys(t)
	ctx := context.Background()
	quota := 5
	last := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	for _, name := range []string{"zeta", "alpha", "mid"} {
		_, err := keys.Create(ctx, domain.APIKey{Name: name, Provider: "gemini", Secret: "secret-of-" + name, Status: domain.KeyActive})
		require.NoError(t, err)
	}
	_, err := keys.Create(ctx, domain.APIKey{Name: "alpha", Provider: "gemini", Secret: "x", Status: domain.KeyActive})
	assert.True(t, domain.IsKind(err, domain.KindConflict), "a taken name is a conflict: %v", err)

	got, err := keys.Update(ctx, "mid", func(k *domain.APIKey) error {
		k.DailyQuota, k.LastRun, k.UsedToday, k.UsedDay = &quota, &last, 3, "2026-03-01"
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, "secret-of-mid", got.Secret)

	list, err := keys.List(ctx)
	require.NoError(t, err)
	var names []string
	for _, k := range list {
		names = append(names, k.Name)
	}
	assert.Equal(t, []string{"zeta", "alpha", "mid"}, names, "insertion order is the rotation order")
	mid, err := keys.Get(ctx, "mid")
	require.NoError(t, err)
	assert.Equal(t, 5, *mid.DailyQuota)
	assert.Equal(t, last, *mid.LastRun)
	assert.Equal(t, 3, mid.UsedToday)
	assert.Equal(t, "2026-03-01", mid.UsedDay)
	assert.Nil(t, mid.ExhaustedAt)

	require.NoError(t, keys.Delete(ctx, "mid"))
	_, err = keys.Get(ctx, "mid")
	assert.True(t, domain.IsKind(err, domain.KindNotFound))
	assert.True(t, domain.IsKind(keys.Delete(ctx, "mid"), domain.KindNotFound))
}

func TestAPIKeysAreEncryptedAtRest(t *testing.T) {
	keys, s, path := newKeys(t)
	ctx := context.Background()
	secret := "AIzaSy-PLAIN-TEXT-MUST-NOT-BE-STORED-42"
	_, err := keys.Create(ctx, domain.APIKey{Name: "main", Provider: "gemini", Secret: secret, Status: domain.KeyActive})
	require.NoError(t, err)
	_, err = keys.Update(ctx, "main", func(k *domain.APIKey) error { k.UsedToday = 1; return nil })
	require.NoError(t, err)

	var blob []byte
	require.NoError(t, s.reader.Raw(`SELECT api_key FROM api_keys WHERE key_name = 'main'`).Row().Scan(&blob))
	assert.NotContains(t, string(blob), secret)
	assert.Equal(t, sealedVersion, blob[0])

	// The database file and its write-ahead log hold no trace of the key.
	require.NoError(t, s.writer.Exec(`PRAGMA wal_checkpoint(FULL)`).Error)
	for _, f := range []string{path, path + "-wal"} {
		raw, err := os.ReadFile(f)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		require.NoError(t, err)
		assert.False(t, bytes.Contains(raw, []byte(secret)), "%s holds the plain key", filepath.Base(f))
		assert.False(t, bytes.Contains(raw, []byte("PLAIN-TEXT")), "%s holds part of the key", filepath.Base(f))
	}
}

func TestAPIKeysNeedTheSameMasterSecret(t *testing.T) {
	keys, s, _ := newKeys(t)
	ctx := context.Background()
	_, err := keys.Create(ctx, domain.APIKey{Name: "main", Provider: "gemini", Secret: "k-123456789", Status: domain.KeyActive})
	require.NoError(t, err)

	other, err := NewAPIKeys(s, []byte("another-master-secret-0123456789"))
	require.NoError(t, err)
	_, err = other.Get(ctx, "main")
	assert.ErrorIs(t, err, errUnsealable, "another secret.key cannot open the keys")

	// A sealed secret copied onto another row does not open either: the
	// key name is bound into the ciphertext.
	_, err = keys.Create(ctx, domain.APIKey{Name: "second", Provider: "gemini", Secret: "k-987654321", Status: domain.KeyActive})
	require.NoError(t, err)
	require.NoError(t, s.writer.Exec(`UPDATE api_keys SET api_key = (SELECT api_key FROM api_keys WHERE key_name = 'main') WHERE key_name = 'second'`).Error)
	_, err = keys.Get(ctx, "second")
	assert.ErrorIs(t, err, errUnsealable)

	_, err = NewAPIKeys(s, []byte("short"))
	assert.Error(t, err, "a short master secret is refused")
}

func TestAPIKeysUpdateIsAllOrNothing(t *testing.T) {
	keys, _, _ := newKeys(t)
	ctx := context.Background()
	for _, n := range []string{"a", "b"} {
		_, err := keys.Create(ctx, domain.APIKey{Name: n, Provider: "openai", Secret: "secret-" + n, Status: domain.KeyActive})
		require.NoError(t, err)
	}
	_, err := keys.Create(ctx, domain.APIKey{Name: "g", Provider: "gemini", Secret: "secret-g", Status: domain.KeyActive})
	require.NoError(t, err)

	boom := errors.New("boom")
	_, err = keys.Update(ctx, "a", func(k *domain.APIKey) error { k.Status = domain.KeyDisabled; return boom })
	assert.ErrorIs(t, err, boom)
	a, _ := keys.Get(ctx, "a")
	assert.Equal(t, domain.KeyActive, a.Status, "a failed update changes nothing")

	var seen []string
	err = keys.UpdateProvider(ctx, "openai", func(ks []domain.APIKey) ([]domain.APIKey, error) {
		for _, k := range ks {
			seen = append(seen, k.Name)
		}
		ks[1].Status = domain.KeyExhausted
		return ks[1:], nil
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, seen, "only the provider's keys, in order")
	b, _ := keys.Get(ctx, "b")
	assert.Equal(t, domain.KeyExhausted, b.Status)
	assert.Equal(t, "secret-b", b.Secret)

	_, err = keys.Update(ctx, "none", func(*domain.APIKey) error { return nil })
	assert.True(t, domain.IsKind(err, domain.KindNotFound))
}

func TestSettingsDelete(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	st := NewSettings(s)
	_, err := st.Set(ctx, "x", "1")
	require.NoError(t, err)
	require.NoError(t, st.Delete(ctx, "x"))
	_, err = st.Get(ctx, "x")
	assert.True(t, domain.IsKind(err, domain.KindNotFound))
	assert.NoError(t, st.Delete(ctx, "x"), "deleting an absent setting is fine")
}
