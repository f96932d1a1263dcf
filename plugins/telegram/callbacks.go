package telegram

import (
	"context"
	"strconv"
	"strings"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
)

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

// parseListCallback reads "<op>:<list id>:<number>".
func parseListCallback(data string) (op, id string, n int, ok bool) {
	parts := strings.Split(data, ":")
	if len(parts) != 3 {
		return "", "", 0, false
	}
	n, err := strconv.Atoi(parts[2])
	return parts[0], parts[1], n, err == nil && n >= 0
}

// onListCallback answers a press on a list's button. The list must still
// be kept, the button one of its kind, and the press come from the person
// and chat the list was made for (anyone else: "not for you", nothing
// done). It reports false for data that is no list's.
func (p *Plugin) onListCallback(ctx context.Context, b *bot.Bot, q *models.CallbackQuery, lang string, msgChat int64, msgID int) bool {
	op, id, n, ok := parseListCallback(q.Data)
	if !ok {
		return false
	}
	var want string
	switch op {
	case opFindPage, opPlay:
		want = listFind
	case opTorrentPage, opDownload:
		want = listTorrent
	default:
		return false
	}
	l, kept := p.lists.get(id)
	limit := 0
	if kept {
		limit = l.size()
		if op == opFindPage || op == opTorrentPage {
			limit = (l.size() + pageSize - 1) / pageSize
		}
	}
	switch {
	case !kept || l.kind != want || n >= limit:
		p.answerCallback(ctx, b, q.ID, txtExpired.In(lang))
		return true
	case q.From.ID != l.userID || msgChat != l.chatID || !p.allowed(q.From.ID):
		p.answerCallback(ctx, b, q.ID, txtNotYours.In(lang))
		return true
	}
	in := incoming{b: b, chatID: l.chatID, userID: l.userID, lang: lang}
	switch op {
	case opFindPage, opTorrentPage:
		p.answerCallback(ctx, b, q.ID, "")
		text, markup := listPage(lang, id, l, n)
		p.edit(ctx, in, msgID, text, markup)
	case opPlay:
		p.answerCallback(ctx, b, q.ID, p.playEntry(ctx, in, l.found[n]))
	case opDownload:
		p.answerCallback(ctx, b, q.ID, p.download(ctx, in, l.torrents[n]))
	}
	return true
}
