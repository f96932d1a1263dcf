package telegram

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"mediateka/domain"
	"mediateka/usecase/control"
	"mediateka/usecase/textmatch"
	"mediateka/usecase/torrent"
)

// The operations of a list's buttons: callback_data is
// "<op>:<list id>:<number>", the number a page or a result's index, so it
// stays far under Telegram's 64 bytes.
const (
	opFindPage    = "f"
	opPlay        = "p"
	opTorrentPage = "t"
	opDownload    = "d"
)

// buttonTitleRunes bounds a title on a button.
const buttonTitleRunes = 32

// find is /find <title>: up to maxFound catalogue entries by title, five
// a page, each playable one with a ▶ button.
func (p *Plugin) find(ctx context.Context, in incoming, query string) {
	switch {
	case query == "":
		p.send(ctx, in, esc(txtFindUsage.In(in.lang)), nil)
		return
	case p.d.Catalog == nil:
		p.send(ctx, in, esc(txtFindUnavailable.In(in.lang)), nil)
		return
	}
	found, err := p.d.Catalog.SearchTitles(ctx, query, maxFound)
	if err != nil {
		p.log.Warn("telegram: /find failed", "err", err.Error())
		p.send(ctx, in, esc(txtFailed.In(in.lang)), nil)
		return
	}
	if len(found) == 0 {
		p.send(ctx, in, fmt.Sprintf(esc(txtFindNothing.In(in.lang)), esc(textmatch.Quote(in.lang, query))), nil)
		return
	}
	l := &list{kind: listFind, chatID: in.chatID, userID: in.userID, query: query, found: found}
	text, markup := listPage(in.lang, p.lists.put(l), l, 0)
	p.send(ctx, in, text, markup)
}

// torrentSearch is /torrent <query>: the indexers' results, most seeded
// first, five a page, each with a ⬇ button; linked accounts only.
func (p *Plugin) torrentSearch(ctx context.Context, in incoming, query string) {
	switch {
	case query == "":
		p.send(ctx, in, esc(txtTorrentUsage.In(in.lang)), nil)
		return
	case p.d.TorrentSearch == nil:
		p.send(ctx, in, esc(txtTorrentSearchOff.In(in.lang)), nil)
		return
	}
	// A search spends the indexers' quota: it acts as an account, as
	// torrent_search in the chat does.
	if _, linked := p.caller(ctx, in); !linked {
		p.send(ctx, in, esc(textmatch.LinkFirst(in.lang)), nil)
		return
	}
	stop := p.typing(ctx, in)
	res, err := p.d.TorrentSearch.Search(ctx, query, "")
	stop()
	if err != nil {
		p.send(ctx, in, esc(p.torrentSearchError(err, in.lang)), nil)
		return
	}
	if len(res.Items) == 0 {
		p.send(ctx, in, fmt.Sprintf(esc(txtTorrentNothing.In(in.lang)), esc(textmatch.Quote(in.lang, query))), nil)
		return
	}
	l := &list{kind: listTorrent, chatID: in.chatID, userID: in.userID, query: query,
		torrents: res.Items[:min(len(res.Items), maxTorrents)]}
	text, markup := listPage(in.lang, p.lists.put(l), l, 0)
	p.send(ctx, in, text, markup)
}

// torrentSearchError is the sentence for a failed torrent search.
func (p *Plugin) torrentSearchError(err error, lang string) string {
	var de *domain.Error
	switch {
	case errors.As(err, &de) && de.Code == domain.ErrTorrentSearchNotConfigured.Code:
		return txtTorrentSearchOff.In(lang)
	case domain.IsKind(err, domain.KindInvalid):
		return txtTorrentUsage.In(lang)
	case domain.IsKind(err, domain.KindUnavailable):
		return txtIndexersDown.In(lang)
	}
	p.log.Warn("telegram: /torrent failed", "err", err.Error())
	return txtFailed.In(lang)
}

// listPage renders page of list l (kept under id): the text, HTML-escaped,
// and its buttons: ▶ or ⬇ for the page's results and ‹ › to turn pages.
func listPage(lang, id string, l *list, page int) (string, inlineKeyboard) {
	from, to := page*pageSize, min((page+1)*pageSize, l.size())
	var b strings.Builder
	var rows [][]inlineButton
	data := func(op string, n int) string { return op + ":" + id + ":" + strconv.Itoa(n) }
	pageOp := opFindPage
	if l.kind == listTorrent {
		pageOp = opTorrentPage
		b.WriteString(fmt.Sprintf(textmatch.Pick(lang, "<b>Торренты</b> по запросу %s (%d–%d из %d):",
			"<b>Torrents</b> for %s (%d–%d of %d):"), esc(textmatch.Quote(lang, l.query)), from+1, to, l.size()))
		var downloads []inlineButton
		for i := from; i < to; i++ {
			b.WriteString(fmt.Sprintf("\n%d. %s", i+1, torrentLine(lang, l.torrents[i])))
			downloads = append(downloads, inlineButton{Text: "⬇ " + strconv.Itoa(i+1), CallbackData: data(opDownload, i)})
		}
		rows = append(rows, downloads)
	} else {
		b.WriteString(fmt.Sprintf(textmatch.Pick(lang, "<b>В библиотеке</b> по запросу %s (%d–%d из %d):",
			"<b>In the library</b> for %s (%d–%d of %d):"), esc(textmatch.Quote(lang, l.query)), from+1, to, l.size()))
		for i := from; i < to; i++ {
			m := l.found[i]
			b.WriteString(fmt.Sprintf("\n%d. %s", i+1, entryLine(lang, m)))
			if playable(m) {
				rows = append(rows, []inlineButton{{Text: fmt.Sprintf("▶ %d. %s", i+1, short(m.Title)), CallbackData: data(opPlay, i)}})
			}
		}
	}
	var nav []inlineButton
	if page > 0 {
		nav = append(nav, inlineButton{Text: "‹", CallbackData: data(pageOp, page-1)})
	}
	if to < l.size() {
		nav = append(nav, inlineButton{Text: "›", CallbackData: data(pageOp, page+1)})
	}
	if nav != nil {
		rows = append(rows, nav)
	}
	return b.String(), inlineKeyboard{InlineKeyboard: rows}
}

