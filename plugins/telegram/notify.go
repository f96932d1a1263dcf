package telegram

import (
	"context"
	"fmt"

	"github.com/go-telegram/bot"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
)

// notify sends a library event to every linked administrator whose
// notifications are on (the default), in the language the account last
// wrote to the bot in (kept with the account's settings, so a restart or
// a thousand other chats do not forget it; English until then). Events
// without a message (progress, starts) are skipped.
func (p *Plugin) notify(ctx context.Context, b *bot.Bot, m eventMessage) {
	if eventText(domain.LangEnglish, m.Event) == "" {
		return
	}
	admins, err := p.d.Accounts.LinkedAdmins(ctx)
	if err != nil {
		p.log.Warn("telegram: cannot list the linked administrators", "err", err.Error())
		return
	}
	for _, u := range admins {
		if u.TelegramID == nil || !u.Admin() || !p.allowed(*u.TelegramID) ||
			!p.state.flag(ctx, notifyKeyPrefix, *u.TelegramID, true) {
			continue
		}
		id := *u.TelegramID
		lang := p.state.accountLang(ctx, u.ID)
		p.send(ctx, incoming{b: b, chatID: id, userID: id, lang: lang}, eventText(lang, m.Event), nil)
	}
}

// eventText is the message for an event ("" for events not sent),
// HTML-escaped.
func eventText(lang string, e domain.Event) string {
	switch ev := e.(type) {
	case domain.ScanCompleted:
		return fmt.Sprintf(textmatch.Pick(lang,
			"📚 Сканирование завершено (%s): файлов %d, добавлено %d, обновлено %d, пропало %d, ошибок %d.",
			"📚 Scan finished (%s): %d files, %d added, %d updated, %d missing, %d errors."),
			jobState(lang, ev.State), ev.FilesSeen, ev.Added, ev.Updated, ev.Missing, ev.Errors)
	case domain.AuditCompleted:
		return fmt.Sprintf(textmatch.Pick(lang,
			"🔎 Проверка библиотеки завершена: проверено %d, нет файла %d, файлов без записи %d, дубликатов %d, неполных описаний %d.",
			"🔎 Library audit finished: %d checked, %d missing files, %d unregistered files, %d duplicates, %d incomplete."),
			ev.Checked, ev.MissingFile, ev.UnregisteredFile, ev.Duplicate, ev.IncompleteMetadata)
	case domain.RAGIndexed:
		return fmt.Sprintf(textmatch.Pick(lang, "🧠 Поисковый индекс обновлён (%s): %d из %d.",
			"🧠 Search index updated (%s): %d of %d."), jobState(lang, ev.State), ev.Indexed, ev.Total)
	case domain.TorrentCompleted:
		return textmatch.Pick(lang, "⬇️ Загрузка завершена: ", "⬇️ Download finished: ") + esc(ev.Name)
	}
	return ""
}

// jobState names a job's outcome.
func jobState(lang string, s domain.JobState) string {
	switch s {
	case domain.JobCompleted:
		return textmatch.Pick(lang, "успешно", "completed")
	case domain.JobFailed:
		return textmatch.Pick(lang, "с ошибкой", "failed")
	case domain.JobCancelled:
		return textmatch.Pick(lang, "отменено", "cancelled")
	}
	return esc(string(s))
}
