package library_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/usecase/library"
)

// libraryTree is a small library laid out the ways people lay them out.
func libraryTree() []string {
	return []string{
		"Фильмы/Боевики/The.Matrix.1999.1080p.BluRay.x264-GROUP.mkv",
		"Фильмы/Комедии/Polnoch'_v_Parizhe_2011_BDRip.avi",
		"Фильмы/Волшебная страна Finding Neverland (Марк Форстер) [2004, США, драма, BDRip].mkv",
		"Фильмы/Inception (2010)/Inception.2010.720p.mkv",
		"Сериалы/Breaking Bad (2008)/Season 1/Breaking.Bad.S01E01.720p.mkv",
		"Сериалы/Breaking Bad (2008)/Season 1/Breaking.Bad.S01E02.720p.mkv",
		"Сериалы/Breaking Bad (2008)/Season 2/Breaking.Bad.S02E01.720p.mkv",
		"Сериалы/Прослушка/Сезон 1/05 Прослушка.avi",
		"Сериалы/1883 1 - LostFilm.TV [1080p]/1883.S01E01.1080p.rus.LostFilm.TV.mkv",
		"Сериалы/1883 1 - LostFilm.TV [1080p]/1883.S01E02.1080p.rus.LostFilm.TV.mkv",
		"Сериалы/Lost/Lost Season_05 720p.mkv",
		"Сериалы/Friends/friends.1x02.avi",
		"Сериалы/Doctor Who/Specials/Doctor.Who.S00E01.mkv",
		"Сериалы/Sherlock.S01.1080p/Sherlock.S01E01.mkv",
		"Сериалы/Sherlock.S02.1080p/Sherlock.S02E01.mkv",
		"Сериалы/Westworld.S01E01.720p.HDTV/westworld.s01e01.720p.hdtv.mkv",
	}
}

