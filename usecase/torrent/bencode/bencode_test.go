package bencode

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeValues(t *testing.T) {
	cases := map[string]any{
		"i42e":                     int64(42),
		"i0e":                      int64(0),
		"i-7e":                     int64(-7),
		"4:spam":                   "spam",
		"0:":                       "",
		"le":                       []any{},
		"l4:spami3ee":              []any{"spam", int64(3)},
		"d3:cow3:moo4:spam4:eggse": map[string]any{"cow": "moo", "spam": "eggs"},
		"d4:listl1:ai1eee":         map[string]any{"list": []any{"a", int64(1)}},
		"5:\x00\x01\x02\xff:":      "\x00\x01\x02\xff:",
	}
	for in, want := range cases {
		got, err := Decode([]byte(in))
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
}

func TestDecodeRefusesWhatIsNotBencode(t *testing.T) {
	for _, in := range []string{
		"", "x", "i42", "ie", "i-0e", "i03e", "i+3e", "i1.5e", "4:spa", "-1:a", "03:abc", "+3:abc",
		"l4:spam", "d3:cowe", "di1e3:mooe", "d1:a1:b1:a1:ce", "i1ei2e", "<html>not a torrent</html>",
		"99999999999999999999:a", strings.Repeat("l", 100) + strings.Repeat("e", 100),
	} {
		_, err := Decode([]byte(in))
		assert.ErrorIs(t, err, ErrSyntax, "%q", in)
	}
}

func TestEncodeIsCanonicalAndRoundTrips(t *testing.T) {
	v := map[string]any{"zeta": int64(-1), "alpha": []any{"x", int64(2), map[string]any{}}, "b": []byte("raw")}
	out, err := Encode(v)
	require.NoError(t, err)
	assert.Equal(t, "d5:alphal1:xi2edee1:b3:raw4:zetai-1ee", string(out))
	back, err := Decode(out)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"zeta": int64(-1), "alpha": []any{"x", int64(2), map[string]any{}}, "b": "raw"}, back)

	_, err = Encode(map[string]any{"f": 1.5})
	assert.Error(t, err, "floats are not bencode")
}

func TestRawFieldIsTheExactBytes(t *testing.T) {
	// Keys out of order and an integer with a sign: the raw bytes, not a
	// re-encoding, are what the info-hash is computed from.
	data := []byte("d8:announce3:url4:infod4:name1:x6:lengthi-0000ee1:zi1ee")
	_, _, err := RawField(data, "info")
	assert.ErrorIs(t, err, ErrSyntax, "a bad integer inside is still refused")

	data = []byte("d8:announce3:url4:infod4:name1:x6:lengthi5ee1:zi1ee")
	raw, found, err := RawField(data, "info")
	require.NoError(t, err)
	assert.True(t, found)
	assert.Equal(t, "d4:name1:x6:lengthi5ee", string(raw))

	_, found, err = RawField(data, "nope")
	require.NoError(t, err)
	assert.False(t, found)
	_, _, err = RawField([]byte("l1:ae"), "info")
	assert.ErrorIs(t, err, ErrSyntax)
}

// FuzzDecode: whatever the bytes, Decode never panics, and what it
// accepts encodes to bytes that decode to the same value.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{"i42e", "4:spam", "l4:spami3ee", "d3:cow3:moo4:spam4:eggse", "d4:infod4:name1:xee", "i-0e", "lll"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Decode(data)
		if err != nil {
			return
		}
		out, err := Encode(v)
		if err != nil {
			t.Fatalf("decoded %q but cannot encode %#v: %v", data, v, err)
		}
		back, err := Decode(out)
		if err != nil {
			t.Fatalf("re-encoded %q does not decode: %v", out, err)
		}
		assert.Equal(t, v, back)
		_, _, _ = RawField(data, "info")
	})
}
