// Package ttstest holds local fakes of the remote speech services, for
// the tests of repository/tts/google and repository/tts/openai and of
// whoever wires them: a Google Cloud Text-to-Speech server and an
// OpenAI-compatible /audio/speech server speaking the real wire formats,
// recording every request, answering errors on demand, and answering real
// audio bytes of the asked container.
package ttstest

import (
	"bytes"
	_ "embed"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"
)

//go:embed testdata/tone.mp3
var toneMP3 []byte

//go:embed testdata/tone.ogg
var toneOgg []byte

// MP3 is 0.4 s of a 440 Hz tone in mp3 (MPEG-2 Layer III, 24 kHz mono,
// 32 kbit/s) as ffmpeg writes it: an ID3v2 tag, a LAME Info frame, audio.
func MP3() []byte { return bytes.Clone(toneMP3) }

// Ogg is 0.4 s of a 440 Hz tone in Ogg/Opus (48 kHz mono), made by ffmpeg
// with bit-exact output, so its serial number is 0 in every copy: a text
// of several pieces joins copies that share a serial.
func Ogg() []byte { return bytes.Clone(toneOgg) }

// SampleRate is the rate of the fakes' WAV audio, Google's LINEAR16 default.
const SampleRate = 24000

// SamplesPerChar is how many samples of WAV the fakes answer per
// character of input, so a joined WAV's length tells the text's.
const SamplesPerChar = 24

// WAV is a valid 16-bit mono WAV of samples samples of a tone. With
// streamed, the RIFF and data sizes are 0xFFFFFFFF, as a server writing to
// a stream does; with list, a LIST chunk sits between fmt and data, so a
// reader that assumes a 44-byte header reads garbage.
func WAV(samples int, streamed, list bool) []byte {
	pcm := make([]byte, 2*samples)
	for i := range samples {
		v := int16(8000 * math.Sin(2*math.Pi*440*float64(i)/SampleRate))
		binary.LittleEndian.PutUint16(pcm[2*i:], uint16(v))
	}
	fmtChunk := binary.LittleEndian.AppendUint16(nil, 1) // PCM
	fmtChunk = binary.LittleEndian.AppendUint16(fmtChunk, 1)
	fmtChunk = binary.LittleEndian.AppendUint32(fmtChunk, SampleRate)
	fmtChunk = binary.LittleEndian.AppendUint32(fmtChunk, SampleRate*2)
	fmtChunk = binary.LittleEndian.AppendUint16(fmtChunk, 2)
	fmtChunk = binary.LittleEndian.AppendUint16(fmtChunk, 16)
	var extra []byte
	if list {
		info := []byte("INFOISFT\x0e\x00\x00\x00mediateka fake") // 14-byte value
		extra = append([]byte("LIST"), binary.LittleEndian.AppendUint32(nil, uint32(len(info)))...)
		extra = append(extra, info...)
	}
	riff, data := uint32(4+8+16+len(extra)+8+len(pcm)), uint32(len(pcm))
	if streamed {
		riff, data = math.MaxUint32, math.MaxUint32
	}
	b := append([]byte("RIFF"), binary.LittleEndian.AppendUint32(nil, riff)...)
	b = append(b, "WAVEfmt "...)
	b = binary.LittleEndian.AppendUint32(b, 16)
	b = append(b, fmtChunk...)
	b = append(b, extra...)
	b = append(b, "data"...)
	b = binary.LittleEndian.AppendUint32(b, data)
	return append(b, pcm...)
}

// wavFor is the fakes' WAV answer to text.
func wavFor(text string, streamed, list bool) []byte {
	return WAV(SamplesPerChar*utf8.RuneCountInString(text), streamed, list)
}

// RussianText is a Russian text of sentences just under n characters
// (4 900–5 000 for n = 5000), mostly Cyrillic, so near two bytes a letter: a text
// at the API's limit that Google's 5000 bytes and OpenAI's 4096
// characters both make several pieces of. Its sentences end in ".", "!",
// "?" and "…", and some hold abbreviations and numbers ("т. е.", "1999 г.").
func RussianText(n int) string {
	sentences := []string{
		"Фильм номер %d вышел в прокат в 1999 г. и сразу стал классикой.",
		"Герой просыпается в чужом городе, т. е. в мире, которого не знает!",
		"Почему зрители возвращаются к этой истории снова и снова?",
		"Ответ простой: атмосфера, музыка и неожиданный финал…",
		"Режиссёр снимал сцену номер %d три недели подряд.",
	}
	var b strings.Builder
	for i := 0; ; i++ {
		s := sentences[i%len(sentences)]
		if strings.Contains(s, "%d") {
			s = fmt.Sprintf(s, i)
		}
		if utf8.RuneCountInString(b.String())+1+utf8.RuneCountInString(s) > n {
			return b.String()
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
	}
}
