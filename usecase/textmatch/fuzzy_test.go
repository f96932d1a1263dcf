package textmatch

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestRomanize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Белый ветер", "Belyy veter"},
		{"Щука", "Shchuka"},
		{"Жизнь", "Zhizn"},
		{"Хрусталёв, машину!", "Khrustalyov, mashinu!"},
		{"Цой жив", "Tsoy zhiv"},
		{"Юность Яны", "Yunost Yany"},
		{"The Matrix 1999", "The Matrix 1999"},
		{"", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Romanize(tt.in), "Romanize(%q)", tt.in)
	}
}

// TestTranslitKeyJoinsSpellings: every spelling in a row, Cyrillic or a
// romanisation people use, has the key of the first.
func TestTranslitKeyJoinsSpellings(t *testing.T) {
	tests := [][]string{
		{"белый ветер", "belyy veter", "belyj veter", "belyi veter", "bely veter", "belij veter"},
		{"брат", "brat"},
		{"хрусталев", "khrustalyov", "hrustalev", "khrustalev", "khrustaljov"},
		{"цой", "tsoy", "tsoi", "coj", "tzoi"},
		{"чапаев", "chapaev", "chapayev", "tchapaev"},
		{"щука", "shchuka", "schuka"},
		{"жизнь", "zhizn"},
		{"юрий", "yuriy", "juri", "iurii", "yurij"},
		{"мария", "mariya", "marija", "maria"},
		{"елки", "yolki", "jolki", "elki"},
		{"ель", "yel", "jel", "el"},
		{"съезд", "sezd", "syezd", "sjezd"},
		{"интерстеллар", "interstellar", "interstelar"},
		{"солнце", "solntse", "solnce"},
		{"дьявол", "dyavol", "djavol", "diavol"},
		{"макс", "max", "maks"},
		{"бегущий по лезвию 2049", "begushchiy po lezviyu 2049", "beguschij po lezviju 2049"},
	}
	for _, row := range tests {
		want := TranslitKey(row[0])
		for _, s := range row[1:] {
			assert.Equal(t, want, TranslitKey(s), "TranslitKey(%q) should equal TranslitKey(%q)", s, row[0])
		}
	}
}

func TestTranslitKeyKeepsWordsApart(t *testing.T) {
	tests := []struct{ a, b string }{
		{"брат", "борат"},
		{"матрица", "матрешка"},
		{"дом", "том"},
		{"шум", "сум"}, // ш is not с
		{"чай", "цай"}, // ч is not ц
		{"2049", "2048"},
	}
	for _, tt := range tests {
		assert.NotEqual(t, TranslitKey(tt.a), TranslitKey(tt.b), "%q and %q", tt.a, tt.b)
	}
	assert.Equal(t, "beli veter 2049", TranslitKey("белый ветер 2049"), "words and digits keep their places")
	assert.Equal(t, "", TranslitKey(""))
}

func TestSwapLayout(t *testing.T) {
	tests := []struct{ in, want string }{
		{"vfnhbwf", "матрица"},
		{"Vfnhbwf", "Матрица"},
		{"ьфекшч", "matrix"},
		{"Ьфекшч", "Matrix"},
		{"[jkjlysq", "холодный"},
		{"{jkjl", "Холод"},
		{"ltym hj;ltybz", "день рождения"},
		{"дуеэы", "let's"},
		{"ерф ьфекшч 1999", "tha matrix 1999"},
		{"ghbdtn, vbh", "приветб мир"},
		{"2049", "2049"},
		{"日本", "日本"},
		{"", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, SwapLayout(tt.in), "SwapLayout(%q)", tt.in)
	}
	assert.Equal(t, utf8.RuneCountInString(qwerty), utf8.RuneCountInString(jcuken), "one key, one letter on each layout")
	for _, r := range qwerty {
		assert.Equal(t, string(r), SwapLayout(SwapLayout(string(r))), "swapping twice gives the key back")
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b  string
		limit int
		want  int
	}{
		{"интерстелар", "интерстеллар", 2, 1},
		{"матирца", "матрица", 1, 1}, // two neighbours swapped
		{"матрица", "матрица", 1, 0},
		{"matrix", "matrex", 1, 1},
		{"kitten", "sitting", 3, 3},
		{"kitten", "sitting", 2, 3}, // stops past the limit
		{"брат", "борат", 1, 1},
		{"abc", "cab", 2, 2},
		{"", "abc", 3, 3},
		{"abc", "", 1, 2},
		{"short", "a much longer word", 2, 3},
		{strings.Repeat("я", 33), strings.Repeat("я", 33), 2, 3}, // too long to compare
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Distance(tt.a, tt.b, tt.limit), "Distance(%q, %q, %d)", tt.a, tt.b, tt.limit)
		assert.Equal(t, tt.want, Distance(tt.b, tt.a, tt.limit), "Distance is symmetric: (%q, %q)", tt.b, tt.a)
	}
}

func TestMaxTypos(t *testing.T) {
	for n, want := range map[int]int{0: 0, 3: 0, 4: 1, 7: 1, 8: 2, 20: 2} {
		assert.Equal(t, want, MaxTypos(n), "MaxTypos(%d)", n)
	}
}

func BenchmarkTranslitKey(b *testing.B) {
	for b.Loop() {
		TranslitKey("бегущий по лезвию 2049")
	}
}

func BenchmarkDistance(b *testing.B) {
	for b.Loop() {
		Distance("интерстелар", "интерстеллар", 2)
	}
}

func BenchmarkByteDistance(b *testing.B) {
	for b.Loop() {
		ByteDistance("interstelar", "interstellar", 2)
	}
}

// TestDistanceAgreesWithTheFullTable compares the banded, bounded
// distance with the whole dynamic programme on many small words.
func TestDistanceAgreesWithTheFullTable(t *testing.T) {
	words := []string{"", "а", "ab", "ba", "abc", "acb", "bca", "брат", "борат", "барт", "рбат", "матрица", "матирца",
		"атрица", "матрицы", "матрицаа", "kitten", "sitting", "mitten", "kittne", "aaaa", "aaab", "baaa"}
	for _, a := range words {
		for _, b := range words {
			full := fullDistance([]rune(a), []rune(b))
			for limit := 0; limit <= 3; limit++ {
				assert.Equal(t, min(full, limit+1), Distance(a, b, limit), "Distance(%q, %q, %d)", a, b, limit)
				if isPlainASCII(a) && isPlainASCII(b) {
					assert.Equal(t, min(full, limit+1), ByteDistance(a, b, limit), "ByteDistance(%q, %q, %d)", a, b, limit)
				}
			}
		}
	}
}

// fullDistance is the textbook optimal string alignment distance.
func fullDistance(a, b []rune) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
