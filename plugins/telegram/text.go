package telegram

import (
	"strings"

	"github.com/go-telegram/bot/models"

	"mediateka/usecase/textmatch"
)

// The bot's sentences in both languages. Texts with markup are built by
// functions below; these are plain and escaped where they are sent.
var (
	txtNotAllowed = textmatch.Phrase{
		RU: "Извините, этот бот закрытый: вашего Telegram-аккаунта нет в списке допущенных. Попросите администратора медиатеки добавить вас.",
		EN: "Sorry, this bot is private: your Telegram account is not on its allowed list. Ask the media server's administrator to add you.",
	}
	txtSlowDown = textmatch.Phrase{
		RU: "Слишком много сообщений подряд. Подождите минуту и напишите снова.",
		EN: "Too many messages in a row. Please wait a minute and write again.",
	}
	txtTextOnly = textmatch.Phrase{
		RU: "Я понимаю только текст. Напишите вопрос или /help.",
		EN: "I understand text only. Write a question or /help.",
	}
	txtUnknownCommand = textmatch.Phrase{
		RU: "Такой команды нет. Список команд — /help.",
		EN: "There is no such command. The list of commands is in /help.",
	}
	txtAIUnavailable = textmatch.Phrase{
		RU: "Ассистент сейчас недоступен. Попробуйте чуть позже.",
		EN: "The assistant is unavailable right now. Please try again a little later.",
	}
	txtFailed = textmatch.Phrase{
		RU: "Не получилось ответить — причина записана в журнал сервера.",
		EN: "I could not answer; the reason is in the server log.",
	}
	txtTooLong = textmatch.Phrase{
		RU: "Сообщение слишком длинное. Сократите его, пожалуйста.",
		EN: "The message is too long. Please shorten it.",
	}
	txtLinkUsage = textmatch.Phrase{
		RU: "Чтобы привязать аккаунт, получите код на главной странице медиатеки (раздел Telegram) и отправьте: /link КОД",
		EN: "To link your account, get a code on the media server's home page (the Telegram section) and send: /link CODE",
	}
	txtLinkBad = textmatch.Phrase{
		RU: "Этот код не подошёл: он неверный, уже использован или истёк (код действует 10 минут). Получите новый и попробуйте ещё раз.",
		EN: "That code did not work: it is wrong, already used or expired (a code lasts 10 minutes). Get a new one and try again.",
	}
	txtLinkTooMany = textmatch.Phrase{
		RU: "Слишком много неверных кодов. Подождите десять минут, получите новый код и попробуйте ещё раз.",
		EN: "Too many wrong codes. Wait ten minutes, get a new code and try again.",
	}
	txtLinkUnavailable = textmatch.Phrase{
		RU: "Привязка аккаунтов сейчас недоступна. Попробуйте позже.",
		EN: "Linking accounts is unavailable right now. Please try later.",
	}
	txtLinked = textmatch.Phrase{
		RU: "Готово: Telegram привязан к аккаунту %s.",
		EN: "Done: Telegram is linked to the account %s.",
	}
	txtNotifyUsage  = textmatch.Phrase{RU: "Напишите /notify on или /notify off.", EN: "Send /notify on or /notify off."}
	txtNotifyAdmins = textmatch.Phrase{
		RU: "Уведомления о библиотеке получают только привязанные администраторы (/link).",
		EN: "Library notifications are for linked administrators only (/link).",
	}
	txtNotifyOn   = textmatch.Phrase{RU: "Уведомления включены.", EN: "Notifications are on."}
	txtNotifyOff  = textmatch.Phrase{RU: "Уведомления выключены.", EN: "Notifications are off."}
	txtVoiceUsage = textmatch.Phrase{RU: "Напишите /voice on или /voice off.", EN: "Send /voice on or /voice off."}
	txtVoiceOn    = textmatch.Phrase{RU: "Буду отвечать ещё и голосом.", EN: "I will also answer by voice."}
	txtVoiceOff   = textmatch.Phrase{RU: "Голосовые ответы выключены.", EN: "Voice answers are off."}
	txtVoiceNone  = textmatch.Phrase{
		RU: "Голосовые ответы недоступны: синтез речи не настроен.",
		EN: "Voice answers are unavailable: speech synthesis is not set up.",
	}
	txtNotKept = textmatch.Phrase{
		RU: " (Не удалось сохранить настройку: после перезапуска сервера она сбросится.)",
		EN: " (The setting could not be saved: it will be reset when the server restarts.)",
	}
	txtRefresh  = textmatch.Phrase{RU: "Обновить", EN: "Refresh"}
	txtNotYours = textmatch.Phrase{
		RU: "Эта кнопка не для вас.",
		EN: "This button is not for you.",
	}
	txtExpired = textmatch.Phrase{RU: "Кнопка устарела.", EN: "This button has expired."}

	txtFindUsage = textmatch.Phrase{
		RU: "Напишите название: /find Матрица",
		EN: "Send a title: /find Matrix",
	}
	txtFindUnavailable = textmatch.Phrase{
		RU: "Поиск по библиотеке сейчас недоступен.",
		EN: "The library search is unavailable right now.",
	}
	txtFindNothing      = textmatch.Phrase{RU: "В библиотеке нет ничего похожего на %s.", EN: "Nothing in the library matches %s."}
	txtTorrentUsage     = textmatch.Phrase{RU: "Напишите, что искать: /torrent Интерстеллар", EN: "Send what to look for: /torrent Interstellar"}
	txtTorrentNothing   = textmatch.Phrase{RU: "Торрентов по запросу %s не нашлось.", EN: "No torrents found for %s."}
	txtTorrentSearchOff = textmatch.Phrase{
		RU: "Поиск торрентов не настроен: администратору нужно добавить индексатор Torznab.",
		EN: "Torrent search is not set up: an administrator needs to add a Torznab indexer.",
	}
	txtIndexersDown = textmatch.Phrase{
		RU: "Ни один индексатор торрентов не ответил. Попробуйте позже.",
		EN: "No torrent indexer answered. Please try later.",
	}
	txtPlayUnavailable = textmatch.Phrase{RU: "Пульт сейчас недоступен.", EN: "The remote is unavailable right now."}
	txtPlaying         = textmatch.Phrase{RU: "▶ Включаю %s в вашей комнате.", EN: "▶ Playing %s in your room."}
	txtNoPlayer        = textmatch.Phrase{
		RU: "В вашей комнате нет открытого плеера: откройте плеер медиатеки под своим аккаунтом.",
		EN: "No player is open in your room: open the media server's player signed in as you.",
	}
	txtNotPlayable = textmatch.Phrase{
		RU: "Это нельзя включить: у записи нет видеофайла на диске.",
		EN: "This cannot be played: the entry has no video file on disk.",
	}
	txtAdded             = textmatch.Phrase{RU: "⬇ Добавлено в торрент-клиент: %s", EN: "⬇ Added to the torrent client: %s"}
	txtTorrentHave       = textmatch.Phrase{RU: "Этот торрент уже есть в клиенте.", EN: "The torrent client already has this torrent."}
	txtTorrentClientDown = textmatch.Phrase{
		RU: "Торрент-клиент сейчас недоступен или не настроен.",
		EN: "The torrent client is unavailable or not configured.",
	}
	txtTorrentBadLink = textmatch.Phrase{
		RU: "Ссылка этого результата не оказалась торрентом.",
		EN: "This result's link did not turn out to be a torrent.",
	}
)

