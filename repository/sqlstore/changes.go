package sqlstore

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"

	"gorm.io/gorm"
)

// changeWatch tells read caches whether the database changed since they
// were filled. SQLite's PRAGMA data_version, read again on the same
// connection, differs as soon as any other connection has committed a
// write: this process's writer, or another process on the same file (the
// command-line scan, `mediateka user passwd`). One read-only connection is
// kept for it alone, so the numbers it gives can be compared with each
// other; reading it costs a few microseconds and no table.
type changeWatch struct {
	// asked numbers the calls of version as they arrive; read is the
	// number asked had when the last read of the pragma began, and last
	// what that read gave. A call that arrived before a read began may
	// take that read's answer: it saw every commit made before the call.
	// Under load, one read answers every call that waited for it.
	asked atomic.Uint64
	read  uint64
	last  uint64

	mu   sync.Mutex
	db   *gorm.DB
	conn *sql.Conn
	stmt *sql.Stmt
	// epoch counts the connections the watch has used: a replaced
	// connection starts its data_version anew, so versions carry the
	// epoch in their high bits to keep growing.
	epoch uint64
}

// epochShift puts the epoch above any data_version a connection reaches.
const epochShift = 40

func newChangeWatch(path string) (*changeWatch, error) {
	db, err := openPool(path, true, 1)
	if err != nil {
		return nil, err
	}
	return &changeWatch{db: db}, nil
}

// version returns a number that grows whenever a write was committed to
// the database since the last call; ok is false when it cannot be read,
// and the caller must then read the database instead of a cache.
func (w *changeWatch) version() (v uint64, ok bool) {
	ticket := w.asked.Add(1)
	w.mu.Lock()
	defer w.mu.Unlock()
	if ticket <= w.read && w.last != 0 {
		return w.last, true
	}
	w.read, w.last = w.asked.Load(), 0
	if w.stmt == nil && !w.connect() {
		return 0, false
	}
	var dv int64
	// A context that is never cancelled: the driver hands every step of a
	// cancellable one to a goroutine of its own (see detached).
	if err := w.stmt.QueryRowContext(context.Background()).Scan(&dv); err != nil || dv < 0 {
		w.disconnect()
		return 0, false
	}
	w.last = w.epoch<<epochShift | uint64(dv)
	return w.last, true
}

// connect takes a connection of its own and prepares the pragma on it.
func (w *changeWatch) connect() bool {
	sqlDB, err := w.db.DB()
	if err != nil {
		return false
	}
	conn, err := sqlDB.Conn(context.Background())
	if err != nil {
		return false
	}
	stmt, err := conn.PrepareContext(context.Background(), `PRAGMA data_version`)
	if err != nil {
		_ = conn.Close()
		return false
	}
	w.conn, w.stmt = conn, stmt
	w.epoch++
	return true
}

// disconnect drops a connection that failed; the next call takes another.
func (w *changeWatch) disconnect() {
	if w.stmt != nil {
		_ = w.stmt.Close()
		_ = w.conn.Close()
	}
	w.conn, w.stmt = nil, nil
}

// close releases the connection and its pool.
func (w *changeWatch) close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.disconnect()
	sqlDB, err := w.db.DB()
	if err != nil {
		return err
	}
	return sqlDB.Close()
}

// readCache keeps values read from the database while nothing at all has
// been written to it since: every entry is dropped at the first commit by
// anyone, so a cached value is never older than what a fresh read would
// give. It holds at most max entries (it is emptied when full).
type readCache[K comparable, V any] struct {
	watch *changeWatch
	max   int
	mu    sync.Mutex
	ver   uint64 // the version the entries were read at
	m     map[K]V
}

func newReadCache[K comparable, V any](w *changeWatch, maxEntries int) *readCache[K, V] {
	return &readCache[K, V]{watch: w, max: maxEntries, m: map[K]V{}}
}

// get returns the value of key, calling load when it is not cached (or the
// database may have changed). load's errors are returned and not cached.
func (c *readCache[K, V]) get(key K, load func() (V, error)) (V, error) {
	v, ok := c.watch.version()
	if !ok {
		return load()
	}
	c.mu.Lock()
	if v > c.ver {
		clear(c.m)
		c.ver = v
	}
	if val, hit := c.m[key]; hit && v == c.ver {
		c.mu.Unlock()
		return val, nil
	}
	c.mu.Unlock()
	// The version was read before load starts, so what load reads is at
	// least as new as v: an entry kept under v is never older than v.
	val, err := load()
	if err != nil {
		return val, err
	}
	c.mu.Lock()
	if v == c.ver {
		if len(c.m) >= c.max {
			clear(c.m)
		}
		c.m[key] = val
	}
	c.mu.Unlock()
	return val, nil
}
