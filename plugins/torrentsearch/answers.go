package torrentsearch

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
	"mediateka/usecase/torrent"
)

// find searches and lists the best results, numbered, and remembers them
// for the caller's "скачай N" (Handle lets only callers with an account
// here).
func (p *Plugin) find(ctx context.Context, caller domain.Caller, c command, lang string) string {
	res, err := p.search.Search(ctx, c.query, c.category)
	switch {
	case errors.Is(err, domain.ErrTorrentSearchNotConfigured):
		return textmatch.Pick(lang, "Поиск торрентов не настроен: добавьте индексатор Torznab (Jackett или Prowlarr) — его url и apikey — в torrent_search/config.json в папке настроек плагинов и перезапустите сервер.",
			"Torrent search is not configured: add a Torznab indexer (Jackett or Prowlarr), its url and apikey, to torrent_search/config.json in the plugin config folder and restart the server.")
	case errors.Is(err, domain.ErrIndexersUnavailable):
		return textmatch.Pick(lang, "Ни один индексатор торрентов не ответил — попробуйте позже.",
			"No torrent indexer answered; try again later.")
	case domain.IsKind(err, domain.KindInvalid):
		return textmatch.Pick(lang, "Слишком длинный запрос для поиска торрентов.", "The torrent search query is too long.")
	case err != nil:
		p.log.Warn("torrent_search failed", "err", err.Error())
		return textmatch.Pick(lang, "Не получилось найти торренты — причина записана в журнал сервера.",
			"The torrent search failed; the reason is in the server log.")
	}
	if len(res.Items) == 0 {
		return textmatch.Pick(lang, "По запросу «"+c.query+"» торрентов не найдено.", "No torrents found for “"+c.query+"”.") + failedNote(res.Failed, lang)
	}
	top := res.Items[:min(len(res.Items), shown)]
	var b strings.Builder
	b.WriteString(textmatch.Pick(lang, fmt.Sprintf("Торренты по запросу «%s» (лучшие %d из %d):", c.query, len(top), len(res.Items)),
		fmt.Sprintf("Torrents for “%s” (top %d of %d):", c.query, len(top), len(res.Items))))
	for i, f := range top {
		fmt.Fprintf(&b, "\n%d. %s", i+1, line(f, lang))
	}
	p.last.put(caller.UserID, top)
	b.WriteString(textmatch.Pick(lang, "\nЧтобы скачать, напишите «скачай 1»…«скачай "+fmt.Sprint(len(top))+"».",
		"\nTo download one, say “download 1”…“download "+fmt.Sprint(len(top))+"”."))
	return b.String() + failedNote(res.Failed, lang)
}

// line is one result: title — size, seeders, indexer, and a note when
// the library has it.
func line(f torrent.Found, lang string) string {
	s := fmt.Sprintf("%s — %s, %s %d, %s", f.Title, textmatch.FormatSize(lang, f.Size),
		textmatch.Pick(lang, "сидов", "seeders"), f.Seeders, f.Indexer)
	if f.InLibrary != nil {
		s += textmatch.Pick(lang, " (уже в библиотеке)", " (already in the library)")
	}
	return s
}

// failedNote names the indexers that did not answer.
func failedNote(failed []torrent.IndexerFailure, lang string) string {
	if len(failed) == 0 {
		return ""
	}
	names := make([]string, len(failed))
	for i, f := range failed {
		names[i] = f.Indexer
	}
	return textmatch.Pick(lang, "\nНе ответили: ", "\nDid not answer: ") + strings.Join(names, ", ") + "."
}

// pick adds result n of the caller's last search.
func (p *Plugin) pick(ctx context.Context, caller domain.Caller, n int, lang string) string {
	last := p.last.get(caller.UserID)
	if len(last) == 0 {
		return textmatch.Pick(lang, "Сначала найдите торрент, например: «найди торрент Интерстеллар».",
			"Search first, for example: “find torrent Interstellar”.")
	}
	if n > len(last) {
		return textmatch.Pick(lang, fmt.Sprintf("В последнем поиске только %d результатов.", len(last)),
			fmt.Sprintf("The last search showed only %d results.", len(last)))
	}
	if p.down == nil {
		return textmatch.Pick(lang, "Торрент-клиент не подключён.", "No torrent client is connected.")
	}
	f := last[n-1]
	link := f.Magnet
	if link == "" {
		link = f.DownloadURL
	}
	_, err := p.down.Download(ctx, torrent.DownloadRequest{URL: link, Title: f.Title, Source: f.Indexer, Admin: caller.Admin})
	switch {
	case err == nil:
		return textmatch.Pick(lang, "Добавлено в торрент-клиент: «"+f.Title+"».", "Added to the torrent client: “"+f.Title+"”.")
	case domain.IsKind(err, domain.KindConflict):
		return textmatch.Pick(lang, "«"+f.Title+"» уже есть в торрент-клиенте.", "The torrent client already has “"+f.Title+"”.")
	case domain.IsKind(err, domain.KindUnavailable):
		return textmatch.Pick(lang, "Торрент-клиент сейчас недоступен — проверьте, что qBittorrent запущен.",
			"The torrent client is unavailable; check that qBittorrent is running.")
	case domain.IsKind(err, domain.KindInvalid):
		return textmatch.Pick(lang, "Индексатор дал ссылку, которую нельзя скачать: «"+f.Title+"».",
			"The indexer's link for “"+f.Title+"” cannot be downloaded.")
	}
	p.log.Warn("torrent_search could not add a result", "err", err.Error())
	return textmatch.Pick(lang, "Не получилось добавить торрент — причина записана в журнал сервера.",
		"Could not add the torrent; the reason is in the server log.")
}
