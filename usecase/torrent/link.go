package torrent

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"net/netip"
	"net/url"
	"strings"

	"mediateka/domain"
	"mediateka/usecase/torrent/bencode"
)

// maxLinkChars bounds a download link (magnets with many trackers run to
// a few kilobytes).
const maxLinkChars = 16 << 10

// linkKind is what a link is, decided before anything is fetched.
type linkKind int

const (
	linkMagnet linkKind = iota
	linkHTTP
)

// classifyLink checks link's form without any network call: a magnet with
// a valid info-hash (returned), or an http(s) URL with a host that is not
// a link-local address written as a number (a name is checked again when
// it is dialled).
func classifyLink(link string) (linkKind, string, error) {
	scheme, _, ok := strings.Cut(link, ":")
	if !ok {
		return 0, "", domain.ErrInvalidTorrentLink("it is neither a magnet: nor an http(s) link")
	}
	switch strings.ToLower(scheme) {
	case "magnet":
		hash, err := MagnetHash(link)
		return linkMagnet, hash, err
	case "http", "https":
		u, err := url.Parse(link)
		if err != nil || u.Hostname() == "" {
			return 0, "", domain.ErrInvalidTorrentLink("the link has no host")
		}
		if ip, err := netip.ParseAddr(u.Hostname()); err == nil && linkLocal(ip) {
			return 0, "", domain.ErrInvalidTorrentLink("link-local addresses (169.254.0.0/16, fe80::/10) are not allowed")
		}
		return linkHTTP, "", nil
	}
	return 0, "", domain.ErrInvalidTorrentLink("only magnet: and http(s) links are accepted, not " + scheme + ":")
}

// linkLocal mirrors the fetcher's dial-time check for addresses written
// into the link, so they are refused before any connection is tried.
func linkLocal(ip netip.Addr) bool {
	ip = ip.Unmap()
	return ip.IsLinkLocalUnicast() || ip.IsUnspecified() || ip.IsMulticast()
}

// MagnetHash returns the info-hash of a magnet link as 40 lower-case hex
// digits. The link needs an xt=urn:btih: parameter with 40 hex digits or
// 32 base32 characters (the older form).
func MagnetHash(link string) (string, error) {
	_, query, _ := strings.Cut(link, "?")
	found := false
	for _, param := range strings.Split(query, "&") {
		key, value, _ := strings.Cut(param, "=")
		if !strings.EqualFold(key, "xt") {
			continue
		}
		if v, err := url.QueryUnescape(value); err == nil {
			value = v
		}
		btih, ok := cutPrefixFold(value, "urn:btih:")
		if !ok {
			continue
		}
		found = true
		if hash, ok := btihHex(btih); ok {
			return hash, nil
		}
	}
	if found {
		return "", domain.ErrInvalidTorrentLink("the btih info-hash must be 40 hex digits or 32 base32 characters")
	}
	return "", domain.ErrInvalidTorrentLink("the magnet link has no xt=urn:btih: info-hash")
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// btihHex normalises a btih value to lower-case hex.
func btihHex(v string) (string, bool) {
	switch len(v) {
	case 40:
		if _, err := hex.DecodeString(v); err == nil {
			return strings.ToLower(v), true
		}
	case 32:
		if b, err := base32.StdEncoding.DecodeString(strings.ToUpper(v)); err == nil {
			return hex.EncodeToString(b), true
		}
	}
	return "", false
}

// Meta is what the server reads of a .torrent file.
type Meta struct {
	Hash string // the info-hash the client will know it by (hex)
	Name string
}

// ParseTorrentFile checks that data is a bencoded torrent and computes its
// info-hash: SHA-1 of the info dictionary's exact bytes for v1 and hybrid
// torrents, the SHA-256 truncated to 20 bytes for v2-only ones (what
// qBittorrent shows as their hash).
func ParseTorrentFile(data []byte) (Meta, error) {
	top, err := bencode.Decode(data)
	if err != nil {
		return Meta{}, domain.ErrInvalidTorrentLink("the file is not a torrent (not bencoded)").Wrap(err)
	}
	dict, _ := top.(map[string]any)
	info, _ := dict["info"].(map[string]any)
	if info == nil {
		return Meta{}, domain.ErrInvalidTorrentLink("the file is not a torrent (no info dictionary)")
	}
	name, _ := info["name"].(string)
	v1, v2 := isV1(info), isV2(info)
	if !v1 && !v2 {
		return Meta{}, domain.ErrInvalidTorrentLink("the file is not a torrent (no pieces or file tree)")
	}
	raw, _, err := bencode.RawField(data, "info")
	if err != nil {
		return Meta{}, domain.ErrInvalidTorrentLink("the file is not a torrent").Wrap(err)
	}
	if v1 {
		sum := sha1.Sum(raw)
		return Meta{Hash: hex.EncodeToString(sum[:]), Name: name}, nil
	}
	sum := sha256.Sum256(raw)
	return Meta{Hash: hex.EncodeToString(sum[:20]), Name: name}, nil
}

// isV1 reports a BitTorrent v1 info dictionary: a piece length, pieces in
// 20-byte hashes, and a single length or a file list.
func isV1(info map[string]any) bool {
	pieceLen, _ := info["piece length"].(int64)
	pieces, _ := info["pieces"].(string)
	_, single := info["length"].(int64)
	_, multi := info["files"].([]any)
	return pieceLen > 0 && len(pieces) > 0 && len(pieces)%20 == 0 && (single || multi)
}

// isV2 reports a BitTorrent v2 info dictionary (BEP 52).
func isV2(info map[string]any) bool {
	version, _ := info["meta version"].(int64)
	_, tree := info["file tree"].(map[string]any)
	return version == 2 && tree
}
