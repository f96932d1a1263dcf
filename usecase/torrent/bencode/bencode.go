// Package bencode reads and writes BitTorrent's bencoding: integers
// (i42e), byte strings (4:spam), lists (l…e) and dictionaries (d…e). It is
// the little a server needs to check that a downloaded file is a torrent
// and to compute its info-hash (RawField gives the info dictionary's exact
// bytes), and for tests to make torrents. Decoded values are int64,
// string, []any and map[string]any.
package bencode

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
)

// maxDepth bounds nesting, so a hostile file of a million "l" cannot
// exhaust the stack.
const maxDepth = 64

// ErrSyntax is wrapped by every decoding error.
var ErrSyntax = errors.New("not valid bencode")

// Decode parses data, which must hold exactly one value.
func Decode(data []byte) (any, error) {
	d := decoder{data: data}
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	if d.pos != len(data) {
		return nil, d.errorf("trailing data")
	}
	return v, nil
}

// RawField returns the exact bytes of the value under key in the
// dictionary that data holds (the info dictionary of a .torrent, whose
// SHA-1 is the info-hash). found is false when the key is absent.
func RawField(data []byte, key string) (raw []byte, found bool, err error) {
	d := decoder{data: data}
	if d.peek() != 'd' {
		return nil, false, d.errorf("not a dictionary")
	}
	d.pos++
	for d.peek() != 'e' {
		k, err := d.str()
		if err != nil {
			return nil, false, err
		}
		start := d.pos
		if _, err := d.value(1); err != nil {
			return nil, false, err
		}
		if k == key && !found {
			raw, found = data[start:d.pos], true
		}
	}
	d.pos++
	if d.pos != len(data) {
		return nil, false, d.errorf("trailing data")
	}
	return raw, found, nil
}

type decoder struct {
	data []byte
	pos  int
}

func (d *decoder) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s at byte %d", ErrSyntax, fmt.Sprintf(format, args...), d.pos)
}

// peek is the next byte, or 0 at the end.
func (d *decoder) peek() byte {
	if d.pos >= len(d.data) {
		return 0
	}
	return d.data[d.pos]
}

func (d *decoder) value(depth int) (any, error) {
	if depth > maxDepth {
		return nil, d.errorf("nested deeper than %d", maxDepth)
	}
	switch c := d.peek(); {
	case c == 'i':
		return d.integer()
	case c >= '0' && c <= '9':
		return d.str()
	case c == 'l':
		return d.list(depth)
	case c == 'd':
		return d.dict(depth)
	case c == 0:
		return nil, d.errorf("unexpected end")
	default:
		return nil, d.errorf("unexpected %q", c)
	}
}

// integer reads i<digits>e; leading zeros and -0 are not bencode.
func (d *decoder) integer() (int64, error) {
	end := bytes.IndexByte(d.data[d.pos:], 'e')
	if end < 0 {
		return 0, d.errorf("unterminated integer")
	}
	text := string(d.data[d.pos+1 : d.pos+end])
	digits := text
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil || digits == "" || digits[0] == '+' || (digits[0] == '0' && len(text) > 1) {
		return 0, d.errorf("bad integer %q", text)
	}
	d.pos += end + 1
	return n, nil
}

// str reads <length>:<bytes>.
func (d *decoder) str() (string, error) {
	colon := bytes.IndexByte(d.data[d.pos:], ':')
	if colon < 1 {
		return "", d.errorf("bad string length")
	}
	text := string(d.data[d.pos : d.pos+colon])
	n, err := strconv.Atoi(text)
	if err != nil || n < 0 || text[0] == '+' || text[0] == '-' || (text[0] == '0' && len(text) > 1) {
		return "", d.errorf("bad string length %q", text)
	}
	start := d.pos + colon + 1
	if n > len(d.data)-start {
		return "", d.errorf("string of %d bytes runs past the end", n)
	}
	d.pos = start + n
	return string(d.data[start:d.pos]), nil
}

func (d *decoder) list(depth int) ([]any, error) {
	d.pos++
	out := []any{}
	for d.peek() != 'e' {
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	d.pos++
	return out, nil
}

func (d *decoder) dict(depth int) (map[string]any, error) {
	d.pos++
	out := map[string]any{}
	for d.peek() != 'e' {
		if c := d.peek(); c < '0' || c > '9' {
			return nil, d.errorf("a dictionary key must be a string")
		}
		k, err := d.str()
		if err != nil {
			return nil, err
		}
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if _, dup := out[k]; dup {
			return nil, d.errorf("key %q twice", k)
		}
		out[k] = v
	}
	d.pos++
	return out, nil
}

// Encode writes v in canonical bencode (dictionary keys sorted). v may be
// an int, int64, string, []byte, []any, []string or map[string]any, nested.
func Encode(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := encode(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func encode(b *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case int:
		fmt.Fprintf(b, "i%de", x)
	case int64:
		fmt.Fprintf(b, "i%de", x)
	case string:
		fmt.Fprintf(b, "%d:%s", len(x), x)
	case []byte:
		fmt.Fprintf(b, "%d:%s", len(x), x)
	case []string:
		b.WriteByte('l')
		for _, s := range x {
			fmt.Fprintf(b, "%d:%s", len(s), s)
		}
		b.WriteByte('e')
	case []any:
		b.WriteByte('l')
		for _, e := range x {
			if err := encode(b, e); err != nil {
				return err
			}
		}
		b.WriteByte('e')
	case map[string]any:
		return encodeDict(b, x)
	default:
		return fmt.Errorf("bencode cannot encode %T", v)
	}
	return nil
}

func encodeDict(b *bytes.Buffer, m map[string]any) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b.WriteByte('d')
	for _, k := range keys {
		fmt.Fprintf(b, "%d:%s", len(k), k)
		if err := encode(b, m[k]); err != nil {
			return err
		}
	}
	b.WriteByte('e')
	return nil
}
