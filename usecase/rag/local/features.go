package local

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"mediateka/usecase/library/release"
	"mediateka/usecase/textmatch"
)

// feature is one hashed feature of a text and its weight.
type feature struct {
	hash   uint64
	weight float32
}

// The kinds of features, each hashed with its own prefix so that a word
// and a 3-gram that spell the same never share a hash.
const (
	kindNumber = 'n' // a number that is not a year
	// kindKey is the transliteration key of the word and of its stem
	// (Russian case ending, English plural cut), one namespace, so that
	// "Рязанова" (stem "рязанов") meets "Ryazanov": both scripts meet.
	kindKey     = 't'
	kindGram    = 'g' // a character 3-gram of the word's key
	kindConcept = 'c' // a bilingual concept (genre, theme, mood)
	kindYear    = 'y' // a year 1900…2099
	kindDecade  = 'd' // its decade

)

// weights stand in for idf: a whole word says more than its stem, which
// says more than one of its 3-grams; a concept, the bridge between the
// languages, and a year say more than a word. The word itself has no
// feature of its own: its transliteration key is it, in both scripts, and
// a second copy only added hash collisions (recall@5 0.80 → 0.82).
type weights struct {
	key, stem, gram, concept, year, decade float32
	// generic scales every feature of a generic word ("фильм").
	generic float32
	// conceptWord scales the other features of a word that names a
	// concept: the concept carries it across the languages.
	conceptWord float32
	// body is the weight of a document's body against its heading.
	body float32
	// number is the word weight of a number that is not a year ("2" of a
	// sequel).
	number float32
}

// defaultWeights are the weights of New, tuned on the retrieval test.
func defaultWeights() weights {
	return weights{key: 1.2, stem: 0.6, gram: 0.25, concept: 3, year: 2, decade: 0.2, generic: 0.2, conceptWord: 0.3, number: 0.5, body: 1.5}
}

// features appends the features of text to out. A text of several lines
// is a record's document: its first line is the heading (titles, year).
// The rest is scaled so that its weight is e.w.body times the heading's
// (sums of squares), whatever the length of the plot: a title and a year
// keep their share of a long document as of a short one, and cosine does
// not favour short records. A text of one line (a query) is weighed
// evenly.
func (e *Embedder) features(text string, out []feature) []feature {
	head, body, found := strings.Cut(text, "\n")
	if !found {
		return e.lineFeatures(text, 1, out)
	}
	out = e.lineFeatures(head, 1, out)
	headEnd := len(out)
	out = e.lineFeatures(body, 1, out)
	h, b := sumSquares(out[:headEnd]), sumSquares(out[headEnd:])
	if h == 0 || b == 0 {
		return out
	}
	scale := float32(float64(e.w.body) * math.Sqrt(h/b))
	for i := headEnd; i < len(out); i++ {
		out[i].weight = float32(out[i].weight * scale)
	}
	return out
}

// sumSquares is the sum of the squared weights of fs, in float64 (exact
// for float32 squares, so it does not depend on fused multiply-add).
func sumSquares(fs []feature) float64 {
	var s float64
	for _, f := range fs {
		s += float64(f.weight) * float64(f.weight)
	}
	return s
}

// lineFeatures appends the features of text, each weighed times scale:
// text is normalised (NFKD folded, lower case, ё → е, punctuation to
// spaces), release tags are dropped, and each remaining word adds its
// features. Stop words are dropped too, unless the text has nothing else
// ("It", "Her").
func (e *Embedder) lineFeatures(text string, scale float32, out []feature) []feature {
	words := strings.Fields(textmatch.Normalize(text))
	words = slices.DeleteFunc(words, release.IsTag)
	content := slices.DeleteFunc(slices.Clone(words), func(w string) bool { return e.stop[w] })
	if len(content) > 0 {
		words = content
	}
	from := len(out)
	for _, w := range words {
		out = e.wordFeatures(w, out)
	}
	for i := from; i < len(out); i++ {
		out[i].weight = float32(out[i].weight * scale)
	}
	return out
}

