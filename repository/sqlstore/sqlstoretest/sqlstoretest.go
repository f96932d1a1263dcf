// Package sqlstoretest gives tests a real SQLite store on a temporary file
// and builders for the records they need, so no test opens, migrates,
// closes or fills a database by hand. Raw SQL, for states no repository
// method produces (an orphan, a demoted admin), goes through a connection
// of its own to the same file, as any outside tool's would.
package sqlstoretest

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3" // the driver sqlstore uses, for Raw

	"mediateka/domain"
	"mediateka/repository/sqlstore"
)

// DB is a migrated store on a temporary file with its repositories. It is
// closed when the test ends.
type DB struct {
	*sqlstore.Store
	// Path is the database file.
	Path      string
	Media     *sqlstore.Media
	Users     *sqlstore.Users
	Watching  *sqlstore.WatchStates
	Vectors   *sqlstore.Vectors
	t         testing.TB
	normalize func(string) string
	watch     *sql.DB // one connection kept open for DataVersion
}

// New opens a fresh store for t. Titles are normalised with normalize
// (the catalogue's own in most tests; nil lower-cases nothing).
func New(t testing.TB, normalize func(string) string) *DB {
	t.Helper()
	if normalize == nil {
		normalize = func(s string) string { return s }
	}
	return open(t, filepath.Join(t.TempDir(), "db", "test.db"), normalize)
}

// Another opens a second store on db's file, as another process (the
// command-line scan) would: what it writes reaches db only through the
// file. It is closed when the test ends.
func (db *DB) Another() *DB {
	db.t.Helper()
	return open(db.t, db.Path, db.normalize)
}

// open opens and migrates the store at path for t.
func open(t testing.TB, path string, normalize func(string) string) *DB {
	t.Helper()
	s, err := sqlstore.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("open test store: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return &DB{Store: s, Path: path, Media: sqlstore.NewMedia(s, normalize), Users: sqlstore.NewUsers(s),
		Watching: sqlstore.NewWatchStates(s), Vectors: sqlstore.NewVectors(s), t: t, normalize: normalize}
}

// Raw opens a connection of its own to the database file at path, closed
// when the test ends: for a test that must write a state no repository
// method produces, or read a table no use case shows.
func Raw(t testing.TB, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=10000&_foreign_keys=on")
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// Exec runs one raw statement on the file (see Raw) and fails the test on
// error.
func (db *DB) Exec(q string, args ...any) {
	db.t.Helper()
	raw := Raw(db.t, db.Path)
	if _, err := raw.Exec(q, args...); err != nil {
		db.t.Fatalf("%s: %v", q, err)
	}
}

// Scan runs one raw query on the file and scans its single row into dest.
func (db *DB) Scan(q string, args []any, dest ...any) {
	db.t.Helper()
	if err := Raw(db.t, db.Path).QueryRow(q, args...).Scan(dest...); err != nil {
		db.t.Fatalf("%s: %v", q, err)
	}
}

// DataVersion changes whenever the store commits a write: compare two
// calls to tell whether anything was written in between (SQLite's
// data_version, read on one connection of the test's own).
func (db *DB) DataVersion() int64 {
	db.t.Helper()
	if db.watch == nil {
		db.watch = Raw(db.t, db.Path)
		db.watch.SetMaxOpenConns(1)
		db.watch.SetConnMaxLifetime(0)
	}
	var v int64
	if err := db.watch.QueryRow(`PRAGMA data_version`).Scan(&v); err != nil {
		db.t.Fatalf("read data_version: %v", err)
	}
	return v
}

// User creates an account with a name derived from the e-mail; edit
// changes it before it is stored (an admin, a Telegram id).
func (db *DB) User(email string, edit ...func(*domain.User)) domain.User {
	db.t.Helper()
	u := domain.User{Email: email, Name: email, Role: domain.RoleUser}
	for _, e := range edit {
		e(&u)
	}
	out, err := db.Users.Create(context.Background(), u)
	if err != nil {
		db.t.Fatalf("create user %s: %v", email, err)
	}
	return out
}

// Admin makes a User an administrator.
func Admin(u *domain.User) { u.Role, u.IsAdmin = domain.RoleAdmin, true }

// Movie stores a movie file "/library/<title> (<year>)/<title>.mkv" on disk
// "Disk"; year 0 is unknown. edit changes the record before it is stored.
func (db *DB) Movie(title string, year int, edit ...func(*domain.Media)) domain.Media {
	db.t.Helper()
	m := file(fmt.Sprintf("/library/%s (%d)/%s.mkv", title, year, title), title, domain.MediaMovie)
	if year != 0 {
		m.Year = &year
	}
	return db.Put(m, edit...)
}

// Year sets the year of a record, for the builders that take none (a
// series, a season).
func Year(y int) func(*domain.Media) { return func(m *domain.Media) { m.Year = &y } }

// Series stores a series folder "/library/<title>" and returns a builder
// for its seasons.
func (db *DB) Series(title string, edit ...func(*domain.Media)) *Series {
	db.t.Helper()
	m := domain.Media{DiskName: "Disk", Path: "/library/" + title, Title: title, MediaType: domain.MediaSeries,
		Status: domain.StatusOK}
	return &Series{db: db, Media: db.Put(m, edit...)}
}

// Series is a stored series; Season adds seasons below it.
type Series struct {
	domain.Media
	db *DB
}

// Season stores season n of the series (a folder "Season n").
func (s *Series) Season(n int, edit ...func(*domain.Media)) *Season {
	s.db.t.Helper()
	m := domain.Media{DiskName: "Disk", Path: fmt.Sprintf("%s/Season %d", s.Path, n), Title: s.Title,
		MediaType: domain.MediaSeason, Status: domain.StatusOK, Number: &n, ParentID: s.ID}
	return &Season{db: s.db, Media: s.db.Put(m, edit...)}
}

// Season is a stored season; Episode adds episode files below it.
type Season struct {
	domain.Media
	db *DB
}

// Episode stores episode n of the season as a file "SxxEyy.mkv".
func (s *Season) Episode(n int, edit ...func(*domain.Media)) domain.Media {
	s.db.t.Helper()
	m := file(fmt.Sprintf("%s/S%02dE%02d.mkv", s.Path, *s.Number, n), s.Title, domain.MediaEpisode)
	m.Number, m.ParentID = &n, s.ID
	return s.db.Put(m, edit...)
}

// Put stores m as a new record, after edit, and returns it as read back.
func (db *DB) Put(m domain.Media, edit ...func(*domain.Media)) domain.Media {
	db.t.Helper()
	for _, e := range edit {
		e(&m)
	}
	ctx := context.Background()
	ids, err := db.Media.ApplyScan(ctx, []domain.MediaChange{{Media: m}})
	if err != nil {
		db.t.Fatalf("store media %s: %v", m.Path, err)
	}
	out, err := db.Media.ByID(ctx, ids[m.Path])
	if err != nil {
		db.t.Fatalf("read media %s: %v", m.Path, err)
	}
	return out
}

// file is a video file record with a size and a modification time.
func file(path, title, typ string) domain.Media {
	return domain.Media{DiskName: "Disk", Path: path, Title: title, MediaType: typ, Status: domain.StatusOK,
		Size: 1 << 20, ModTime: time.Unix(1_700_000_000, 0).UTC()}
}
