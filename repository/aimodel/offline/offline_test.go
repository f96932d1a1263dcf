package offline_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/driver/sqlite"
	"gorm.io/gorm"

	"mediateka/domain"
	"mediateka/repository/aimodel/offline"
	"mediateka/repository/sqlstore/sqlstoretest"
)

// sqlCatalog is a small offline.Catalog over the real media table: the media
// catalogue use case will provide the real one. SQLite's LIKE folds ASCII
// case only, so Cyrillic terms are also tried capitalised, which is how
// titles are written.
type sqlCatalog struct{ s *gorm.DB }

func (c sqlCatalog) SearchTitles(ctx context.Context, query string, limit int) ([]domain.Media, error) {
	var rows []struct {
		ID                              int64
		Path, Title, TitleRu, TitleOrig string
		Year                            *int
		MediaType, MainCategory, Status string
		Number                          *int
	}
	where, args := []string{}, []any{}
	for _, v := range caseVariants(query) {
		where = append(where, "title LIKE ? OR title_ru LIKE ? OR title_orig LIKE ?")
		args = append(args, "%"+v+"%", "%"+v+"%", "%"+v+"%")
	}
	err := c.s.WithContext(ctx).Raw(`SELECT id, path, coalesce(title,'') title, coalesce(title_ru,'') title_ru,
		coalesce(title_orig,'') title_orig, year, media_type, coalesce(main_category,'') main_category,
		coalesce(status,'') status, number FROM media WHERE `+strings.Join(where, " OR ")+
		` ORDER BY media_type IN ('season','episode'), year DESC LIMIT ?`, append(args, limit)...).Scan(&rows).Error
	if err != nil {
		return nil, err
	}
	out := make([]domain.Media, len(rows))
	for i, r := range rows {
		out[i] = domain.Media{ID: r.ID, Path: r.Path, Title: r.Title, TitleRu: r.TitleRu, TitleOrig: r.TitleOrig,
			Year: r.Year, MediaType: r.MediaType, MainCategory: r.MainCategory, Status: r.Status, Number: r.Number}
	}
	return out, nil
}

func caseVariants(q string) []string {
	r := []rune(q)
	first := string(unicode.ToUpper(r[0])) + string(r[1:])
	return []string{q, first}
}

func newCatalog(t *testing.T) sqlCatalog {
	t.Helper()
	db := sqlstoretest.New(t, nil)
	s, err := gorm.Open(sqlite.Open("file:"+db.Path+"?_busy_timeout=10000"), &gorm.Config{})
	require.NoError(t, err)
	t.Cleanup(func() {
		if d, err := s.DB(); err == nil {
			_ = d.Close()
		}
	})
	require.NoError(t, s.Exec(`INSERT INTO media (disk_name, path, title, title_ru, title_orig, year, media_type, main_category, status, number, parent_id) VALUES
		('d1', '/films/Matrix.1999.mkv', 'Матрица', 'Матрица', 'The Matrix', 1999, 'movie', 'sci_fi', 'ok', NULL, 0),
		('d1', '/films/Matrix.Reloaded.2003.mkv', 'Матрица: Перезагрузка', 'Матрица: Перезагрузка', 'The Matrix Reloaded', 2003, 'movie', 'sci_fi', 'ok', NULL, 0),
		('d1', '/films/Brat.1997.avi', 'Брат', 'Брат', NULL, 1997, 'movie', 'crime', 'missing', NULL, 0),
		('d2', '/series/Dark', 'Тьма', 'Тьма', 'Dark', 2017, 'series', 'thriller', 'ok', NULL, 0),
		('d2', '/series/Dark/Season 2', 'Тьма', NULL, NULL, 2019, 'season', NULL, 'ok', 2, 4)`).Error)
	return sqlCatalog{s}
}

func ask(t *testing.T, m *offline.Model, message string) string {
	t.Helper()
	out, err := m.Generate(context.Background(), domain.Prompt{Message: message})
	require.NoError(t, err)
	return out
}

