package telegram

import (
	"context"
	"fmt"
	"strings"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
)

// callbackStatus is the data prefix of /status's Refresh button:
// "status:<chat id>:<user id>", so a press is checked against the chat and
// the person the status was made for.
const callbackStatus = "status"

// status is /status: library counts, torrents, the caller's room and the
// AI model, with a Refresh button.
func (p *Plugin) status(ctx context.Context, in incoming) {
	if p.d.Status == nil {
		p.send(ctx, in, esc(txtFailed.In(in.lang)), nil)
		return
	}
	c, _ := p.caller(ctx, in)
	data := fmt.Sprintf("%s:%d:%d", callbackStatus, in.chatID, in.userID)
	markup := inlineKeyboard{InlineKeyboard: [][]inlineButton{{{Text: txtRefresh.In(in.lang), CallbackData: data}}}}
	p.send(ctx, in, statusText(in.lang, p.d.Status.Status(ctx, c)), markup)
}

// statusText renders a report in lang, HTML-escaped.
func statusText(lang string, r StatusReport) string {
	lines := []string{libraryLine(lang, r.Library), torrentsLine(lang, r.Torrents), roomLine(lang, r.Room), modelLine(lang, r)}
	return strings.Join(lines, "\n")
}

func libraryLine(lang string, l *LibraryCounts) string {
	head := textmatch.Pick(lang, "<b>Библиотека</b>: ", "<b>Library</b>: ")
	if l == nil {
		return head + textmatch.Pick(lang, "не удалось посчитать", "could not be counted")
	}
	return head + fmt.Sprintf(textmatch.Pick(lang, "фильмов %d, сериалов %d, эпизодов %d, отсутствуют на диске %d",
		"%d films, %d series, %d episodes, %d missing on disk"), l.Movies, l.Series, l.Episodes, l.Missing)
}

func torrentsLine(lang string, t TorrentsStatus) string {
	head := textmatch.Pick(lang, "<b>Торренты</b>: ", "<b>Torrents</b>: ")
	switch {
	case !t.Configured:
		return head + textmatch.Pick(lang, "торрент-клиент не настроен", "the torrent client is not configured")
	case !t.Reachable:
		return head + textmatch.Pick(lang, "торрент-клиент недоступен", "the torrent client is unreachable")
	}
	return head + fmt.Sprintf(textmatch.Pick(lang, "активных %d из %d", "%d active of %d"), t.Active, t.Total)
}

func roomLine(lang string, r *RoomStatus) string {
	head := textmatch.Pick(lang, "<b>Плеер</b>: ", "<b>Player</b>: ")
	if r == nil {
		return head + textmatch.Pick(lang, "аккаунт не привязан (/link)", "no linked account (/link)")
	}
	room := textmatch.Pick(lang, " (комната ", " (room ") + esc(r.Room) + ")"
	if r.Players == 0 && r.State == domain.PlayIdle {
		return head + textmatch.Pick(lang, "не подключён", "none connected") + room
	}
	out := head + playState(lang, r.State)
	if r.Title != "" {
		out += " " + esc(textmatch.Quote(lang, r.Title))
	}
	if r.Duration > 0 || r.Position > 0 {
		out += ", " + clock(r.Position) + " / " + clock(r.Duration)
	}
	return out + fmt.Sprintf(textmatch.Pick(lang, ", громкость %d", ", volume %d"), r.Volume) + room
}

// playState names a room state.
func playState(lang string, s domain.PlayState) string {
	switch s {
	case domain.PlayPlaying:
		return textmatch.Pick(lang, "играет", "playing")
	case domain.PlayPaused:
		return textmatch.Pick(lang, "пауза", "paused")
	case domain.PlayStopped:
		return textmatch.Pick(lang, "остановлен", "stopped")
	}
	return textmatch.Pick(lang, "ожидает", "idle")
}

// clock writes seconds as h:mm:ss (m:ss under an hour).
func clock(sec float64) string {
	s := int(sec)
	if s < 0 {
		s = 0
	}
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

func modelLine(lang string, r StatusReport) string {
	head := textmatch.Pick(lang, "<b>ИИ</b>: ", "<b>AI</b>: ")
	name := r.Model
	if name == "" || name == "offline" {
		return head + textmatch.Pick(lang, "встроенный офлайн-ассистент (модель не настроена)", "the built-in offline assistant (no model configured)")
	}
	key := textmatch.Pick(lang, ", ключ API есть", ", API key available")
	if !r.ModelKey {
		key = textmatch.Pick(lang, ", нет рабочего ключа API", ", no usable API key")
	}
	return head + esc(name) + key
}
