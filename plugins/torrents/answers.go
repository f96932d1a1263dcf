package torrents

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
	"mediateka/usecase/torrent"
)

// maxListed bounds the torrents one answer lists.
const maxListed = 10

// stateWords name the API states for people.
var stateWords = map[domain.TorrentState]textmatch.Phrase{
	domain.TorrentDownloading:  {RU: "качается", EN: "downloading"},
	domain.TorrentSeeding:      {RU: "раздаётся", EN: "seeding"},
	domain.TorrentPaused:       {RU: "на паузе", EN: "paused"},
	domain.TorrentStalled:      {RU: "нет источников", EN: "stalled, no peers"},
	domain.TorrentQueued:       {RU: "в очереди", EN: "queued"},
	domain.TorrentChecking:     {RU: "проверяется", EN: "checking"},
	domain.TorrentMoving:       {RU: "перемещается", EN: "moving"},
	domain.TorrentMetadata:     {RU: "получает метаданные", EN: "fetching metadata"},
	domain.TorrentDone:         {RU: "готов", EN: "completed"},
	domain.TorrentMissingFiles: {RU: "файлы не найдены", EN: "files missing"},
	domain.TorrentError:        {RU: "ошибка", EN: "error"},
}

// active reports whether t is still on its way.
func active(t domain.Torrent) bool {
	switch t.State {
	case domain.TorrentDownloading, domain.TorrentStalled, domain.TorrentMetadata, domain.TorrentQueued,
		domain.TorrentChecking, domain.TorrentMoving:
		return !t.Finished()
	}
	return false
}

// list answers the list, or only the unfinished downloads.
func (p *Plugin) list(ctx context.Context, onlyActive bool, lang string) string {
	all, err := p.svc.List(ctx)
	if err != nil {
		return p.trouble(err, lang)
	}
	shown := all
	if onlyActive {
		shown = nil
		for _, t := range all {
			if active(t) {
				shown = append(shown, t)
			}
		}
	}
	var b strings.Builder
	switch {
	case len(all) == 0:
		return textmatch.Pick(lang, "В торрент-клиенте нет торрентов.", "The torrent client has no torrents.")
	case len(shown) == 0:
		return textmatch.Pick(lang, fmt.Sprintf("Сейчас ничего не качается. Всего торрентов: %d.", len(all)),
			fmt.Sprintf("Nothing is downloading now. Torrents in the client: %d.", len(all)))
	case onlyActive:
		b.WriteString(textmatch.Pick(lang, fmt.Sprintf("Качается %d из %d:", len(shown), len(all)),
			fmt.Sprintf("Downloading %d of %d:", len(shown), len(all))))
	default:
		b.WriteString(textmatch.Pick(lang, fmt.Sprintf("Торрентов: %d.", len(all)), fmt.Sprintf("%d %s:", len(all),
			textmatch.PluralEn(len(all), "torrent", "torrents"))))
	}
	for i, t := range shown {
		if i == maxListed {
			b.WriteString(textmatch.Pick(lang, fmt.Sprintf("\n…и ещё %d.", len(shown)-i), fmt.Sprintf("\n…and %d more.", len(shown)-i)))
			break
		}
		fmt.Fprintf(&b, "\n%d. %s", i+1, line(t, lang))
	}
	return b.String()
}

// line is one torrent: name — state, progress, size, speed, time left.
func line(t domain.Torrent, lang string) string {
	parts := []string{stateWords[t.State].In(lang), fmt.Sprintf("%.0f%%", t.Progress*100), textmatch.FormatSize(lang, t.Size)}
	if t.DownloadSpeed > 0 {
		parts = append(parts, textmatch.FormatSize(lang, t.DownloadSpeed)+textmatch.Pick(lang, "/с", "/s"))
	}
	if t.ETA > 0 && !t.Finished() {
		parts = append(parts, textmatch.Pick(lang, "осталось ", "")+duration(t.ETA, lang)+textmatch.Pick(lang, "", " left"))
	}
	return t.Name + " — " + strings.Join(parts, ", ")
}

// duration writes d as "1 ч 5 мин" / "1 h 5 min" (under a minute: 1 min).
func duration(d time.Duration, lang string) string {
	m := max(int(d.Round(time.Minute)/time.Minute), 1)
	h, m := m/60, m%60
	hu, mu := textmatch.Pick(lang, "ч", "h"), textmatch.Pick(lang, "мин", "min")
	switch {
	case h == 0:
		return fmt.Sprintf("%d %s", m, mu)
	case m == 0:
		return fmt.Sprintf("%d %s", h, hu)
	}
	return fmt.Sprintf("%d %s %d %s", h, hu, m, mu)
}

// add adds a link as POST /api/torrents/download does.
func (p *Plugin) add(ctx context.Context, link, lang string) string {
	added, err := p.svc.Download(ctx, torrent.DownloadRequest{URL: link, Source: "chat"})
	switch {
	case err == nil:
		return textmatch.Pick(lang, fmt.Sprintf("Торрент добавлен в клиент (хэш %s).", added.Hash),
			fmt.Sprintf("Torrent added to the client (hash %s).", added.Hash))
	case domain.IsKind(err, domain.KindConflict):
		return textmatch.Pick(lang, "Этот торрент уже есть в клиенте.", "The client already has this torrent.")
	case domain.IsKind(err, domain.KindInvalid):
		return textmatch.Pick(lang, "Эту ссылку нельзя добавить: нужна magnet-ссылка с верным btih или ссылка на .torrent-файл.",
			"This link cannot be added: it must be a magnet link with a valid btih or a link to a .torrent file.")
	}
	return p.trouble(err, lang)
}

// control pauses, resumes or rechecks the torrent c names.
func (p *Plugin) control(ctx context.Context, c command, lang string) string {
	action := map[cmdKind]torrent.Action{cmdPause: torrent.ActionPause, cmdResume: torrent.ActionResume, cmdRecheck: torrent.ActionRecheck}[c.kind]
	done, err := p.svc.Control(ctx, action, c.arg)
	switch {
	case err == nil:
		name := done[0].Name
		return map[cmdKind]textmatch.Phrase{
			cmdPause:   {RU: "Торрент «" + name + "» поставлен на паузу.", EN: "Paused “" + name + "”."},
			cmdResume:  {RU: "Торрент «" + name + "» снова запущен.", EN: "Resumed “" + name + "”."},
			cmdRecheck: {RU: "Торрент «" + name + "» отправлен на перепроверку.", EN: "Recheck of “" + name + "” started."},
		}[c.kind].In(lang)
	case errors.Is(err, torrent.ErrAmbiguousTorrent):
		var b strings.Builder
		b.WriteString(textmatch.Pick(lang, "Под «"+c.arg+"» подходят несколько торрентов — уточните название:",
			"Several torrents match “"+c.arg+"”; name one more precisely:"))
		for i, t := range done {
			if i == maxListed {
				break
			}
			fmt.Fprintf(&b, "\n%d. %s", i+1, t.Name)
		}
		return b.String()
	case domain.IsKind(err, domain.KindNotFound):
		return textmatch.Pick(lang, "Торрента «"+c.arg+"» нет в клиенте.", "The client has no torrent called “"+c.arg+"”.")
	}
	return p.trouble(err, lang)
}
