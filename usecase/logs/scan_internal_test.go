package logs

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"

	"mediateka/domain"
)

func TestParseTimeMatchesTimeParse(t *testing.T) {
	for _, s := range []string{"2026-01-02T03:04:05Z", "2026-01-02T03:04:05.123Z", "2026-01-02T03:04:05.123456789Z",
		"2026-01-02T03:04:05.5+03:00", "2026-01-02T03:04:05-07:30", "2026-12-31T23:59:59.999999999+14:00"} {
		want, err := time.Parse(time.RFC3339Nano, s)
		assert.NoError(t, err)
		got, ok := parseTime([]byte(s))
		assert.True(t, ok, s)
		assert.True(t, want.Equal(got), "%s: %v != %v", s, got, want)
		assert.Equal(t, time.UTC, got.Location())
	}
	for _, s := range []string{"", "yesterday", "2026-01-02T03:04:05", "2026-01-02T03:04:05Zjunk", "2026-13-02T03:04:05Z"} {
		_, ok := parseTime([]byte(s))
		assert.False(t, ok, s)
	}
}

func TestMembersReadsWhatJSONReads(t *testing.T) {
	line := `{ "time" : "2026-01-02T03:04:05Z", "level":"ERROR","msg":"say \"hi\"\n","err":{"a":[1,"}"]},` +
		`"method":"GET","path":"/x","status":503,"duration_ms":12.5,"request_id":"r1","extra":null,"ok":true}`
	var f fields
	assert.True(t, members([]byte(line), &f))
	var ref map[string]any
	assert.NoError(t, json.Unmarshal([]byte(line), &ref))
	assert.Equal(t, ref["msg"], string(text(f.msg)))
	assert.Equal(t, `{"a":[1,"}"]}`, string(text(f.err)))
	assert.Equal(t, "ERROR", string(text(f.level)))
	assert.Equal(t, 503.0, number(f.status))
	assert.Equal(t, 12.5, number(f.duration))
	assert.Equal(t, "r1", string(text(f.requestID)))
	for _, bad := range []string{`{"a":`, `{"a" 1}`, `{"a":1`, `[1,2]`, `{"a":"unterminated}`, `{"a":1 "b":2}`} {
		var g fields
		assert.False(t, members([]byte(bad), &g), bad)
	}
	var g fields
	assert.True(t, members([]byte(`{}`), &g))
}

// TestAnalysisKeysAreBounded: long messages are cut before they become
// keys, so messages that differ only past maxText count as one template,
// and no cached key or template grows with the line.
func TestAnalysisKeysAreBounded(t *testing.T) {
	a := newAnalysis(domain.NewRedactor(nil))
	head := strings.Repeat("é", maxText) // two bytes each: the cut falls inside one
	const n = 3000
	letters := func(i int) string { // unique, and nothing a template replaces
		var b []byte
		for ; i > 0; i /= 26 {
			b = append(b, byte('a'+i%26))
		}
		return string(b)
	}
	for i := range n {
		a.add(fmt.Appendf(nil, `{"time":"2026-01-02T03:04:05Z","level":"ERROR","msg":"%s tail %s","err":"%s %s","path":"/x"}`,
			head, letters(i), head, letters(i)))
		a.add(fmt.Appendf(nil, `{"level":"INFO","msg":"http","method":"GET","path":"/%s/%s","status":200}`, head, letters(i)))
	}
	for k, v := range a.msgs {
		assert.LessOrEqual(t, len(k), 2*maxText+1)
		assert.LessOrEqual(t, len(v), 2*maxText+2)
		assert.True(t, utf8.ValidString(v), "not cut inside a character")
	}
	for k := range a.routes {
		assert.LessOrEqual(t, len(k), maxText)
	}
	assert.Len(t, a.templates, 2, "one error template, one request template")
	for _, st := range a.templates {
		assert.Equal(t, n, st.Count)
	}
}
