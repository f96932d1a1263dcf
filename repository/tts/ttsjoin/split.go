// Package ttsjoin is what the remote speech engines (google, openai)
// share about texts longer than their server takes in one request: the
// text is cut into pieces under the server's limit at sentence
// boundaries, each piece is spoken by its own request, and the audio of
// the pieces is joined back into one file of the asked format.
//
// Joining by format:
//
//   - mp3: MPEG frames concatenate. A later piece's ID3v2 tag is dropped,
//     and so is every piece's Xing/Info frame, whose frame count would
//     describe one piece as if it were the whole file.
//   - wav: each piece's RIFF chunks are read (not a fixed 44-byte header;
//     a size of 0xFFFFFFFF, as a streamed WAV has, means "to the end"),
//     and one header with the right total sizes is written before the
//     PCM of all pieces. The total is only known at the end, so a WAV of
//     several pieces is held in memory until the last one.
//   - ogg (Opus): the pieces follow each other as chained Ogg streams —
//     each piece a complete logical stream with its own OpusHead, which
//     the Ogg format allows and decoders (ffmpeg, browsers) play through.
//     Remuxing into one logical stream would mean rewriting every page's
//     granule positions and dropping headers; chaining keeps each piece's
//     pages as the server made them. A piece whose serial number an
//     earlier piece already used gets a new one (CRC recomputed), since
//     two links of one serial are decoded as one broken stream. Note that
//     ffprobe's format duration of a chained file is that of its last
//     link; decoding gives the whole.
//
// A text of one piece is passed through exactly as the server sent it.
package ttsjoin

import (
	"strings"
	"unicode/utf8"
)

// Bytes measures a text in UTF-8 bytes, as Google counts its limit.
func Bytes(s string) int { return len(s) }

// Chars measures a text in Unicode characters, as OpenAI counts its limit.
func Chars(s string) int { return utf8.RuneCountInString(s) }

// Split cuts text into pieces of at most limit, as size measures them,
// each made of whole sentences where it can: sentences (the use case's
// splitter, textmatch.Sentences) cuts the text, and consecutive sentences
// share a piece, joined by a space, while they fit. A sentence longer than
// the limit, or the whole text when sentences is nil, is cut between words;
// a single word longer than the limit between characters. Blank text has
// no pieces.
func Split(text string, limit int, size func(string) int, sentences func(string) []string) []string {
	if limit <= 0 {
		limit = 1
	}
	units := []string{text}
	if sentences != nil {
		units = sentences(text)
	}
	var p packer
	p.limit, p.size = limit, size
	for _, u := range units {
		u = strings.TrimSpace(u)
		if u == "" {
			continue
		}
		if size(u) <= limit {
			p.add(u)
			continue
		}
		for _, w := range strings.Fields(u) {
			if size(w) <= limit {
				p.add(w)
				continue
			}
			for _, part := range cutRunes(w, limit, size) {
				p.add(part)
			}
		}
	}
	return p.done()
}

// packer gathers units into pieces under the limit.
type packer struct {
	limit  int
	size   func(string) int
	pieces []string
	cur    strings.Builder
}

func (p *packer) add(u string) {
	if p.cur.Len() > 0 && p.size(p.cur.String()+" "+u) <= p.limit {
		p.cur.WriteByte(' ')
		p.cur.WriteString(u)
		return
	}
	p.flush()
	p.cur.WriteString(u)
}

func (p *packer) flush() {
	if p.cur.Len() > 0 {
		p.pieces = append(p.pieces, p.cur.String())
		p.cur.Reset()
	}
}

func (p *packer) done() []string {
	p.flush()
	return p.pieces
}

// cutRunes cuts a word with no space in it into parts under the limit,
// never inside a character.
func cutRunes(w string, limit int, size func(string) int) []string {
	var parts []string
	start := 0
	for i := range w {
		_, n := utf8.DecodeRuneInString(w[i:])
		if i > start && size(w[start:i+n]) > limit {
			parts = append(parts, w[start:i])
			start = i
		}
	}
	return append(parts, w[start:])
}
