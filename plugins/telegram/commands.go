package telegram

import (
	"context"
	"fmt"
	"strings"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
)

// inlineKeyboard is the bot's own inline_keyboard markup. The library's
// InlineKeyboardButton always sends "copy_text":{"text":""}, which Telegram
// rejects (BUTTON_COPY_TEXT_INVALID), so the bot marshals its buttons
// itself: only the fields a button uses go on the wire.
type inlineKeyboard struct {
	InlineKeyboard [][]inlineButton `json:"inline_keyboard"`
}

// inlineButton is a web_app button, a url button or a callback button.
type inlineButton struct {
	Text         string             `json:"text"`
	WebApp       *models.WebAppInfo `json:"web_app,omitempty"`
	URL          string             `json:"url,omitempty"`
	CallbackData string             `json:"callback_data,omitempty"`
}

// setCommands registers the command menu in English (the default) and
// Russian (language_code "ru").
func (p *Plugin) setCommands(ctx context.Context, b *bot.Bot) {
	for _, lang := range []string{domain.LangEnglish, domain.LangRussian} {
		params := &bot.SetMyCommandsParams{Commands: commandList(lang)}
		if lang == domain.LangRussian {
			params.LanguageCode = lang
		}
		if _, err := b.SetMyCommands(ctx, params); err != nil && ctx.Err() == nil {
			p.log.Warn("telegram: setMyCommands failed", "lang", lang, "err", err.Error())
		}
	}
}

// start greets, offers the Mini App as a web_app button and makes it the
// chat's menu button. Telegram allows both only in private chats (a group
// answers 400 and the greeting would be lost), so elsewhere the button is
// a plain url button to the Mini App's page and the menu is left alone.
func (p *Plugin) start(ctx context.Context, in incoming) {
	app := p.d.MiniApp
	var markup models.ReplyMarkup
	if app.URL != "" {
		button := inlineButton{Text: appButton(in.lang, app), WebApp: &models.WebAppInfo{URL: app.URL}}
		if !in.private() {
			button = inlineButton{Text: appButton(in.lang, app), URL: app.URL}
		}
		markup = inlineKeyboard{InlineKeyboard: [][]inlineButton{{button}}}
	}
	p.send(ctx, in, startText(in.lang, app), markup)
	if app.URL == "" || !in.private() {
		return
	}
	_, err := in.b.SetChatMenuButton(ctx, &bot.SetChatMenuButtonParams{ChatID: in.chatID,
		MenuButton: models.MenuButtonWebApp{Type: models.MenuButtonTypeWebApp, Text: appButton(in.lang, app), WebApp: models.WebAppInfo{URL: app.URL}}})
	if err != nil && ctx.Err() == nil {
		p.log.Warn("telegram: setChatMenuButton failed", "err", err.Error())
	}
}

// appButton is the Mini App button's label: the app's name, else "Open".
func appButton(lang string, app MiniApp) string {
	if app.Name != "" {
		return app.Name
	}
	return textmatch.Pick(lang, "Открыть медиатеку", "Open mediateka")
}

// link redeems a link code for the Telegram user.
func (p *Plugin) link(ctx context.Context, in incoming, code string) {
	switch {
	case code == "":
		p.send(ctx, in, esc(txtLinkUsage.In(in.lang)), nil)
		return
	case p.d.Accounts == nil:
		p.send(ctx, in, esc(txtLinkUnavailable.In(in.lang)), nil)
		return
	}
	u, err := p.d.Accounts.Redeem(ctx, strings.Fields(code)[0], in.userID)
	switch {
	case err == nil:
		p.send(ctx, in, fmt.Sprintf(esc(txtLinked.In(in.lang)), "<b>"+esc(u.Email)+"</b>"), nil)
	case domain.IsKind(err, domain.KindNotFound) || domain.IsKind(err, domain.KindInvalid) ||
		domain.IsKind(err, domain.KindConflict) || domain.IsKind(err, domain.KindUnauthorized):
		p.send(ctx, in, esc(txtLinkBad.In(in.lang)), nil)
	case domain.IsKind(err, domain.KindTooMany):
		p.send(ctx, in, esc(txtLinkTooMany.In(in.lang)), nil)
	default:
		p.log.Warn("telegram: link failed", "err", err.Error())
		p.send(ctx, in, esc(txtLinkUnavailable.In(in.lang)), nil)
	}
}

// onOff reads "on" / "off" (and вкл / выкл).
func onOff(arg string) (on, ok bool) {
	switch strings.ToLower(strings.TrimSpace(arg)) {
	case "on", "вкл", "включить":
		return true, true
	case "off", "выкл", "выключить":
		return false, true
	}
	return false, false
}

// notifySwitch is /notify on|off, for linked administrators.
func (p *Plugin) notifySwitch(ctx context.Context, in incoming, arg string) {
	on, ok := onOff(arg)
	if !ok {
		p.send(ctx, in, esc(txtNotifyUsage.In(in.lang)), nil)
		return
	}
	if c, linked := p.caller(ctx, in); !linked || !c.Admin {
		p.send(ctx, in, esc(txtNotifyAdmins.In(in.lang)), nil)
		return
	}
	answer := txtNotifyOff.In(in.lang)
	if on {
		answer = txtNotifyOn.In(in.lang)
	}
	if err := p.state.setFlag(ctx, notifyKeyPrefix, in.userID, on); err != nil {
		p.log.Warn("telegram: cannot store /notify", "err", err.Error())
		answer += txtNotKept.In(in.lang)
	}
	p.send(ctx, in, esc(answer), nil)
}

// voiceSwitch is /voice on|off, per chat.
func (p *Plugin) voiceSwitch(ctx context.Context, in incoming, arg string) {
	on, ok := onOff(arg)
	switch {
	case !ok:
		p.send(ctx, in, esc(txtVoiceUsage.In(in.lang)), nil)
		return
	case on && p.d.Speech == nil:
		p.send(ctx, in, esc(txtVoiceNone.In(in.lang)), nil)
		return
	}
	answer := txtVoiceOff.In(in.lang)
	if on {
		answer = txtVoiceOn.In(in.lang)
	}
	if err := p.state.setFlag(ctx, voiceKeyPrefix, in.chatID, on); err != nil {
		p.log.Warn("telegram: cannot store /voice", "err", err.Error())
		answer += txtNotKept.In(in.lang)
	}
	p.send(ctx, in, esc(answer), nil)
}
