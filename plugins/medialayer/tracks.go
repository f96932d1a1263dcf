package medialayer

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"mediateka/domain"
)

// searchLimit is how many catalogue matches are looked at for one title.
const searchLimit = 5

// tracks answers a question about the audio or subtitle tracks of a title:
// it finds the title in the catalogue, reads the file with ffprobe and
// lists the tracks. Each missing piece (no catalogue, no such title, no
// ffprobe, an unreadable file) is said plainly.
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
	case p.d.Prober == nil:
		return fmt.Sprintf(t.noProber, label(*media))
	}
	streams, err := p.d.Prober.Streams(ctx, media.Path)
	if err != nil {
		p.d.Logger.WarnContext(ctx, "media_layer: cannot read a file's tracks", "media_id", media.ID, "err", err)
		return fmt.Sprintf(t.probeFailed, label(*media))
	}
	var lines []string
	for _, s := range streams {
		if s.Type == q.kind {
			lines = append(lines, fmt.Sprintf("%d. %s", len(lines)+1, t.track(s)))
		}
	}
	head := t.audioHead
	if q.kind == domain.StreamSubtitle {
		head = t.subtitleHead
	}
	if len(lines) == 0 {
		return fmt.Sprintf(t.noTracks[q.kind], label(*media))
	}
	return fmt.Sprintf(head, label(*media), len(lines)) + "\n" + strings.Join(lines, "\n")
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
