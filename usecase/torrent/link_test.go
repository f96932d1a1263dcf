package torrent

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/usecase/torrent/torrenttest"
)

func reason(t *testing.T, err error) string {
	t.Helper()
	var de *domain.Error
	require.ErrorAs(t, err, &de)
	require.Equal(t, "invalid_torrent_link", de.Code, "%v", err)
	return de.Fields["url"]
}

func TestMagnetHash(t *testing.T) {
	// The base32 form of 0123…4567 is AERUKZ4JVPG66AJDIVTYTK6N54ASGRLH.
	ok := map[string]string{
		"magnet:?xt=urn:btih:0123456789abcdef0123456789abcdef01234567":                    "0123456789abcdef0123456789abcdef01234567",
		"magnet:?dn=Film&xt=urn:btih:0123456789ABCDEF0123456789ABCDEF01234567&tr=udp://t": "0123456789abcdef0123456789abcdef01234567",
		"magnet:?xt=urn:btih:AERUKZ4JVPG66AJDIVTYTK6N54ASGRLH":                            "0123456789abcdef0123456789abcdef01234567",
		"magnet:?xt=urn:btih:aerukz4jvpg66ajdivtytk6n54asgrlh":                            "0123456789abcdef0123456789abcdef01234567",
		"MAGNET:?XT=URN:BTIH:0123456789abcdef0123456789abcdef01234567":                    "0123456789abcdef0123456789abcdef01234567",
		"magnet:?xt=urn:btmh:1220aa&xt=urn:btih:0123456789abcdef0123456789abcdef01234567": "0123456789abcdef0123456789abcdef01234567",
		"magnet:?xt=urn%3Abtih%3A0123456789abcdef0123456789abcdef01234567":                "0123456789abcdef0123456789abcdef01234567",
	}
	for link, want := range ok {
		got, err := MagnetHash(link)
		require.NoError(t, err, link)
		assert.Equal(t, want, got, link)
	}
	bad := map[string]string{
		"magnet:?dn=Film":                                "no xt=urn:btih:",
		"magnet:?xt=urn:btmh:1220aabb":                   "no xt=urn:btih:",
		"magnet:":                                        "no xt=urn:btih:",
		"magnet:?xt=urn:btih:0123456789abcdef":           "40 hex digits or 32 base32",
		"magnet:?xt=urn:btih:" + strings.Repeat("g", 40): "40 hex digits or 32 base32",
		"magnet:?xt=urn:btih:" + strings.Repeat("1", 32): "40 hex digits or 32 base32", // 1 is not base32
		"magnet:?xt=urn:btih:" + strings.Repeat("a", 41): "40 hex digits or 32 base32",
	}
	for link, want := range bad {
		_, err := MagnetHash(link)
		assert.Contains(t, reason(t, err), want, link)
	}
}

func TestClassifyLink(t *testing.T) {
	for link, want := range map[string]string{
		"file:///etc/passwd":                "only magnet: and http(s)",
		"ftp://example.org/a.torrent":       "only magnet: and http(s)",
		"javascript:alert(1)":               "only magnet: and http(s)",
		"just some words":                   "neither a magnet",
		"http:///path":                      "no host",
		"http://169.254.169.254/latest":     "link-local",
		"https://[fe80::1]/a.torrent":       "link-local",
		"http://[::ffff:169.254.169.254]/x": "link-local",
		"magnet:?xt=urn:btih:tooshort":      "40 hex digits",
	} {
		_, _, err := classifyLink(link)
		assert.Contains(t, reason(t, err), want, link)
	}
	for _, link := range []string{"http://127.0.0.1:9117/dl/1", "https://tracker.example/a.torrent", "http://192.168.1.5/x", "HTTP://host/x"} {
		kind, _, err := classifyLink(link)
		require.NoError(t, err, link)
		assert.Equal(t, linkHTTP, kind, link)
	}
}

func TestParseTorrentFile(t *testing.T) {
	file, hash := torrenttest.SingleFile("Film.2020.mkv", []byte("some video bytes"))
	meta, err := ParseTorrentFile(file)
	require.NoError(t, err)
	assert.Equal(t, hash, meta.Hash)
	assert.Equal(t, "Film.2020.mkv", meta.Name)

	// The hash is of the info dictionary's bytes as written, keys out of
	// order included, not of a re-encoding.
	unsorted := "d4:infod4:name1:x6:lengthi3e12:piece lengthi16384e6:pieces20:" + strings.Repeat("a", 20) + "ee"
	meta, err = ParseTorrentFile([]byte(unsorted))
	require.NoError(t, err)
	assert.Equal(t, "7d46cbc5f7c8d849235d324864e160b2919e4bd6", meta.Hash, "sha1 of the info bytes (Python hashlib)")

	v2 := "d4:infod9:file treed1:xd0:d6:lengthi3eeee12:meta versioni2e4:name1:x12:piece lengthi16384eee"
	meta, err = ParseTorrentFile([]byte(v2))
	require.NoError(t, err)
	assert.Equal(t, "f33723f3e3383e9ce8237e8063d7abf0932fa9a0", meta.Hash, "a v2-only torrent's hash is its SHA-256 cut to 20 bytes")

	for body, want := range map[string]string{
		"<html>not found</html>": "not bencoded",
		"":                       "not bencoded",
		"i42e":                   "no info dictionary",
		"d4:name1:xe":            "no info dictionary",
		"d4:infod4:name1:xee":    "no pieces",
		"d4:infod6:lengthi3e4:name1:x12:piece lengthi16384e6:pieces3:abcee": "no pieces",
	} {
		_, err := ParseTorrentFile([]byte(body))
		assert.Contains(t, reason(t, err), want, body)
	}
}