func TestScanBuildsTheCatalogue(t *testing.T) {
	e := newEnv(t)
	e.touch(libraryTree()...)
	e.touch("notes.txt", ".hidden/secret.mkv", "Фильмы/Inception (2010)/poster.jpg")
	st := e.scan(library.ScanRequest{})
	assert.Equal(t, 16, st.FilesSeen)
	assert.Equal(t, 16, st.Added)
	assert.Zero(t, st.Updated)
	assert.Empty(t, st.Errors)
	assert.Equal(t, []string{"scan_started", "scan_completed"}, e.events.names())
	done, ok := e.events.last().(domain.ScanCompleted)
	require.True(t, ok)
	assert.Equal(t, domain.ScanCompleted{ScanID: st.ScanID, State: domain.JobCompleted, FilesSeen: 16, Added: 16,
		DurationMS: st.FinishedAt.Sub(st.StartedAt).Milliseconds()}, done)
	e.consistent()

	matrix := e.at("Фильмы/Боевики/The.Matrix.1999.1080p.BluRay.x264-GROUP.mkv")
	assert.Equal(t, domain.MediaMovie, matrix.MediaType)
	assert.Equal(t, "The Matrix", matrix.Title)
	assert.Equal(t, ptr(1999), matrix.Year)
	assert.Equal(t, "action", matrix.MainCategory)
	assert.Equal(t, "Disk 1", matrix.DiskName)
	assert.Equal(t, domain.StatusOK, matrix.Status)
	assert.Equal(t, "comedy", e.at("Фильмы/Комедии/Polnoch'_v_Parizhe_2011_BDRip.avi").MainCategory)
	neverland := e.at("Фильмы/Волшебная страна Finding Neverland (Марк Форстер) [2004, США, драма, BDRip].mkv")
	assert.Equal(t, "Волшебная страна", neverland.TitleRu)
	assert.Equal(t, "Finding Neverland", neverland.TitleOrig)

	bb := e.at("Сериалы/Breaking Bad (2008)")
	assert.Equal(t, domain.MediaSeries, bb.MediaType)
	assert.Equal(t, "Breaking Bad", bb.Title)
	assert.Equal(t, ptr(2008), bb.Year)
	assert.Equal(t, ptr(2), bb.NumOfSeasons)
	assert.Equal(t, []int{2, 1}, bb.NumEpisodesPerSeason)
	s1 := e.at("Сериалы/Breaking Bad (2008)/Season 1")
	assert.Equal(t, domain.MediaSeason, s1.MediaType)
	assert.Equal(t, bb.ID, s1.ParentID)
	assert.Equal(t, ptr(1), s1.Number)
	ep := e.at("Сериалы/Breaking Bad (2008)/Season 1/Breaking.Bad.S01E02.720p.mkv")
	assert.Equal(t, domain.MediaEpisode, ep.MediaType)
	assert.Equal(t, s1.ID, ep.ParentID)
	assert.Equal(t, ptr(2), ep.Number)

	wire := e.at("Сериалы/Прослушка/Сезон 1/05 Прослушка.avi")
	assert.Equal(t, ptr(5), wire.Number)
	assert.Equal(t, e.at("Сериалы/Прослушка/Сезон 1").ID, wire.ParentID)
	assert.Equal(t, "Прослушка", e.at("Сериалы/Прослушка").Title)

	// A season folder straight on a shelf: the series has no folder.
	lf := e.at("Сериалы#1883")
	assert.Equal(t, domain.MediaSeries, lf.MediaType)
	assert.Equal(t, lf.ID, e.at("Сериалы/1883 1 - LostFilm.TV [1080p]").ParentID)
	sherlock := e.at("Сериалы#sherlock")
	assert.Equal(t, ptr(2), sherlock.NumOfSeasons, "two season folders of one series share it")

	pack := e.at("Сериалы/Lost/Lost Season_05 720p.mkv")
	assert.Equal(t, domain.MediaSeason, pack.MediaType)
	assert.Equal(t, 1, pack.EpisodeScanSkipped)
	assert.Equal(t, ptr(5), pack.Number)
	assert.Equal(t, e.at("Сериалы/Lost").ID, pack.ParentID)

	friends := e.at("Сериалы/Friends/friends.1x02.avi")
	assert.Equal(t, e.at("Сериалы/Friends#S01").ID, friends.ParentID)
	special := e.at("Сериалы/Doctor Who/Specials")
	assert.Equal(t, ptr(0), special.Number)
	assert.Equal(t, ptr(0), e.at("Сериалы/Doctor Who").NumOfSeasons, "specials are not a season")

	ww := e.at("Сериалы/Westworld.S01E01.720p.HDTV/westworld.s01e01.720p.hdtv.mkv")
	assert.Equal(t, e.at("Сериалы#westworld#S01").ID, ww.ParentID, "a one-episode folder is skipped")
}

func TestRescanOfUnchangedLibraryWritesNothing(t *testing.T) {
	e := newEnv(t)
	e.touch(libraryTree()...)
	e.scan(library.ScanRequest{})
	before := e.writes()
	st := e.scan(library.ScanRequest{})
	assert.Equal(t, before, e.writes(), "no row was written")
	assert.Equal(t, 16, st.FilesSeen)
	assert.Zero(t, st.Added+st.Updated+st.Missing)
}

