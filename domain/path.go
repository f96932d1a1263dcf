package domain

import (
	"slices"
	"strings"
)

// Paths of the library folders, shared by the use cases that check a
// requested folder against them (scan, relocation, subtitles).

// PathWithin reports whether the clean absolute path p is dir or lies
// below it. Both must be clean (filepath.Clean); no link is resolved.
func PathWithin(dir, p string) bool {
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// CollapseNested sorts items by their clean path and drops those that lie
// inside another one's, so a folder is walked once. It reorders items in
// place and returns the kept prefix.
func CollapseNested[T any](items []T, path func(T) string) []T {
	slices.SortFunc(items, func(a, b T) int { return strings.Compare(path(a), path(b)) })
	out := items[:0]
	for _, it := range items {
		if len(out) > 0 && PathWithin(path(out[len(out)-1]), path(it)) {
			continue
		}
		out = append(out, it)
	}
	return out
}

// RealPaths resolves the links of each path with realPath, leaving out
// those that fail (a folder that is gone has nothing inside it).
func RealPaths(paths []string, realPath func(string) (string, error)) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if rp, err := realPath(p); err == nil {
			out = append(out, rp)
		}
	}
	return out
}

// QuotePath quotes a path for an error message, shortened to 200 bytes and
// made valid UTF-8, so an error body stays small whatever a client sent.
func QuotePath(p string) string {
	if len(p) > 200 {
		p = p[:200] + "…"
	}
	return `"` + strings.ToValidUTF8(p, "?") + `"`
}