// playable tells whether an entry is a video file on disk (a ▶ button).
func playable(m domain.Media) bool { return m.HasFile() && m.Status != domain.StatusMissing }

// entryLine is a catalogue entry in /find's list: “<b>Heat</b> (1995) —
// film”.
func entryLine(lang string, m domain.Media) string {
	out := "<b>" + esc(m.Title) + "</b>"
	if m.Year != nil && *m.Year > 0 {
		out += fmt.Sprintf(" (%d)", *m.Year)
	}
	kind := map[string]textmatch.Phrase{
		domain.MediaMovie:   {RU: "фильм", EN: "film"},
		domain.MediaSeries:  {RU: "сериал", EN: "series"},
		domain.MediaSeason:  {RU: "сезон", EN: "season"},
		domain.MediaEpisode: {RU: "эпизод", EN: "episode"},
	}[m.MediaType]
	if k := kind.In(lang); k != "" {
		out += " — " + k
	}
	if m.HasFile() && m.Status == domain.StatusMissing {
		out += textmatch.Pick(lang, ", файла нет на диске", ", file missing on disk")
	}
	return out
}

// torrentLine is a result in /torrent's list, as torrent_search words it:
// “Interstellar.2014.1080p — 8.0 GB, 120 seeders, jackett (already in the
// library)”.
func torrentLine(lang string, f torrent.Found) string {
	out := esc(f.Title) + " — " + textmatch.FormatSize(lang, f.Size) +
		fmt.Sprintf(textmatch.Pick(lang, ", сидов %d", ", %d seeders"), f.Seeders)
	if f.Indexer != "" {
		out += ", " + esc(f.Indexer)
	}
	if f.InLibrary != nil {
		out += textmatch.Pick(lang, " (уже в библиотеке)", " (already in the library)")
	}
	return out
}

// short cuts a title for a button or a toast.
func short(s string) string {
	if utf8.RuneCountInString(s) <= buttonTitleRunes {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:buttonTitleRunes-1])) + "…"
}

// playEntry plays m in the caller's room (their e-mail) and returns what
// the person is told.
func (p *Plugin) playEntry(ctx context.Context, in incoming, m domain.Media) string {
	c, linked := p.caller(ctx, in)
	switch {
	case !linked:
		return textmatch.LinkFirst(in.lang)
	case p.d.Rooms == nil:
		return txtPlayUnavailable.In(in.lang)
	}
	played, err := p.d.Rooms.Play(ctx, c.Email, c, m.ID)
	switch {
	case err == nil:
		return fmt.Sprintf(txtPlaying.In(in.lang), textmatch.Quote(in.lang, short(played.Title)))
	case errors.Is(err, control.ErrNoPlayer):
		return txtNoPlayer.In(in.lang)
	case domain.IsKind(err, domain.KindNotFound):
		return txtNotPlayable.In(in.lang)
	}
	p.log.Warn("telegram: play failed", "media_id", m.ID, "err", err.Error())
	return txtFailed.In(in.lang)
}

// download adds f as the caller (POST /api/torrents/download's rules: any
// account; an administrator's link may reach the LAN) and returns what the
// person is told.
func (p *Plugin) download(ctx context.Context, in incoming, f torrent.Found) string {
	c, linked := p.caller(ctx, in)
	switch {
	case !linked:
		return textmatch.LinkFirst(in.lang)
	case p.d.Torrents == nil:
		return txtTorrentClientDown.In(in.lang)
	}
	link := f.Magnet
	if link == "" {
		link = f.DownloadURL
	}
	_, err := p.d.Torrents.Download(ctx, torrent.DownloadRequest{URL: link, Title: f.Title, Source: f.Indexer, Admin: c.Admin})
	switch {
	case err == nil:
		return fmt.Sprintf(txtAdded.In(in.lang), short(f.Title))
	case domain.IsKind(err, domain.KindConflict):
		return txtTorrentHave.In(in.lang)
	case domain.IsKind(err, domain.KindUnavailable):
		return txtTorrentClientDown.In(in.lang)
	case domain.IsKind(err, domain.KindInvalid):
		return txtTorrentBadLink.In(in.lang)
	}
	p.log.Warn("telegram: download failed", "err", err.Error())
	return txtFailed.In(in.lang)
}

// edit replaces a message the bot sent (a list's page); a failure is
// logged.
func (p *Plugin) edit(ctx context.Context, in incoming, msgID int, html string, markup models.ReplyMarkup) {
	_, err := in.b.EditMessageText(ctx, &bot.EditMessageTextParams{ChatID: in.chatID, MessageID: msgID, Text: html,
		ParseMode: models.ParseModeHTML, ReplyMarkup: markup,
		LinkPreviewOptions: &models.LinkPreviewOptions{IsDisabled: bot.True()}})
	if err != nil && ctx.Err() == nil {
		p.log.Warn("telegram: editMessageText failed", "err", err.Error())
	}
}
