package ttstest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"mediateka/repository/exectest"
)

// Duration is what ffprobe says of the audio's length in seconds, the
// test failing when ffprobe cannot read it. Without ffprobe the test is
// skipped, or fails under CI=true.
func Duration(t testing.TB, audio []byte, ext string) float64 {
	t.Helper()
	exectest.Require(t, "ffmpeg", "ffprobe")
	path := writeTemp(t, audio, ext)
	out, err := exec.Command("ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path).CombinedOutput()
	if err != nil {
		t.Fatalf("ffprobe: %v: %s", err, out)
	}
	d, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
	if err != nil {
		t.Fatalf("ffprobe duration %q: %v", out, err)
	}
	return d
}

// Decode plays the audio through ffmpeg's decoder, as a player would, and
// returns its length in seconds (from the decoded 48 kHz mono samples); a
// decoder error or warning fails the test. For chained Ogg this is the
// length of every link, where ffprobe's duration is the last one's.
func Decode(t testing.TB, audio []byte, ext string) float64 {
	t.Helper()
	exectest.Require(t, "ffmpeg", "ffmpeg")
	path := writeTemp(t, audio, ext)
	cmd := exec.Command("ffmpeg", "-nostdin", "-v", "error", "-i", path, "-f", "s16le", "-ac", "1", "-ar", "48000", "pipe:1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	pcm, err := cmd.Output()
	if err != nil || stderr.Len() > 0 {
		t.Fatalf("ffmpeg could not decode the %s cleanly: %v: %s", ext, err, stderr.String())
	}
	return float64(len(pcm)/2) / 48000
}

func writeTemp(t testing.TB, audio []byte, ext string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "speech."+ext)
	if err := os.WriteFile(path, audio, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