// wordFeatures appends the features of one normalised word.
func (e *Embedder) wordFeatures(w string, out []feature) []feature {
	if isDigits(w) {
		if isYear(w) {
			return append(out, feature{hashOf(kindYear, w), e.w.year}, feature{hashOf(kindDecade, w[:3]), e.w.decade})
		}
		return append(out, feature{hashOf(kindNumber, w), e.w.number})
	}
	st := stem(w)
	concept, isConcept := e.concepts[st]
	scale := float32(1)
	switch {
	case e.generic[w]:
		scale = e.w.generic
	case isConcept:
		scale = e.w.conceptWord
	}
	key := textmatch.TranslitKey(w)
	out = append(out, feature{hashOf(kindKey, key), e.w.key * scale})
	if st != w {
		out = append(out, feature{hashOf(kindKey, textmatch.TranslitKey(st)), e.w.stem * scale})
	}
	if isConcept {
		out = append(out, feature{hashOf(kindConcept, concept), e.w.concept * min(scale*2, 1)})
	}
	return appendGrams(out, key, e.w.gram*scale)
}

// appendGrams appends the 3-grams of key framed by spaces ("avatar" →
// " av", "ava", …, "ar "); a key of one letter gives none.
func appendGrams(out []feature, key string, weight float32) []feature {
	if utf8.RuneCountInString(key) < 2 {
		return out
	}
	framed := " " + key + " "
	for i := 0; i < len(framed); {
		_, s1 := utf8.DecodeRuneInString(framed[i:])
		j := i + s1
		_, s2 := utf8.DecodeRuneInString(framed[j:])
		k := j + s2
		if k >= len(framed) {
			break
		}
		_, s3 := utf8.DecodeRuneInString(framed[k:])
		out = append(out, feature{hashOf(kindGram, framed[i:k+s3]), weight})
		i = j
	}
	return out
}

// stem cuts a Russian case or number ending (textmatch.FormStem) or an
// English plural or verb ending, so forms of one word share a feature.
func stem(w string) string {
	if textmatch.IsCyrillic(w) {
		return textmatch.FormStem(w)
	}
	return englishStem(w)
}

// englishStem cuts the common English endings from words of five letters
// or more: "comedies" → "comedy", "thrillers" → "thriller", "boxes" →
// "box", "hunting" → "hunt", "haunted" → "haunt". Crude on purpose: both
// the record and the query go through it, so it needs to be consistent,
// not right.
func englishStem(w string) string {
	if len(w) < 5 {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "sses"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	case strings.HasSuffix(w, "ing") && len(w) >= 6:
		return w[:len(w)-3]
	case strings.HasSuffix(w, "ed") && len(w) >= 6:
		return w[:len(w)-2]
	}
	return w
}

// isYear reports whether the digits w are a year from 1900 to 2099.
func isYear(w string) bool {
	return len(w) == 4 && (w[:2] == "19" || w[:2] == "20")
}

func isDigits(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return w != ""
}

// tfScale is 1 + ln(n) for a feature met n times in one text, n = 1…16,
// written out so that no machine's logarithm changes a vector; a feature
// met more often counts as 16 times.
func tfScale() [17]float32 {
	return [17]float32{0, 1, 1.6931472, 2.0986123, 2.3862944, 2.6094379, 2.7917595, 2.9459101, 3.0794415,
		3.1972246, 3.3025851, 3.3978953, 3.4849067, 3.5649494, 3.6390574, 3.7080503, 3.7725887}
}

// mergeFeatures sorts fs by hash and folds repeats into one feature whose
// weight is the feature's weight times tfScale of its count (sublinear tf).
// Sorting fixes the order in which the vector's sums are taken, so the
// result is the same bit for bit whatever order the features came in.
func mergeFeatures(fs []feature) []feature {
	slices.SortFunc(fs, func(a, b feature) int {
		return cmp.Or(cmp.Compare(a.hash, b.hash), cmp.Compare(a.weight, b.weight))
	})
	out, scale := fs[:0], tfScale()
	for i := 0; i < len(fs); {
		j, w := i+1, fs[i].weight
		for j < len(fs) && fs[j].hash == fs[i].hash {
			w = max(w, fs[j].weight)
			j++
		}
		out = append(out, feature{fs[i].hash, float32(w * scale[min(j-i, 16)])})
		i = j
	}
	return out
}

// hashOf is FNV-1a 64 of the kind byte followed by s: a fixed, documented
// hash (unlike Go's map hash, which is seeded per process), so vectors are
// the same everywhere. The low bits pick the dimension, the top bit the
// sign.
func hashOf(kind byte, s string) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	h = (h ^ uint64(kind)) * prime
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * prime
	}
	return h
}
