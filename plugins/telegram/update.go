package telegram

import (
	"context"
	"slices"
	"strings"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"mediateka/domain"
	"mediateka/usecase/event"
)

// eventMessage is one library event as the bus delivers it.
type eventMessage = event.Message

// incoming is who wrote, where, and in which language to answer.
type incoming struct {
	b      *bot.Bot
	chatID int64
	// chatType is Telegram's chat.type ("private", "group", "supergroup",
	// "channel"); "" where no message says it (a button press).
	chatType string
	userID   int64
	lang     string
}

// private tells whether the chat is a person's own chat with the bot,
// the only kind where Telegram allows web_app buttons and a chat menu
// button.
func (in incoming) private() bool { return in.chatType == string(models.ChatTypePrivate) }

// langOf maps Telegram's language_code to the answer language: Russian
// for "ru" (and regional forms), English otherwise.
func langOf(code string) string {
	if code == "ru" || strings.HasPrefix(code, "ru-") {
		return domain.LangRussian
	}
	return domain.LangEnglish
}

// onUpdate is the bot's only handler: the library calls it in one of its
// workers for every update.
func (p *Plugin) onUpdate(ctx context.Context, b *bot.Bot, u *models.Update) {
	switch {
	case u.Message != nil && u.Message.From != nil:
		p.onMessage(ctx, b, u.Message)
	case u.CallbackQuery != nil:
		p.onCallback(ctx, b, u.CallbackQuery)
	}
}

// allowed applies allowed_users (empty: everyone).
func (p *Plugin) allowed(userID int64) bool {
	return len(p.cfg.AllowedUsers) == 0 || slices.Contains(p.cfg.AllowedUsers, userID)
}

// onMessage answers a message: someone not allowed hears one refusal and
// nothing more; someone over rate_per_minute hears "slow down" once and
// nothing more until a token is back; commands run; other text goes to
// the chat.
func (p *Plugin) onMessage(ctx context.Context, b *bot.Bot, m *models.Message) {
	in := incoming{b: b, chatID: m.Chat.ID, chatType: string(m.Chat.Type), userID: m.From.ID, lang: langOf(m.From.LanguageCode)}
	if !p.forMe(m.Text) {
		return
	}
	if !p.allowed(in.userID) {
		if p.state.refuseOnce(in.userID) {
			p.send(ctx, in, esc(txtNotAllowed.In(in.lang)), nil)
		}
		return
	}
	if ok, tell := p.limit.allow(in.userID); !ok {
		if tell {
			p.send(ctx, in, esc(txtSlowDown.In(in.lang)), nil)
		}
		return
	}
	if c, linked := p.caller(ctx, in); linked {
		p.state.setAccountLang(ctx, c.UserID, in.lang)
	}
	text := strings.TrimSpace(m.Text)
	if text == "" {
		p.send(ctx, in, esc(txtTextOnly.In(in.lang)), nil)
		return
	}
	if cmd, arg, ok := parseCommand(text); ok {
		p.command(ctx, in, cmd, arg)
		return
	}
	p.ask(ctx, in, text)
}

// forMe tells whether a message is for this bot: anything but a command
// addressed to another bot ("/start@other_bot" in a group the bots
// share). While the bot's own username is unknown (getMe failed) every
// command counts as its own.
func (p *Plugin) forMe(text string) bool {
	_, to := commandTarget(strings.TrimSpace(text))
	if to == "" {
		return true
	}
	me := p.username()
	return me == "" || strings.EqualFold(to, me)
}

// commandTarget splits a command's head "/link@mediateka_bot" into the
// command and the bot it names ("" when none, or not a command).
func commandTarget(text string) (cmd, to string) {
	if !strings.HasPrefix(text, "/") {
		return "", ""
	}
	head, _, _ := strings.Cut(text[1:], " ")
	head, _, _ = strings.Cut(head, "\n")
	cmd, to, _ = strings.Cut(head, "@")
	return cmd, to
}

// parseCommand splits "/link@mediateka_bot ABC" into "link" and "ABC".
func parseCommand(text string) (cmd, arg string, ok bool) {
	if !strings.HasPrefix(text, "/") {
		return "", "", false
	}
	_, arg, _ = strings.Cut(text[1:], " ")
	head, _ := commandTarget(text)
	return strings.ToLower(head), strings.TrimSpace(arg), head != ""
}

// command runs one command; an unknown one points to /help.
func (p *Plugin) command(ctx context.Context, in incoming, cmd, arg string) {
	switch cmd {
	case "start":
		p.start(ctx, in)
	case "help":
		p.send(ctx, in, helpText(in.lang), nil)
	case "status":
		p.status(ctx, in)
	case "link":
		p.link(ctx, in, arg)
	case "notify":
		p.notifySwitch(ctx, in, arg)
	case "voice":
		p.voiceSwitch(ctx, in, arg)
	case "find", "найти", "найди":
		p.find(ctx, in, arg)
	case "torrent", "торрент":
		p.torrentSearch(ctx, in, arg)
	default:
		p.send(ctx, in, esc(txtUnknownCommand.In(in.lang)), nil)
	}
}

// caller is who the Telegram user is to the chat: the linked account, or a
// user without one. A failing account store counts as unlinked (least
// rights) and is logged.
func (p *Plugin) caller(ctx context.Context, in incoming) (domain.Caller, bool) {
	unlinked := domain.Caller{Role: domain.RoleUser, Lang: in.lang}
	if p.d.Accounts == nil {
		return unlinked, false
	}
	u, ok, err := p.d.Accounts.ByTelegramID(ctx, in.userID)
	if err != nil {
		p.log.Warn("telegram: cannot look up the linked account", "err", err.Error())
		return unlinked, false
	}
	if !ok {
		return unlinked, false
	}
	c := domain.CallerOf(u)
	c.Lang = in.lang
	return c, true
}

// send sends one HTML message (text already escaped); a failure after the
// retries is logged, never fatal.
func (p *Plugin) send(ctx context.Context, in incoming, html string, markup models.ReplyMarkup) {
	_, err := in.b.SendMessage(ctx, &bot.SendMessageParams{ChatID: in.chatID, Text: html,
		ParseMode: models.ParseModeHTML, ReplyMarkup: markup,
		LinkPreviewOptions: &models.LinkPreviewOptions{IsDisabled: bot.True()}})
	if err != nil && ctx.Err() == nil {
		p.log.Warn("telegram: sendMessage failed", "err", err.Error())
	}
}
