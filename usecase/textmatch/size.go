package textmatch

import (
	"fmt"
	"strings"

	"mediateka/domain"
)

// AdminOnly is the short refusal every plugin gives a caller who is not
// an administrator and asks for what an admin endpoint does (API.md §11),
// in lang. A function, so no plugin can change the words for the others.
func AdminOnly(lang string) string {
	return Pick(lang, "Это может сделать только администратор медиатеки.",
		"Only an administrator of the library can do that.")
}

// LinkFirst is the short refusal a caller without an account (an
// unlinked Telegram user: no user id) gets for what acts as an account,
// such as adding a torrent or searching the indexers, in lang. The bot and
// the chat's plugins say the same words.
func LinkFirst(lang string) string {
	return Pick(lang, "Сначала привяжите аккаунт медиатеки: /link КОД",
		"Link your media server account first: /link CODE")
}

// FormatSize writes a byte count for people in lang: "700 MB", "1.4 GB";
// Russian units and a decimal comma for "ru" ("1,4 ГБ").
func FormatSize(lang string, n int64) string {
	units := Pick(lang, []string{"Б", "КБ", "МБ", "ГБ", "ТБ"}, []string{"B", "KB", "MB", "GB", "TB"})
	v, i := float64(max(n, 0)), 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	s := fmt.Sprintf("%.0f", v)
	if i > 0 && v < 10 {
		s = fmt.Sprintf("%.1f", v)
	}
	if lang == domain.LangRussian {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s + " " + units[i]
}
