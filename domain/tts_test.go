package domain

import (
	"errors"
	"testing"
)

func TestAudioFormats(t *testing.T) {
	for f, want := range map[AudioFormat]string{AudioMP3: "audio/mpeg", AudioWAV: "audio/wav", AudioOGG: "audio/ogg", "flac": "", "": ""} {
		if got := f.ContentType(); got != want || f.Valid() != (want != "") {
			t.Errorf("%q: content type %q valid %v, want %q", f, got, f.Valid(), want)
		}
	}
}

func TestTTSUnavailableIsA503WithItsOwnMessage(t *testing.T) {
	err := TTSUnavailable("apt-get install espeak-ng", errors.New("not found"))
	if !errors.Is(err, ErrTTSUnavailable) || KindOf(err) != KindUnavailable || err.Message != "apt-get install espeak-ng" {
		t.Errorf("%v: kind %v", err, KindOf(err))
	}
}
