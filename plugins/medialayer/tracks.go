package medialayer

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"mediateka/domain"
)

// searchLimit is how many catalogue matches are looked at for one title.
const searchLimit = 5

// tracks answers a question about the audio or subtitle tracks of a title:
// it finds the title in the catalogue, reads the file with ffprobe and
// lists the tracks; for subtitles also the subtitle files beside it. Each
// missing piece (no catalogue, no such title, no ffprobe, an unreadable
// file) is said plainly.
func (p *Plugin) tracks(ctx context.Context, t phrases, q trackQuestion) string {
	if p.d.Catalog == nil {
		return fmt.Sprintf(t.noCatalog, q.title)
	}
	media, err := p.find(ctx, q.title)
	switch {
	case err != nil:
		p.d.Logger.WarnContext(ctx, "media_layer: catalogue search failed", "err", err)
		return fmt.Sprintf(t.searchFailed, q.title)
	case media == nil:
		return fmt.Sprintf(t.notFound, q.title)
	case media.MediaType == domain.MediaSeries || media.MediaType == domain.MediaSeason:
		return fmt.Sprintf(t.isFolder, label(*media))
	case q.kind == domain.StreamSubtitle:
		return p.subtitles(ctx, t, *media)
	case p.d.Prober == nil:
		return fmt.Sprintf(t.noProber, label(*media))
	}
	streams, err := p.probe(ctx, *media)
	if err != nil {
		return fmt.Sprintf(t.probeFailed, label(*media))
	}
	return listStreams(t, *media, streams, q.kind)
}

// listStreams lists the streams of kind in a file: "Звуковые дорожки
// «Матрица (1999)» (2):" and one numbered line each.
func listStreams(t phrases, media domain.Media, streams []domain.MediaStream, kind string) string {
	var lines []string
	for _, s := range streams {
		if s.Type == kind {
			lines = append(lines, fmt.Sprintf("%d. %s", len(lines)+1, t.track(s)))
		}
	}
	if len(lines) == 0 {
		return fmt.Sprintf(t.noTracks[kind], label(media))
	}
	head := t.audioHead
	if kind == domain.StreamSubtitle {
		head = t.subtitleHead
	}
	return fmt.Sprintf(head, label(media), len(lines)) + "\n" + strings.Join(lines, "\n")
}

// subtitles answers "какие субтитры у Матрицы": the subtitle tracks inside
// the file (ffprobe), then the subtitle files beside it, each part saying
// plainly when it cannot be read.
func (p *Plugin) subtitles(ctx context.Context, t phrases, media domain.Media) string {
	var parts []string
	switch streams, err := p.probe(ctx, media); {
	case p.d.Prober == nil:
		parts = append(parts, fmt.Sprintf(t.noProberSubs, label(media)))
	case err != nil:
		parts = append(parts, fmt.Sprintf(t.probeFailed, label(media)))
	default:
		parts = append(parts, listStreams(t, media, streams, domain.StreamSubtitle))
	}
	if p.d.Subtitles == nil {
		return strings.Join(parts, "\n")
	}
	files, err := p.d.Subtitles.Subtitles(ctx, media.ID)
	switch {
	case err != nil:
		p.d.Logger.WarnContext(ctx, "media_layer: cannot list subtitle files", "media_id", media.ID, "err", err)
		parts = append(parts, t.sidecarFailed)
	case len(files) == 0:
		parts = append(parts, t.noSidecars)
	default:
		parts = append(parts, fmt.Sprintf(t.sidecarHead, len(files)))
		for i, f := range files {
			parts = append(parts, fmt.Sprintf("%d. %s — %s", i+1, f.Label, filepath.Base(f.Path)))
		}
	}
	return strings.Join(parts, "\n")
}

// probe reads a file's streams; nil without a prober. A failure is logged.
func (p *Plugin) probe(ctx context.Context, media domain.Media) ([]domain.MediaStream, error) {
	if p.d.Prober == nil {
		return nil, nil
	}
	streams, err := p.d.Prober.Streams(ctx, media.Path)
	if err != nil {
		p.d.Logger.WarnContext(ctx, "media_layer: cannot read a file's tracks", "media_id", media.ID, "err", err)
	}
	return streams, err
}

// find returns the best catalogue match for title, trying the Russian
// case-ending variants when the words as written find nothing.
func (p *Plugin) find(ctx context.Context, title string) (*domain.Media, error) {
	for _, v := range titleVariants(title) {
		res, err := p.d.Catalog.SearchTitles(ctx, v, searchLimit)
		if err != nil {
			return nil, err
		}
		if len(res) > 0 {
			return &res[0], nil
		}
	}
	return nil, nil
}

// label names an entry in an answer: "Матрица (1999)".
func label(m domain.Media) string {
	name := m.Title
	for _, n := range []string{m.TitleRu, m.TitleOrig, m.Path} {
		if name == "" {
			name = n
		}
	}
	if m.Year != nil {
		name += " (" + strconv.Itoa(*m.Year) + ")"
	}
	return name
}
