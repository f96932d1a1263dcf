package logs

import (
	"strings"
	"unicode/utf8"

	"mediateka/domain"
)

// allowedExt are the extensions of files the logs API reads, each also
// allowed gzipped (lumberjack's compressed backups end in .log.gz).
var allowedExt = []string{".log", ".json", ".md", ".txt"}

// CheckName accepts a bare file name with an allowed extension: no path
// separator of any system, no "..", no control character (NUL included),
// at most 255 bytes. Query strings arrive decoded, so %2e%2e is ".." here.
func CheckName(name string) error {
	if name == "" || len(name) > 255 || !utf8.ValidString(name) || strings.Contains(name, "..") ||
		strings.ContainsAny(name, `/\:`) || strings.HasPrefix(name, ".") {
		return domain.ErrInvalidFilename
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			return domain.ErrInvalidFilename
		}
	}
	if !allowed(name) {
		return domain.ErrInvalidFilename
	}
	return nil
}

func allowed(name string) bool {
	base := strings.TrimSuffix(strings.ToLower(name), ".gz")
	for _, ext := range allowedExt {
		if strings.HasSuffix(base, ext) && len(base) > len(ext) {
			return true
		}
	}
	return false
}