// commandList is every command with its menu description, per language,
// in the order SetMyCommands registers and /help shows them.
func commandList(lang string) []models.BotCommand {
	return textmatch.Pick(lang, []models.BotCommand{
		{Command: "start", Description: "Приветствие и приложение медиатеки"},
		{Command: "help", Description: "Команды и примеры вопросов"},
		{Command: "status", Description: "Библиотека, торренты, плеер, ИИ"},
		{Command: "find", Description: "Найти в библиотеке и включить: /find НАЗВАНИЕ (или /найти)"},
		{Command: "torrent", Description: "Найти торрент и добавить: /torrent ЗАПРОС (или /торрент)"},
		{Command: "link", Description: "Привязать аккаунт медиатеки: /link КОД"},
		{Command: "notify", Description: "Уведомления администратору: on или off"},
		{Command: "voice", Description: "Ответы голосом: on или off"},
	}, []models.BotCommand{
		{Command: "start", Description: "Greeting and the media server app"},
		{Command: "help", Description: "Commands and example questions"},
		{Command: "status", Description: "Library, torrents, player, AI"},
		{Command: "find", Description: "Find in the library and play: /find TITLE"},
		{Command: "torrent", Description: "Search torrents and add one: /torrent QUERY"},
		{Command: "link", Description: "Link your media server account: /link CODE"},
		{Command: "notify", Description: "Admin notifications: on or off"},
		{Command: "voice", Description: "Voice answers: on or off"},
	})
}