func TestRussianQuestionFindsACatalogueTitle(t *testing.T) {
	m := offline.New(newCatalog(t), offline.Options{})
	assert.Equal(t, "offline", m.Name())
	out := ask(t, m, "Есть ли у меня фильм Матрица?")
	assert.Contains(t, out, "AI-модель не настроена")
	assert.Contains(t, out, "«матрица»")
	assert.Contains(t, out, "• Матрица / The Matrix (1999), фильм, Фантастика")
	assert.Contains(t, out, "• Матрица: Перезагрузка / The Matrix Reloaded (2003), фильм")
	assert.NotContains(t, out, "No AI model", "the answer is in the language of the question")
	assert.NotContains(t, out, "Брат")
}

func TestEnglishQuestionAnswersInEnglish(t *testing.T) {
	m := offline.New(newCatalog(t), offline.Options{})
	out := ask(t, m, "Do I have The Matrix Reloaded?")
	assert.Contains(t, out, "No AI model is configured")
	assert.Contains(t, out, "• The Matrix Reloaded / Матрица: Перезагрузка (2003), movie, Science fiction")
	assert.NotContains(t, out, "(1999)", "the whole phrase matched, so the first film is not listed")

	out = ask(t, m, "do I have Брат")
	assert.Contains(t, out, "No AI model is configured", "an English question about a Russian title is answered in English")
	assert.Contains(t, out, "• Брат (1997), movie, Crime, file currently unavailable")
}

func TestInflectedRussianTitleIsFound(t *testing.T) {
	m := offline.New(newCatalog(t), offline.Options{})
	out := ask(t, m, "найди матрицу")
	assert.Contains(t, out, "• Матрица / The Matrix (1999)")
	out = ask(t, m, "покажи сериал тьма")
	assert.Contains(t, out, "• Тьма / Dark (2017), сериал, Триллеры")
	assert.Contains(t, out, "• Тьма (2019), сезон 2")
}

func TestNothingFoundAndNoTitle(t *testing.T) {
	m := offline.New(newCatalog(t), offline.Options{})
	out := ask(t, m, "есть ли у меня Титаник?")
	assert.Contains(t, out, "По запросу «титаник» в каталоге ничего не нашлось")
	out = ask(t, m, "привет")
	assert.Contains(t, out, "Напишите название фильма или сериала")
	out = ask(t, m, "hello")
	assert.Contains(t, out, "Tell me the title")
}

func TestLimitSaysThereIsMore(t *testing.T) {
	m := offline.New(newCatalog(t), offline.Options{Limit: 1})
	out := ask(t, m, "matrix")
	assert.Equal(t, 1, strings.Count(out, "•"))
	assert.Contains(t, out, "there is more")
}

func TestWithoutCatalogueItSaysSoHonestly(t *testing.T) {
	m := offline.New(nil, offline.Options{})
	out := ask(t, m, "есть ли у меня Матрица")
	assert.Contains(t, out, "AI-модель не настроена")
	assert.Contains(t, out, "Каталог медиатеки пока не подключён")
	assert.Contains(t, out, "«матрица»")
	out = ask(t, m, "do I have The Matrix")
	assert.Contains(t, out, "The media catalogue is not available yet")
}

type failingCatalog struct{}

func (failingCatalog) SearchTitles(context.Context, string, int) ([]domain.Media, error) {
	return nil, errors.New("database is locked")
}

func TestCatalogueFailureIsSaidNotHidden(t *testing.T) {
	m := offline.New(failingCatalog{}, offline.Options{})
	out := ask(t, m, "do I have Dark")
	assert.Contains(t, out, "could not search the catalogue")
	assert.NotContains(t, out, "database is locked", "internals stay in the log")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := offline.New(newCatalog(t), offline.Options{}).Generate(ctx, domain.Prompt{Message: "dark"})
	assert.ErrorIs(t, err, context.Canceled)
}

func TestStreamEmitsTheSameAnswerLineByLine(t *testing.T) {
	m := offline.New(newCatalog(t), offline.Options{})
	var chunks []string
	err := m.Stream(context.Background(), domain.Prompt{Message: "матрица"}, func(c string) error {
		chunks = append(chunks, c)
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, ask(t, m, "матрица"), strings.Join(chunks, ""))
	assert.Len(t, chunks, 4, "header, found line and two titles")

	stop := errors.New("client left")
	err = m.Stream(context.Background(), domain.Prompt{Message: "матрица"}, func(string) error { return stop })
	assert.ErrorIs(t, err, stop)
}
