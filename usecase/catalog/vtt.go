package catalog

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// ToWebVTT turns a subtitle file (SRT or WebVTT) into UTF-8 WebVTT, the
// only format browsers' <track> elements play. Text that is not UTF-8 is
// read as UTF-16 when it has a byte-order mark, else as Windows-1251, the
// usual encoding of older Russian subtitles.
func ToWebVTT(raw []byte) []byte {
	text := decodeText(raw)
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	if strings.HasPrefix(text, "WEBVTT") {
		return []byte(text)
	}
	timing := regexp.MustCompile(`^\s*(\d{1,3}):(\d{1,2}):(\d{1,2})[,.](\d{1,3})\s*-->\s*(\d{1,3}):(\d{1,2}):(\d{1,2})[,.](\d{1,3})`)
	override := regexp.MustCompile(`\{\\[^}]*\}`)
	var b strings.Builder
	b.WriteString("WEBVTT\n\n")
	for _, line := range strings.Split(strings.TrimLeft(text, "\n"), "\n") {
		if m := timing.FindStringSubmatch(line); m != nil {
			b.WriteString(stamp(m[1:5]) + " --> " + stamp(m[5:9]) + "\n")
			continue
		}
		b.WriteString(override.ReplaceAllString(line, ""))
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// stamp formats hours, minutes, seconds and milliseconds as WebVTT wants.
func stamp(p []string) string {
	n := make([]int, 4)
	for i, s := range p {
		n[i], _ = strconv.Atoi(s)
	}
	ms := p[3] + strings.Repeat("0", 3-len(p[3])) // ",5" is 500 ms
	n[3], _ = strconv.Atoi(ms)
	return fmt.Sprintf("%02d:%02d:%02d.%03d", n[0], n[1], n[2], n[3])
}

func decodeText(raw []byte) string {
	switch {
	case bytes.HasPrefix(raw, []byte{0xEF, 0xBB, 0xBF}):
		raw = raw[3:]
	case bytes.HasPrefix(raw, []byte{0xFF, 0xFE}):
		return decodeUTF16(raw[2:], false)
	case bytes.HasPrefix(raw, []byte{0xFE, 0xFF}):
		return decodeUTF16(raw[2:], true)
	}
	if utf8.Valid(raw) {
		return string(raw)
	}
	out, err := charmap.Windows1251.NewDecoder().Bytes(raw)
	if err != nil {
		return strings.ToValidUTF8(string(raw), "\uFFFD")
	}
	return string(out)
}

func decodeUTF16(raw []byte, bigEndian bool) string {
	units := make([]uint16, len(raw)/2)
	for i := range units {
		if bigEndian {
			units[i] = uint16(raw[2*i])<<8 | uint16(raw[2*i+1])
		} else {
			units[i] = uint16(raw[2*i+1])<<8 | uint16(raw[2*i])
		}
	}
	return string(utf16.Decode(units))
}
