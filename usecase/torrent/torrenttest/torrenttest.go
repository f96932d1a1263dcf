// Package torrenttest makes real .torrent files for tests with our own
// bencode encoder: a single file or a folder, with correct piece hashes,
// so a torrent client given the data on disk and a recheck sees it
// complete.
package torrenttest

import (
	"crypto/sha1"
	"encoding/hex"
	"slices"
	"strings"

	"mediateka/usecase/torrent/bencode"
)

// pieceLength is the smallest piece size clients accept.
const pieceLength = 16 << 10

// SingleFile returns a v1 .torrent describing one file called name with
// the given content, and its info-hash in hex. It has no trackers: a
// client never finds peers for it.
func SingleFile(name string, content []byte) (file []byte, hash string) {
	info := map[string]any{"name": name, "length": int64(len(content)), "piece length": int64(pieceLength),
		"pieces": pieceHashes(content)}
	return encode(info)
}

// pieceHashes are the SHA-1 sums of data's pieces, concatenated.
func pieceHashes(data []byte) []byte {
	var pieces []byte
	for off := 0; off < len(data) || off == 0; off += pieceLength {
		end := min(off+pieceLength, len(data))
		sum := sha1.Sum(data[off:end])
		pieces = append(pieces, sum[:]...)
	}
	return pieces
}

// encode wraps info into a .torrent and computes its info-hash.
func encode(info map[string]any) (file []byte, hash string) {
	rawInfo, err := bencode.Encode(info)
	if err != nil {
		panic(err) // the values built here always encode
	}
	file, err = bencode.Encode(map[string]any{"info": info, "created by": "mediateka tests"})
	if err != nil {
		panic(err)
	}
	sum := sha1.Sum(rawInfo)
	return file, hex.EncodeToString(sum[:])
}

// MultiFile returns a v1 .torrent of a folder called name holding files
// (paths relative to the folder, "/"-separated), and its info-hash. The
// files are listed in path order; qBittorrent shows them as name/path.
func MultiFile(name string, files map[string][]byte) (file []byte, hash string) {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	var all []byte
	list := make([]any, 0, len(paths))
	for _, p := range paths {
		all = append(all, files[p]...)
		parts := strings.Split(p, "/")
		path := make([]any, len(parts))
		for i, s := range parts {
			path[i] = s
		}
		list = append(list, map[string]any{"length": int64(len(files[p])), "path": path})
	}
	info := map[string]any{"name": name, "files": list, "piece length": int64(pieceLength), "pieces": pieceHashes(all)}
	return encode(info)
}