// helpText is /help: every command with an example, and the kinds of
// questions the assistant answers.
func helpText(lang string) string {
	var b strings.Builder
	b.WriteString(textmatch.Pick(lang, "<b>Команды</b>\n", "<b>Commands</b>\n"))
	examples := map[string]string{"link": "/link 4F7K2Q", "notify": "/notify off", "voice": "/voice on",
		"find": textmatch.Pick(lang, "/find Матрица", "/find Matrix"), "torrent": textmatch.Pick(lang, "/torrent Интерстеллар", "/torrent Interstellar")}
	for _, c := range commandList(lang) {
		b.WriteString("/" + c.Command + " — " + esc(c.Description))
		if ex, ok := examples[c.Command]; ok {
			b.WriteString(textmatch.Pick(lang, " (пример: ", " (example: ") + "<code>" + esc(ex) + "</code>)")
		}
		b.WriteString("\n")
	}
	b.WriteString(textmatch.Pick(lang, "\n<b>Что можно спросить</b>\n", "\n<b>What you can ask</b>\n"))
	for _, q := range textmatch.Pick(lang, []string{
		"о библиотеке: «какие фильмы Нолана есть?», «сколько сериалов?»",
		"посоветовать: «посоветуй что-нибудь про космос»",
		"о дорожках и субтитрах: «какие субтитры у Матрицы?»",
		"о торрентах: «что качается?», «найди торрент Интерстеллар»",
		"администратору: «просканируй библиотеку», «проверь библиотеку»",
	}, []string{
		"about the library: “which Nolan films are there?”, “how many series?”",
		"for a suggestion: “find me something like Alien”",
		"about tracks and subtitles: “which subtitles does The Matrix have?”",
		"about torrents: “what's downloading?”, “find torrent Interstellar”",
		"for administrators: “scan the library”, “audit the library”",
	}) {
		b.WriteString("• " + esc(q) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// startText is /start's greeting.
func startText(lang string, app MiniApp) string {
	name := app.Name
	if name == "" {
		name = textmatch.Pick(lang, "Медиатека", "mediateka")
	}
	text := textmatch.Pick(lang,
		"Привет! Я бот медиатеки <b>%s</b>.\n\nОтвечаю на вопросы о фильмах и сериалах в библиотеке, советую, что посмотреть, показываю торренты и состояние плеера. Просто напишите вопрос — например, «какие фильмы Нолана есть?».\n\n/help — все команды, /status — состояние, /link КОД — привязать аккаунт медиатеки.",
		"Hello! I am the bot of the media server <b>%s</b>.\n\nI answer questions about the films and series in the library, suggest what to watch, and show torrents and the player's state. Just write a question, for example “which Nolan films are there?”.\n\n/help lists every command, /status shows the state, /link CODE links your media server account.")
	text = strings.Replace(text, "%s", esc(name), 1)
	if app.URL != "" {
		text += "\n\n" + textmatch.Pick(lang, "Приложение медиатеки открывается кнопкой ниже.", "The media server app opens with the button below.")
		if app.Description != "" {
			text += " " + esc(app.Description)
		}
	}
	return text
}

// htmlEscaper escapes exactly what Telegram's HTML parse mode needs.
var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// esc makes plain text safe in HTML parse mode.
func esc(s string) string { return htmlEscaper.Replace(s) }
