package textmatch

import "strings"

// Quote puts a name in the quotes of lang: «…» in Russian, “…” otherwise.
// Answers quote titles so that a later turn can tell what was named.
func Quote(lang, s string) string { return Pick(lang, "«"+s+"»", "“"+s+"”") }

// StripCodeFence removes the ``` fence (with or without "json") that some
// models put around a JSON answer although they were asked for bare JSON.
func StripCodeFence(text string) string {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "```") || !strings.HasSuffix(t, "```") || len(t) < 6 {
		return t
	}
	t = strings.TrimSuffix(strings.TrimPrefix(t, "```"), "```")
	t = strings.TrimPrefix(t, "json")
	return strings.TrimSpace(t)
}
