// Package sqlstore keeps mediateka's records in SQLite through GORM. GORM
// models stay in this package; repositories hand out domain types only.
package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"mediateka/domain"
)

// Store holds the two connection pools of one SQLite file. SQLite allows one
// writer at a time; funnelling every write through a single connection (and
// every read through a pool of read-only ones) means concurrent requests
// queue in Go instead of failing with "database is locked".
type Store struct {
	// writer is the single writer connection.
	writer *gorm.DB
	// reader is the read pool; its connections refuse writes.
	reader *gorm.DB
	// changes tells the read caches when anyone wrote to the file.
	changes *changeWatch
}

// Open opens (creating when absent) the database at path, applies pending
// migrations and returns the store. ":memory:" is not supported because the
// two pools must see the same data: tests use a temporary file.
func Open(ctx context.Context, path string) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return nil, fmt.Errorf("create database folder: %w", err)
	}
	if err := privateFiles(path); err != nil {
		return nil, err
	}
	w, err := openPool(path, false, 1)
	if err != nil {
		return nil, err
	}
	s := &Store{writer: w}
	if err := migrate(ctx, w, migrations()); err != nil {
		_ = s.Close()
		return nil, err
	}
	r, err := openPool(path, true, max(4, runtime.GOMAXPROCS(0)*2))
	if err != nil {
		_ = s.Close()
		return nil, err
	}
	s.reader = r
	if s.changes, err = newChangeWatch(path); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

// privateFiles makes the database and its -wal and -shm readable by the
// owner only, whatever the umask and whoever made the folder (Docker's
// /data exists before the first start): the file holds password hashes
// and encrypted keys. SQLite creates -wal and -shm with the database's
// permission bits, so creating the database 0600 (or tightening an older
// one) covers all three; -wal and -shm left by an earlier run are
// tightened too.
func privateFiles(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("create database %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("create database %s: %w", path, err)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		st, err := os.Stat(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("check database file %s: %w", p, err)
		}
		if st.Mode().Perm()&0o077 != 0 {
			if err := os.Chmod(p, 0o600); err != nil {
				return fmt.Errorf("restrict database file %s: %w", p, err)
			}
		}
	}
	return nil
}

func openPool(path string, readOnly bool, conns int) (*gorm.DB, error) {
	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	q.Set("_synchronous", "NORMAL")
	q.Set("_busy_timeout", "10000")
	q.Set("_foreign_keys", "on")
	if readOnly {
		q.Set("_query_only", "true")
	} else {
		q.Set("_txlock", "immediate")
	}
	dsn := "file:" + path + "?" + q.Encode()
	db, err := gorm.Open(sqlite.Open(dsn), &gorm.Config{
		Logger:         logger.Discard,
		TranslateError: true,
		NowFunc:        func() time.Time { return time.Now().UTC() },
	})
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	sqlDB.SetMaxOpenConns(conns)
	sqlDB.SetMaxIdleConns(conns)
	sqlDB.SetConnMaxLifetime(0)
	if err := sqlDB.Ping(); err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	return db, nil
}

// Close closes both pools.
func (s *Store) Close() error {
	var errs []error
	if s.changes != nil {
		errs = append(errs, s.changes.close())
	}
	for _, db := range []*gorm.DB{s.reader, s.writer} {
		if db == nil {
			continue
		}
		if sqlDB, err := db.DB(); err == nil {
			errs = append(errs, sqlDB.Close())
		}
	}
	return errors.Join(errs...)
}

// mapErr turns GORM's errors into domain errors so use cases never see GORM:
// no row → NotFound, unique violation → Conflict. what names the record.
func mapErr(err error, what string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, gorm.ErrRecordNotFound):
		return domain.ErrNotFound(what).Wrap(err)
	case errors.Is(err, gorm.ErrDuplicatedKey):
		return domain.ErrConflict(what + " already exists").Wrap(err)
	default:
		return fmt.Errorf("%s: %w", what, err)
	}
}