func TestRescanUpdatesChangedMissingAndReturningFiles(t *testing.T) {
	e := newEnv(t)
	e.touch(libraryTree()...)
	e.scan(library.ScanRequest{})
	matrixPath := filepath.Join(e.root, "Фильмы/Боевики/The.Matrix.1999.1080p.BluRay.x264-GROUP.mkv")
	lostPath := filepath.Join(e.root, "Сериалы/Friends/friends.1x02.avi")
	require.NoError(t, os.WriteFile(matrixPath, []byte("a longer, re-encoded video"), 0o644))
	require.NoError(t, os.Rename(lostPath, lostPath+".bak"))
	e.touch("Сериалы/Friends/friends.1x03.avi")

	st := e.scan(library.ScanRequest{})
	assert.Equal(t, 1, st.Added)
	assert.Equal(t, 1, st.Updated)
	assert.Equal(t, 1, st.Missing)
	assert.EqualValues(t, len("a longer, re-encoded video"), e.at("Фильмы/Боевики/The.Matrix.1999.1080p.BluRay.x264-GROUP.mkv").Size)
	gone := e.at("Сериалы/Friends/friends.1x02.avi")
	assert.Equal(t, domain.StatusMissing, gone.Status, "a vanished file is kept, marked missing")
	assert.Equal(t, domain.StatusOK, e.at("Сериалы/Friends").Status, "the series still has an episode")

	require.NoError(t, os.Rename(lostPath+".bak", lostPath))
	st = e.scan(library.ScanRequest{})
	assert.Equal(t, 1, st.Updated)
	assert.Equal(t, domain.StatusOK, e.at("Сериалы/Friends/friends.1x02.avi").Status)
	assert.Equal(t, gone.ID, e.at("Сериалы/Friends/friends.1x02.avi").ID, "the same record comes back")
}

func TestEverythingGoneMarksTheSeriesMissing(t *testing.T) {
	e := newEnv(t)
	e.touch("Сериалы/Friends/friends.1x02.avi")
	e.scan(library.ScanRequest{})
	require.NoError(t, os.RemoveAll(filepath.Join(e.root, "Сериалы")))
	e.scan(library.ScanRequest{})
	assert.Equal(t, domain.StatusMissing, e.at("Сериалы/Friends").Status)
	assert.Equal(t, domain.StatusMissing, e.at("Сериалы/Friends#S01").Status)
	assert.Len(t, e.all(), 3, "nothing is deleted")
}

func TestScanOfOnePathLeavesTheRestAlone(t *testing.T) {
	e := newEnv(t)
	e.touch(libraryTree()...)
	e.scan(library.ScanRequest{})
	require.NoError(t, os.Remove(filepath.Join(e.root, "Фильмы/Боевики/The.Matrix.1999.1080p.BluRay.x264-GROUP.mkv")))
	e.touch("Сериалы/Sherlock.S03.1080p/Sherlock.S03E01.mkv")

	st := e.scan(library.ScanRequest{Paths: []string{filepath.Join(e.root, "Сериалы")}})
	assert.Equal(t, 1, st.Added)
	assert.Zero(t, st.Missing, "the movie is outside the scanned folder")
	assert.Equal(t, domain.StatusOK, e.at("Фильмы/Боевики/The.Matrix.1999.1080p.BluRay.x264-GROUP.mkv").Status)
	assert.Equal(t, ptr(3), e.at("Сериалы#sherlock").NumOfSeasons, "the new season joins the existing series")

	st = e.scan(library.ScanRequest{Paths: []string{filepath.Join(e.root, "Сериалы/Friends/friends.1x02.avi")}})
	assert.Equal(t, 1, st.FilesSeen, "a single file can be scanned")
}

func TestEditedFieldsSurviveRescans(t *testing.T) {
	e := newEnv(t)
	e.touch("Фильмы/Боевики/The.Matrix.1999.mkv")
	e.scan(library.ScanRequest{})
	m := e.at("Фильмы/Боевики/The.Matrix.1999.mkv")
	_, err := e.svc.Edit(context.Background(), m.ID, library.Patch{"title": "Матрица", "year": 1998.0})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(e.root, "Фильмы/Боевики/The.Matrix.1999.mkv"), []byte("changed"), 0o644))
	st := e.scan(library.ScanRequest{})
	assert.Equal(t, 1, st.Updated)
	got := e.at("Фильмы/Боевики/The.Matrix.1999.mkv")
	assert.Equal(t, "Матрица", got.Title)
	assert.Equal(t, ptr(1998), got.Year)
	assert.EqualValues(t, len("changed"), got.Size, "the scan still updates what nobody edited")
	assert.ElementsMatch(t, []string{"title", "year"}, got.EditedFields)
}

