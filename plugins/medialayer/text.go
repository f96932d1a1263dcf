package medialayer

import (
	"fmt"
	"strings"

	"mediateka/domain"
	"mediateka/usecase/textmatch"
)

// phrases are the plugin's sentences in one language.
type phrases struct {
	state         func(Subtitles) string
	done          string
	resetDone     string
	resetUser     string
	noAccount     string
	notSaved      string
	badSize       string // %d given, %d min, %d max
	noCatalog     string // %s title
	searchFailed  string // %s title
	notFound      string // %s title
	isFolder      string // %s label
	noProber      string // %s label
	noProberSubs  string // %s label
	sidecarHead   string // %d count
	noSidecars    string
	sidecarFailed string
	probeFailed   string // %s label
	audioHead     string // %s label, %d count
	subtitleHead  string // %s label, %d count
	noTracks      map[string]string
	languages     map[string]string
	channels      func(n int) string
	dflt          string
}

// russianText and englishText are the plugin's two languages.
var (
	russianText = phrases{
		state: func(s Subtitles) string {
			on := "выключены"
			if s.Enabled {
				on = "включены"
			}
			return fmt.Sprintf("Субтитры %s, размер %d, цвет %s.", on, s.Size, s.Color)
		},
		done:          "Готово.",
		resetDone:     "Настройки субтитров сброшены к заданным в конфигурации.",
		resetUser:     "Ваши настройки субтитров сброшены к общим настройкам медиатеки.",
		noAccount:     "Я не знаю, чей это аккаунт, поэтому не могу сохранить настройки субтитров: войдите в медиатеку.",
		notSaved:      "(Настройки не сохранены: хранилище не подключено, после перезапуска они вернутся.)",
		badSize:       "Размер субтитров %d не подходит: он должен быть от %d до %d.",
		noCatalog:     "Каталог медиатеки пока не подключён, поэтому я не могу найти «%s» и посмотреть его дорожки.",
		searchFailed:  "Не получилось поискать «%s» в каталоге: база сейчас не отвечает.",
		notFound:      "«%s» в каталоге не нашлось.",
		isFolder:      "«%s» — это сериал или сезон, а дорожки есть у отдельных серий. Спросите про конкретную серию.",
		noProber:      "Чтобы прочитать дорожки «%s», на сервере нужен ffprobe (пакет ffmpeg), а он не установлен.",
		noProberSubs:  "Субтитры внутри файла «%s» прочитать нельзя: на сервере нет ffprobe (пакет ffmpeg).",
		sidecarHead:   "Файлы субтитров рядом с видео (%d):",
		noSidecars:    "Файлов субтитров (.srt, .vtt) рядом с видео нет.",
		sidecarFailed: "Файлы субтитров рядом с видео прочитать не получилось.",
		probeFailed:   "Не получилось прочитать файл «%s»: он недоступен или повреждён.",
		audioHead:     "Звуковые дорожки «%s» (%d):",
		subtitleHead:  "Встроенные субтитры «%s» (%d):",
		noTracks:      map[string]string{domain.StreamAudio: "В файле «%s» нет звуковых дорожек.", domain.StreamSubtitle: "В файле «%s» нет встроенных субтитров."},
		languages:     map[string]string{"rus": "русский", "ru": "русский", "eng": "английский", "en": "английский", "ukr": "украинский", "uk": "украинский", "jpn": "японский", "ja": "японский", "ger": "немецкий", "deu": "немецкий", "fre": "французский", "fra": "французский", "spa": "испанский", "ita": "итальянский"},
		channels:      func(n int) string { return fmt.Sprintf("каналов: %d", n) },
		dflt:          "по умолчанию",
	}
	englishText = phrases{
		state: func(s Subtitles) string {
			on := "off"
			if s.Enabled {
				on = "on"
			}
			return fmt.Sprintf("Subtitles are %s, size %d, colour %s.", on, s.Size, s.Color)
		},
		done:          "Done.",
		resetDone:     "Subtitle preferences are back to the configured ones.",
		resetUser:     "Your subtitle preferences are back to the library's defaults.",
		noAccount:     "I do not know whose account this is, so I cannot keep subtitle preferences: sign in to the library.",
		notSaved:      "(Not saved: no settings store is connected, so this lasts until the server restarts.)",
		badSize:       "Subtitle size %d will not do: it must be between %d and %d.",
		noCatalog:     "The media catalogue is not available yet, so I cannot find “%s” to look at its tracks.",
		searchFailed:  "I could not search the catalogue for “%s”: the database is not answering right now.",
		notFound:      "“%s” is not in the catalogue.",
		isFolder:      "“%s” is a series or a season; tracks belong to single episodes. Ask about one episode.",
		noProber:      "Reading the tracks of “%s” needs ffprobe (package ffmpeg) on the server, and it is not installed.",
		noProberSubs:  "The subtitles inside the file of “%s” cannot be read: the server has no ffprobe (package ffmpeg).",
		sidecarHead:   "Subtitle files beside the video (%d):",
		noSidecars:    "There are no subtitle files (.srt, .vtt) beside the video.",
		sidecarFailed: "The subtitle files beside the video could not be read.",
		probeFailed:   "I could not read the file of “%s”: it is unavailable or damaged.",
		audioHead:     "Audio tracks of “%s” (%d):",
		subtitleHead:  "Embedded subtitles of “%s” (%d):",
		noTracks:      map[string]string{domain.StreamAudio: "The file of “%s” has no audio tracks.", domain.StreamSubtitle: "The file of “%s” has no embedded subtitles."},
		languages:     map[string]string{"rus": "Russian", "ru": "Russian", "eng": "English", "en": "English", "ukr": "Ukrainian", "uk": "Ukrainian", "jpn": "Japanese", "ja": "Japanese", "ger": "German", "deu": "German", "fre": "French", "fra": "French", "spa": "Spanish", "ita": "Italian"},
		channels:      func(n int) string { return fmt.Sprintf("%d channels", n) },
		dflt:          "default",
	}
)

// textsIn returns the sentences of lang (English unless "ru").
func textsIn(lang string) phrases { return textmatch.Pick(lang, russianText, englishText) }

func (p phrases) describe(s Subtitles) string { return p.state(s) }

// track describes one stream: "русский — «Дубляж», ac3, каналов: 6, по
// умолчанию".
func (p phrases) track(s domain.MediaStream) string {
	name := p.languages[strings.ToLower(s.Language)]
	if name == "" {
		name = s.Language
	}
	if name == "" {
		name = "?"
	}
	parts := []string{name}
	if s.Title != "" {
		parts[0] += " — «" + s.Title + "»"
	}
	if s.Codec != "" {
		parts = append(parts, s.Codec)
	}
	if s.Channels > 0 {
		parts = append(parts, p.channels(s.Channels))
	}
	if s.Default {
		parts = append(parts, p.dflt)
	}
	return strings.Join(parts, ", ")
}
