package sqlstore

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

// TestReadCacheLoadsAgainAfterAnyWrite: a cached value is read once while
// nothing is written, and read again after a commit by this store's writer
// or by another process on the same file; failed loads are not kept.
func TestReadCacheLoadsAgainAfterAnyWrite(t *testing.T) {
	s, path := openTemp(t)
	cache := newReadCache[string, int](s.changes, 4)
	loads := 0
	get := func(key string) int {
		t.Helper()
		v, err := cache.get(key, func() (int, error) { loads++; return loads, nil })
		require.NoError(t, err)
		return v
	}
	assert.Equal(t, 1, get("a"))
	assert.Equal(t, 1, get("a"), "nothing was written: the value is kept")
	assert.Equal(t, 2, get("b"))

	require.NoError(t, s.writer.Exec(`INSERT INTO settings (key, value, updated_at) VALUES ('k', 'v', '2026-01-01')`).Error)
	assert.Equal(t, 3, get("a"), "a commit by the writer drops every entry")

	other, err := Open(context.Background(), path)
	require.NoError(t, err)
	defer other.Close()
	require.NoError(t, other.writer.Exec(`UPDATE settings SET value = 'w'`).Error)
	assert.Equal(t, 4, get("a"), "a commit by another process drops every entry")

	_, err = cache.get("c", func() (int, error) { return 0, errors.New("disk gone") })
	require.Error(t, err)
	assert.Equal(t, 5, get("c"), "a failed load is not kept")

	for _, k := range []string{"d", "e", "f", "g"} {
		get(k)
	}
	assert.LessOrEqual(t, len(cache.m), 4, "the cache keeps at most its bound")
}

// TestCloneMediaCopiesEveryReference: every list, map and pointer of a
// media entry is copied, so a caller that changes the entry it got from a
// cached page cannot change the cache (a new field of such a kind must be
// added to cloneMedia).
func TestCloneMediaCopiesEveryReference(t *testing.T) {
	var m domain.Media
	v := reflect.ValueOf(&m).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 1, 1))
		case reflect.Map:
			f.Set(reflect.MakeMap(f.Type()))
			f.SetMapIndex(reflect.New(f.Type().Key()).Elem(), reflect.New(f.Type().Elem()).Elem())
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		}
	}
	c := reflect.ValueOf(cloneMedia(m))
	for i := range v.NumField() {
		f, g := v.Field(i), c.Field(i)
		switch f.Kind() {
		case reflect.Slice, reflect.Map, reflect.Pointer:
			assert.NotEqual(t, f.Pointer(), g.Pointer(), "%s is shared with the copy", v.Type().Field(i).Name)
			assert.Equal(t, f.Interface(), g.Interface(), "%s has the same value", v.Type().Field(i).Name)
		}
	}
}

// TestReadCacheIsNeverOlderThanACommitBeforeTheCall: with readers and a
// writer running at once, a value read after a commit returned is at least
// as new as that commit, however the calls share their version reads.
func TestReadCacheIsNeverOlderThanACommitBeforeTheCall(t *testing.T) {
	s, _ := openTemp(t)
	require.NoError(t, s.writer.Exec(`INSERT INTO settings (key, value, updated_at) VALUES ('n', '0', '2026-01-01')`).Error)
	cache := newReadCache[string, int](s.changes, 4)
	load := func() (int, error) {
		var v int
		err := s.reader.Raw(`SELECT CAST(value AS INTEGER) FROM settings WHERE key = 'n'`).Scan(&v).Error
		return v, err
	}
	var committed atomic.Int64
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 8 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				before := committed.Load()
				v, err := cache.get("n", load)
				if !assert.NoError(t, err) || !assert.GreaterOrEqual(t, int64(v), before) {
					return
				}
			}
		})
	}
	for n := 1; n <= 100; n++ {
		require.NoError(t, s.writer.Exec(`UPDATE settings SET value = ? WHERE key = 'n'`, n).Error)
		committed.Store(int64(n))
	}
	close(stop)
	wg.Wait()
	v, err := cache.get("n", load)
	require.NoError(t, err)
	assert.Equal(t, 100, v)
}
