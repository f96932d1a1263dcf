package mediaorganizer

import (
	"fmt"

	"mediateka/domain"
	"mediateka/usecase/library"
	"mediateka/usecase/textmatch"
)

// The sentences of "scan status".
var (
	statusIdle = textmatch.Phrase{
		RU: "Сканирование ещё не запускалось. Запустить — «просканируй библиотеку».",
		EN: "No scan has run yet. To start one: “scan the library”.",
	}
	statusRunning = textmatch.Phrase{
		RU: "Сканирование идёт: пока %[2]s (просмотрено файлов: %[1]d).",
		EN: "A scan is running: %[2]s so far (files seen: %[1]d).",
	}
	statusCompleted = textmatch.Phrase{
		RU: "Последнее сканирование закончено: %[2]s (просмотрено файлов: %[1]d).",
		EN: "The last scan finished: %[2]s (files seen: %[1]d).",
	}
	statusCancelled = textmatch.Phrase{
		RU: "Последнее сканирование было остановлено: %[2]s (просмотрено файлов: %[1]d).",
		EN: "The last scan was cancelled: %[2]s (files seen: %[1]d).",
	}
	statusFailed = textmatch.Phrase{
		RU: "Последнее сканирование не удалось: %[2]s (просмотрено файлов: %[1]d). Причина записана в журнал сервера; GET /api/media-admin/scan/status показывает подробности.",
		EN: "The last scan failed: %[2]s (files seen: %[1]d). The reason is in the server log; GET /api/media-admin/scan/status has the details.",
	}
)

// scanStatus says where the current or last scan stands, with its counts.
func (p *Plugin) scanStatus(lang string) string {
	st := p.lib.ScanStatus()
	summary := library.ScanSummary(lang, st.Added, st.Updated, st.Missing, st.ErrorCount)
	var phrase textmatch.Phrase
	switch st.State {
	case domain.JobRunning:
		phrase = statusRunning
	case domain.JobCompleted:
		phrase = statusCompleted
	case domain.JobCancelled:
		phrase = statusCancelled
	case domain.JobFailed:
		phrase = statusFailed
	default:
		return statusIdle.In(lang)
	}
	return fmt.Sprintf(phrase.In(lang), st.FilesSeen, summary)
}
