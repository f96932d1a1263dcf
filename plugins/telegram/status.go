package telegram

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

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

// onCallback answers an inline button press: a list's (/find, /torrent)
// or /status's Refresh. Only the person in the chat the button was made
// for may press it; anyone else is told so and nothing happens.
func (p *Plugin) onCallback(ctx context.Context, b *bot.Bot, q *models.CallbackQuery) {
	lang := langOf(q.From.LanguageCode)
	var msgChat int64
	var msgID int
	if q.Message.Message != nil {
		msgChat, msgID = q.Message.Message.Chat.ID, q.Message.Message.ID
	} else if q.Message.InaccessibleMessage != nil {
		msgChat, msgID = q.Message.InaccessibleMessage.Chat.ID, q.Message.InaccessibleMessage.MessageID
	}
	if p.onListCallback(ctx, b, q, lang, msgChat, msgID) {
		return
	}
	kind, chatID, userID, ok := parseCallback(q.Data)
	switch {
	case !ok || kind != callbackStatus:
		p.answerCallback(ctx, b, q.ID, txtExpired.In(lang))
		return
	case q.From.ID != userID || msgChat != chatID || !p.allowed(q.From.ID):
		p.answerCallback(ctx, b, q.ID, txtNotYours.In(lang))
		return
	}
	p.answerCallback(ctx, b, q.ID, "")
	p.status(ctx, incoming{b: b, chatID: chatID, userID: userID, lang: lang})
}

// parseCallback reads "<kind>:<chat id>:<user id>".
func parseCallback(data string) (kind string, chatID, userID int64, ok bool) {
	parts := strings.Split(data, ":")
	if len(parts) != 3 {
		return "", 0, 0, false
	}
	c, err1 := strconv.ParseInt(parts[1], 10, 64)
	u, err2 := strconv.ParseInt(parts[2], 10, 64)
	return parts[0], c, u, err1 == nil && err2 == nil
}

func (p *Plugin) answerCallback(ctx context.Context, b *bot.Bot, id, text string) {
	if _, err := b.AnswerCallbackQuery(ctx, &bot.AnswerCallbackQueryParams{CallbackQueryID: id, Text: text}); err != nil && ctx.Err() == nil {
		p.log.Warn("telegram: answerCallbackQuery failed", "err", err.Error())
	}
}
