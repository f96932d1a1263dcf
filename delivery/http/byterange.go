package http

import (
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"mediateka/domain"
)

// maxRangeHeader bounds the Range header: a player asks for one span, and
// a long list of spans is only work for the server.
const maxRangeHeader = 1024

// errRange is the 416 answer to a Range header that is malformed or lies
// outside the file.
func errRange() error {
	return fiber.NewError(fiber.StatusRequestedRangeNotSatisfiable, "The requested range is malformed or outside the file")
}

// byteRange is an inclusive span of a file.
type byteRange struct{ start, end int64 }

func (r byteRange) length() int64 { return r.end - r.start + 1 }

// parseRange reads a Range header for a file of size bytes. It returns
// partial=false for no header, or for several ranges (which HTTP allows a
// server to answer with the whole file); an error means 416: a header that
// is not "bytes=" ranges, or a single range that starts past the end. A
// header over maxRangeHeader bytes is 400.
func parseRange(header string, size int64) (byteRange, bool, error) {
	if header == "" {
		return byteRange{}, false, nil
	}
	if len(header) > maxRangeHeader {
		return byteRange{}, false, domain.ErrInvalid("the Range header is too long", map[string]string{"range": "must be at most 1024 bytes"})
	}
	spec, ok := strings.CutPrefix(strings.TrimSpace(header), "bytes=")
	if !ok {
		return byteRange{}, false, errRange()
	}
	parts := strings.Split(spec, ",")
	ranges := make([]byteRange, 0, len(parts))
	for _, p := range parts {
		r, err := parseOneRange(strings.TrimSpace(p), size)
		if err != nil {
			return byteRange{}, false, err
		}
		ranges = append(ranges, r)
	}
	if len(ranges) != 1 {
		return byteRange{}, false, nil
	}
	return ranges[0], true, nil
}

func parseOneRange(p string, size int64) (byteRange, error) {
	first, last, ok := strings.Cut(p, "-")
	if !ok {
		return byteRange{}, errRange()
	}
	if first == "" { // "-500": the last 500 bytes
		n, err := parseOffset(last)
		if err != nil || n == 0 || size == 0 {
			return byteRange{}, errRange()
		}
		return byteRange{start: max(0, size-n), end: size - 1}, nil
	}
	start, err := parseOffset(first)
	if err != nil || start >= size {
		return byteRange{}, errRange()
	}
	end := size - 1
	if last != "" {
		e, err := parseOffset(last)
		if err != nil || e < start {
			return byteRange{}, errRange()
		}
		end = min(e, size-1)
	}
	return byteRange{start: start, end: end}, nil
}

// parseOffset accepts digits only (no sign, no spaces) that fit an int64.
func parseOffset(s string) (int64, error) {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, errRange()
	}
	return strconv.ParseInt(s, 10, 64)
}
