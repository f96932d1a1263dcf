package textmatch

import "strings"

// The two keyboard layouts as one row of keys each: the same position
// in qwerty and jcuken is the same key (lower case, then with Shift).
const (
	qwerty = "qwertyuiop[]asdfghjkl;'zxcvbnm,.`" + `QWERTYUIOP{}ASDFGHJKL:"ZXCVBNM<>~`
	jcuken = "йцукенгшщзхъфывапролджэячсмитьбюё" + "ЙЦУКЕНГШЩЗХЪФЫВАПРОЛДЖЭЯЧСМИТЬБЮЁ"
)

// jcukenKeys is jcuken by key position.
var jcukenKeys = []rune(jcuken)

// swapKey is the rune the key that wrote r writes on the other layout,
// or r itself when r is not on either layout's letter keys.
func swapKey(r rune) rune {
	if r < 0x80 {
		if i := strings.IndexByte(qwerty, byte(r)); i >= 0 {
			return jcukenKeys[i]
		}
		return r
	}
	for i, k := range jcukenKeys {
		if k == r {
			return rune(qwerty[i])
		}
	}
	return r
}

// SwapLayout retypes s on the other keyboard layout, for text typed with
// the wrong one selected: what the Latin (QWERTY) keys wrote becomes
// what the same keys write on the Russian (ЙЦУКЕН) layout and the other
// way round, so "vfnhbwf" is "матрица" and "ьфекшч" is "matrix". Keys
// that write punctuation on one layout write letters on the other
// ("[jkjl" is "холод", "дуеэы" is "let's"), so s must be the text as
// typed, before Normalize removes punctuation. Digits, spaces and
// anything else stay.
func SwapLayout(s string) string {
	var b strings.Builder
	b.Grow(len(s) * 2)
	for _, r := range s {
		b.WriteRune(swapKey(r))
	}
	return b.String()
}
