package offline

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
)

// Sentences of subtitle answers.
var (
	subsAskTitle = textmatch.Phrase{
		RU: "Про какой фильм рассказать? Например: «какие субтитры у Матрицы».",
		EN: "Which film do you mean? For example: “which subtitles does The Matrix have”.",
	}
	subsNotFound = textmatch.Phrase{RU: "«%s» в каталоге не нашлось.", EN: "“%s” is not in the catalogue."}
	subsFolder   = textmatch.Phrase{
		RU: "%s — это сериал или сезон, а субтитры лежат рядом с отдельными сериями. Спросите про конкретную серию.",
		EN: "%s is a series or a season; subtitles sit beside single episodes. Ask about one episode.",
	}
	subsNone = textmatch.Phrase{
		RU: "Рядом с видеофайлом %s нет файлов субтитров (.srt, .vtt).",
		EN: "There are no subtitle files (.srt, .vtt) beside the video of %s.",
	}
	subsHead = textmatch.Phrase{
		RU: "Файлы субтитров рядом с видео %s (%d):",
		EN: "Subtitle files beside the video of %s (%d):",
	}
	subsInside = textmatch.Phrase{
		RU: "(Дорожки субтитров внутри самого видеофайла я не читаю.)",
		EN: "(I do not read the subtitle tracks inside the video file itself.)",
	}
)

// subtitles answers "какие субтитры у Матрицы": the subtitle files
// (sidecars) beside the title's video, with their language.
func (m *Model) subtitles(ctx context.Context, q question) ([]string, error) {
	if len(q.scope.title) == 0 {
		return []string{subsAskTitle.In(q.lang)}, nil
	}
	asked := strings.Join(q.scope.title, " ")
	media, ok, err := m.findEntry(ctx, q.scope.title, domain.Media.HasFile)
	switch {
	case err != nil:
		return nil, err
	case !ok:
		return []string{fmt.Sprintf(subsNotFound.In(q.lang), asked)}, nil
	case !media.HasFile():
		return []string{fmt.Sprintf(subsFolder.In(q.lang), labelOf(media, q.lang))}, nil
	}
	subs, err := m.catalog.Subtitles(ctx, media.ID)
	if err != nil {
		return nil, fmt.Errorf("list the subtitles of %d: %w", media.ID, err)
	}
	if len(subs) == 0 {
		return []string{fmt.Sprintf(subsNone.In(q.lang), labelOf(media, q.lang)), subsInside.In(q.lang)}, nil
	}
	lines := []string{fmt.Sprintf(subsHead.In(q.lang), labelOf(media, q.lang), len(subs))}
	for i, s := range subs {
		lines = append(lines, fmt.Sprintf("%d. %s — %s", i+1, s.Label, filepath.Base(s.Path)))
	}
	return append(lines, subsInside.In(q.lang)), nil
}

// findEntry finds the entry a title names (its words as asked, in any
// Russian case: "Матрицы", "Кухне"), trying the search terms best first.
// Among the matches of the first term that finds any it takes, in this
// order, one that want accepts whose title is the asked words in some form
// ("Матрице" is «Матрица», not «Матрица: Перезагрузка»), one that want
// accepts, one titled so, the first.
func (m *Model) findEntry(ctx context.Context, title []string, want func(domain.Media) bool) (domain.Media, bool, error) {
	for _, term := range searchTerms(strings.Join(title, " ")) {
		res, err := m.catalog.SearchTitles(ctx, term, DefaultLimit)
		if err != nil {
			return domain.Media{}, false, fmt.Errorf("search the catalogue for %q: %w", term, err)
		}
		if len(res) == 0 {
			continue
		}
		for _, pass := range []func(domain.Media) bool{
			func(r domain.Media) bool { return want(r) && titled(r, title) }, want,
			func(r domain.Media) bool { return titled(r, title) },
		} {
			for _, r := range res {
				if pass(r) {
					return r, true, nil
				}
			}
		}
		return res[0], true, nil
	}
	return domain.Media{}, false, nil
}

// titled reports whether one of e's titles is the asked words, each in
// some form; small words ("the", "of") do not count.
func titled(e domain.Media, asked []string) bool {
	asked = strong(asked)
	for _, t := range []string{e.Title, e.TitleRu, e.TitleOrig} {
		if tw := strong(words(t)); len(tw) == len(asked) && phraseAt(tw, asked, nil) == 0 {
			return true
		}
	}
	return false
}

// strong drops the weak words.
func strong(ws []string) []string {
	out := make([]string, 0, len(ws))
	for _, w := range ws {
		if !weakWords[w] {
			out = append(out, w)
		}
	}
	return out
}
