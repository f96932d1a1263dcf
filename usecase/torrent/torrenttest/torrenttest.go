// Package torrenttest makes real .torrent files for tests with our own
// bencode encoder: a single file with correct piece hashes, so a torrent
// client given the data on disk and a recheck sees it complete.
package torrenttest

import (
	"crypto/sha1"
	"encoding/hex"

	"mediateka/usecase/torrent/bencode"
)

// pieceLength is the smallest piece size clients accept.
const pieceLength = 16 << 10

// SingleFile returns a v1 .torrent describing one file called name with
// the given content, and its info-hash in hex. It has no trackers: a
// client never finds peers for it.
func SingleFile(name string, content []byte) (file []byte, hash string) {
	var pieces []byte
	for off := 0; off < len(content) || off == 0; off += pieceLength {
		end := min(off+pieceLength, len(content))
		sum := sha1.Sum(content[off:end])
		pieces = append(pieces, sum[:]...)
	}
	info := map[string]any{"name": name, "length": int64(len(content)), "piece length": int64(pieceLength), "pieces": pieces}
	rawInfo, err := bencode.Encode(info)
	if err != nil {
		panic(err) // the values above always encode
	}
	file, err = bencode.Encode(map[string]any{"info": info, "created by": "mediateka tests"})
	if err != nil {
		panic(err)
	}
	sum := sha1.Sum(rawInfo)
	return file, hex.EncodeToString(sum[:])
}
