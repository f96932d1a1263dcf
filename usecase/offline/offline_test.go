package offline_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/localfs"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/catalog"
	"mediateka/usecase/offline"
	"mediateka/usecase/textmatch"
)

// newCatalog is the real catalogue service over a real SQLite file, holding
// two Matrix films, Брат (whose file is missing) and the series Тьма with its
// second season.
func newCatalog(t *testing.T) *catalog.Service {
	t.Helper()
	db := sqlstoretest.New(t, textmatch.Normalize)
	titled := func(orig, category string) func(*domain.Media) {
		return func(m *domain.Media) { m.TitleRu, m.TitleOrig, m.MainCategory = m.Title, orig, category }
	}
	db.Movie("Матрица", 1999, titled("The Matrix", "sci_fi"))
	db.Movie("Матрица: Перезагрузка", 2003, titled("The Matrix Reloaded", "sci_fi"))
	db.Movie("Брат", 1997, titled("", "crime"), func(m *domain.Media) { m.Status = domain.StatusMissing })
	db.Series("Тьма", titled("Dark", "thriller"), sqlstoretest.Year(2017)).Season(2, sqlstoretest.Year(2019))
	svc := catalog.New(db.Media, db.Media, localfs.FS{}, catalog.Options{})
	t.Cleanup(svc.Close)
	return svc
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
	out = ask(t, m, "есть ли у меня")
	assert.Contains(t, out, "Напишите название фильма или сериала")
	out = ask(t, m, "do I have")
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

// failingCatalog is a catalogue whose database does not answer.
type failingCatalog struct{}

var errLocked = errors.New("database is locked")

func (failingCatalog) SearchTitles(context.Context, string, int) ([]domain.Media, error) {
	return nil, errLocked
}
func (failingCatalog) Files(context.Context, catalog.FilesQuery) (catalog.Listing, error) {
	return catalog.Listing{}, errLocked
}
func (failingCatalog) Get(context.Context, int64) (catalog.Entry, error) {
	return catalog.Entry{}, errLocked
}
func (failingCatalog) Facets(context.Context, catalog.FilesQuery, func(domain.MediaFacet) error) error {
	return errLocked
}
func (failingCatalog) Entries(context.Context, []int64) ([]domain.Media, error) {
	return nil, errLocked
}
func (failingCatalog) Subtitles(context.Context, int64) ([]catalog.Subtitle, error) {
	return nil, errLocked
}

func TestCatalogueFailureIsSaidNotHidden(t *testing.T) {
	m := offline.New(failingCatalog{}, offline.Options{})
	for _, msg := range []string{"do I have Dark", "how many episodes of Dark", "what can I watch tonight", "how many films from 2010"} {
		out := ask(t, m, msg)
		assert.Contains(t, out, "could not read the catalogue", msg)
		assert.NotContains(t, out, "database is locked", "internals stay in the log")
	}
	assert.Contains(t, ask(t, m, "thanks"), "You're welcome", "small talk needs no catalogue")

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
	assert.Len(t, chunks, 4, "found line, two titles and the disclaimer")

	stop := errors.New("client left")
	err = m.Stream(context.Background(), domain.Prompt{Message: "матрица"}, func(string) error { return stop })
	assert.ErrorIs(t, err, stop)
}

func TestAMessageWithoutWordsIsAnsweredInTheCallersLanguage(t *testing.T) {
	m := offline.New(newCatalog(t), offline.Options{})
	ru := domain.WithCaller(context.Background(), domain.Caller{UserID: 1, Lang: domain.LangRussian})
	out, err := m.Generate(ru, domain.Prompt{Message: "2046"})
	require.NoError(t, err)
	assert.Contains(t, out, "По запросу «2046» в каталоге ничего не нашлось")
	out = ask(t, m, "2046")
	assert.Contains(t, out, "Nothing in the catalogue matches “2046”", "no caller, no letters: the default language")
	out, err = m.Generate(ru, domain.Prompt{Message: "do I have Брат"})
	require.NoError(t, err)
	assert.Contains(t, out, "No AI model is configured", "the words of the question still decide")
}

// A category word that is part of a title is read as the title: "Star
// Wars" is not "star" on the war shelf.
func TestACategoryWordInsideATitleStaysInTheTitle(t *testing.T) {
	db := sqlstoretest.New(t, textmatch.Normalize)
	db.Movie("Star Wars", 1977, func(m *domain.Media) { m.TitleOrig, m.MainCategory = m.Title, "sci_fi" })
	db.Movie("War Horse", 2011, func(m *domain.Media) { m.TitleOrig, m.MainCategory = m.Title, "war" })
	svc := catalog.New(db.Media, db.Media, localfs.FS{}, catalog.Options{})
	t.Cleanup(svc.Close)
	m := offline.New(svc, offline.Options{})
	out := ask(t, m, "how many Star Wars movies do I have?")
	assert.Contains(t, out, "The catalogue has 1 movie matching “star wars”:\n• “Star Wars” (1977)")
	assert.NotContains(t, out, "War Horse")
	out = ask(t, m, "how many war movies")
	assert.Contains(t, out, "The catalogue has 1 movie (War).\n• “War Horse” (2011)")
	out = ask(t, m, "recommend something like Star Wars")
	assert.Contains(t, out, "The catalogue has nothing like “Star Wars” (1977) (Science fiction).", "its shelf holds only itself")
}
