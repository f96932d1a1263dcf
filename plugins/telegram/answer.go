package telegram

import (
	"context"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"mediateka/domain"
	"mediateka/usecase/chat"
)

// MaxMessageChars is Telegram's limit of one message's text after entity
// parsing, in UTF-16 code units.
const MaxMessageChars = 4096

// typingEvery repeats the typing indicator, which Telegram shows for
// about five seconds.
const typingEvery = 4 * time.Second

// ask sends text to the chat as the caller, with the chat's history, shows
// "typing…" while it waits, and sends the answer in pieces that fit.
func (p *Plugin) ask(ctx context.Context, in incoming, text string) {
	c, _ := p.caller(ctx, in)
	stop := p.typing(ctx, in)
	ans, err := p.d.Chat.Ask(ctx, chat.Request{Caller: c, Message: text, History: p.state.history(in.chatID)})
	stop()
	if err != nil {
		p.send(ctx, in, esc(p.chatError(err, in.lang)), nil)
		return
	}
	p.state.remember(in.chatID, text, ans.Text)
	for _, piece := range Split(ans.Text, MaxMessageChars) {
		p.send(ctx, in, esc(piece), nil)
	}
	if p.d.Speech != nil && p.state.flag(ctx, voiceKeyPrefix, in.chatID, false) {
		p.voice(ctx, in, ans.Text)
	}
}

// chatError is the sentence for a failed answer.
func (p *Plugin) chatError(err error, lang string) string {
	switch {
	case domain.IsKind(err, domain.KindInvalid):
		return txtTooLong.In(lang)
	case domain.IsKind(err, domain.KindUnavailable):
		return txtAIUnavailable.In(lang)
	}
	p.log.Warn("telegram: the chat failed", "err", err.Error())
	return txtFailed.In(lang)
}

// typing shows the typing indicator at once and again every few seconds
// until the returned stop is called; stop waits for the repeating
// goroutine, so none outlives the answer.
func (p *Plugin) typing(ctx context.Context, in incoming) (stop func()) {
	action := func(ctx context.Context) {
		_, _ = in.b.SendChatAction(ctx, &bot.SendChatActionParams{ChatID: in.chatID, Action: models.ChatActionTyping})
	}
	action(ctx)
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(typingEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				action(ctx)
			}
		}
	}()
	return func() { cancel(); wg.Wait() }
}

// voice sends the answer spoken (OGG/Opus) as a voice message; a failure
// is logged, the text answer is already there.
func (p *Plugin) voice(ctx context.Context, in incoming, text string) {
	f, err := p.d.Speech.Speak(ctx, text, domain.AudioOGG)
	if err != nil {
		p.log.Warn("telegram: cannot speak the answer", "err", err.Error())
		return
	}
	file, err := os.Open(f.Path)
	if err != nil {
		p.log.Warn("telegram: cannot open the spoken answer", "err", err.Error())
		return
	}
	defer func() { _ = file.Close() }()
	_, err = in.b.SendVoice(ctx, &bot.SendVoiceParams{ChatID: in.chatID,
		Voice: &models.InputFileUpload{Filename: "answer.ogg", Data: file}})
	if err != nil && ctx.Err() == nil {
		p.log.Warn("telegram: sendVoice failed", "err", err.Error())
	}
}

// Split cuts text into pieces of at most limit UTF-16 code units (how
// Telegram counts), at the last paragraph break that fits, else the last
// line break, else the end of the last sentence (each only in the last
// half of the piece), else the last space, and only as a last resort
// inside a word. Pieces are trimmed; empty ones are
// dropped.
func Split(text string, limit int) []string {
	var out []string
	text = strings.TrimSpace(text)
	for text != "" {
		if units(text) <= limit {
			return append(out, text)
		}
		head := prefixUnits(text, limit)
		if head == "" { // a limit under one character: one rune a piece
			_, size := utf8.DecodeRuneInString(text)
			head = text[:size]
		}
		cut := cutPoint(head)
		piece := strings.TrimSpace(text[:cut])
		if piece != "" {
			out = append(out, piece)
		}
		text = strings.TrimSpace(text[cut:])
	}
	return out
}

// units is the length of s in UTF-16 code units.
func units(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// prefixUnits is the longest prefix of s of at most limit units.
func prefixUnits(s string, limit int) string {
	n := 0
	for i, r := range s {
		if n+utf16.RuneLen(r) > limit {
			return s[:i]
		}
		n += utf16.RuneLen(r)
	}
	return s
}

// cutPoint is where to end a piece taken from head (a prefix that fits).
// A paragraph break, a line break or a sentence end counts only in the
// last half of head, so that "Hi.\n\n" before a long text does not become
// a message of its own; else the next rule is tried. A space anywhere
// beats cutting inside a word.
func cutPoint(head string) int {
	late := func(i int) bool { return i > 0 && 2*units(head[:i]) >= units(head) }
	if i := strings.LastIndex(head, "\n\n"); late(i) {
		return i
	}
	if i := strings.LastIndexByte(head, '\n'); late(i) {
		return i
	}
	best := -1
	for _, end := range []string{". ", "! ", "? ", "… ", ".\t", "!\t", "?\t"} {
		if i := strings.LastIndex(head, end); i >= 0 && i+len(end)-1 > best {
			best = i + len(end) - 1
		}
	}
	if late(best) {
		return best
	}
	if i := strings.LastIndexByte(head, ' '); i > 0 {
		return i
	}
	return len(head)
}