func TestOneScanAtATime(t *testing.T) {
	gate := make(chan struct{})
	e := newEnv(t, withFS(&gatedFS{gate: gate}))
	e.touch("a/x.mkv")
	id, err := e.svc.StartScan(library.ScanRequest{})
	require.NoError(t, err)
	require.NotEmpty(t, id)
	_, err = e.svc.StartScan(library.ScanRequest{})
	assert.ErrorIs(t, err, domain.ErrScanRunning)
	assert.Equal(t, library.StateRunning, e.svc.ScanStatus().State)
	close(gate)
	waitState(t, e.svc, library.StateCompleted)
	assert.Equal(t, id, e.svc.ScanStatus().ScanID)
	_, err = e.svc.CancelScan()
	assert.ErrorIs(t, err, domain.ErrScanNotRunning)
}

func TestCancelNamesTheScanItCancelled(t *testing.T) {
	gate := make(chan struct{})
	e := newEnv(t, withFS(&gatedFS{gate: gate}))
	e.touch("a/x.mkv")
	id, err := e.svc.StartScan(library.ScanRequest{})
	require.NoError(t, err)
	cancelled, err := e.svc.CancelScan()
	require.NoError(t, err)
	assert.Equal(t, id, cancelled)
	close(gate)
	st := waitState(t, e.svc, library.StateCancelled)
	assert.Equal(t, id, st.ScanID)
	assert.Empty(t, st.CurrentPath, "a finished scan reads nothing")
}

func TestTheScanLockKeepsProcessesApart(t *testing.T) {
	other := newEnv(t)
	unlock, ok, err := lockOf(other).TryLock()
	require.NoError(t, err)
	require.True(t, ok)
	_, err = other.svc.StartScan(library.ScanRequest{})
	assert.ErrorIs(t, err, domain.ErrScanRunning, "another process holds the lock")
	unlock()
	other.scan(library.ScanRequest{})
}

func waitState(t *testing.T, svc *library.Service, state domain.JobState) library.Status {
	t.Helper()
	var st library.Status
	require.Eventually(t, func() bool { st = svc.ScanStatus(); return st.State == state }, 10*time.Second, 5*time.Millisecond)
	return st
}

// A file of a season folder that carries no episode number of its own
// (an obfuscated name) beside numbered episodes is one more episode of
// that season, not a second record of the season; a season in one file
// with no numbered episode beside it stays a season record.
func TestAnUnnumberedFileBesideEpisodesIsAnEpisode(t *testing.T) {
	e := newEnv(t)
	e.touch("Сериалы/Dark/Season 1/Dark.S01E01.1080p.NF.WEB-DL.mkv", "Сериалы/Dark/Season 1/c48db7d2e1.mkv",
		"Сериалы/Lost/Lost.S02.1080p.BluRay.mkv")
	e.scan(library.ScanRequest{})
	e.consistent()

	hashed := e.at("Сериалы/Dark/Season 1/c48db7d2e1.mkv")
	assert.Equal(t, domain.MediaEpisode, hashed.MediaType)
	assert.Nil(t, hashed.Number, "its number is not known")
	season := e.at("Сериалы/Dark/Season 1")
	assert.Equal(t, season.ID, hashed.ParentID)
	seasons := 0
	for _, m := range e.all() {
		if m.MediaType == domain.MediaSeason && m.ParentID == season.ParentID {
			seasons++
		}
	}
	assert.Equal(t, 1, seasons, "Dark has one season")

	pack := e.at("Сериалы/Lost/Lost.S02.1080p.BluRay.mkv")
	assert.Equal(t, domain.MediaSeason, pack.MediaType)
	assert.Equal(t, 1, pack.EpisodeScanSkipped)
}
