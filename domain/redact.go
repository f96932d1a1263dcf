package domain

import (
	"bytes"
	"encoding/json"
	"strings"
)

// sensitiveKeys are parts of attribute names whose values are always
// masked: a value logged under such a name is a secret whatever it holds.
var sensitiveKeys = []string{"password", "passwd", "secret", "token", "api_key", "apikey", "authorization", "cookie", "init_data"}

// Redacted is what a masked value is replaced with.
const Redacted = "***"

// Redactor is the one rule of what never leaves the server in text: values
// under sensitive attribute names, and the known secret values (JWT secret,
// admin password, OAuth client secret, torrent client password, bot token,
// key-store master…) wherever they appear. The log writer applies it to
// every record, and the log analysis applies it again to everything it
// writes into a report or sends to an AI model, so a line written by
// something other than the logger (a crash trace) cannot leak a secret
// either. It lives in domain so both sides share one rule.
type Redactor struct {
	secrets []string
}

// NewRedactor keeps the secrets of at least 4 characters: shorter values
// would mangle ordinary words.
func NewRedactor(secrets []string) *Redactor {
	var keep []string
	for _, s := range secrets {
		if len(s) >= 4 {
			keep = append(keep, s)
		}
	}
	return &Redactor{secrets: keep}
}

// SensitiveKey reports whether an attribute of that name is always masked.
// Names ending in _file (key_file) name where a secret is, not the secret.
func (r *Redactor) SensitiveKey(key string) bool {
	key = strings.ToLower(key)
	if strings.HasSuffix(key, "_file") {
		return false
	}
	for _, s := range sensitiveKeys {
		if strings.Contains(key, s) {
			return true
		}
	}
	return false
}

// Scrub replaces every known secret value in s with Redacted.
func (r *Redactor) Scrub(s string) string {
	if r == nil {
		return s
	}
	for _, secret := range r.secrets {
		if strings.Contains(s, secret) {
			s = strings.ReplaceAll(s, secret, Redacted)
		}
	}
	return s
}

// Value is v with the rule applied all the way down: in maps, the value
// under a sensitive key becomes Redacted whatever it holds; lists and
// nested maps are cleaned element by element; every string has the known
// secret values scrubbed. A value that is not already a decoded JSON tree
// (map[string]any, []any, string, float64, bool, nil) — a struct, a
// []string, a map[string]string — is first marshalled to JSON and decoded
// back, which is how the log's JSON handler would write it anyway, so
// what is cleaned is exactly what would be written. A value that cannot
// be marshalled is Redacted: the rule cannot look inside it, so it is not
// written at all rather than written unchecked.
func (r *Redactor) Value(v any) any {
	switch x := v.(type) {
	case nil, bool, float64, json.Number:
		return x
	case string:
		return r.Scrub(x)
	case map[string]any:
		return r.Map(x)
	case []any:
		for i, e := range x {
			x[i] = r.Value(e)
		}
		return x
	}
	b, err := json.Marshal(v)
	if err != nil {
		return Redacted
	}
	var tree any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // big integers stay exact
	if err := dec.Decode(&tree); err != nil {
		return Redacted
	}
	return r.Value(tree)
}

// Map cleans a decoded JSON object in place (see Value) and returns it.
func (r *Redactor) Map(m map[string]any) map[string]any {
	for k, v := range m {
		if r.SensitiveKey(k) {
			m[k] = Redacted
			continue
		}
		m[k] = r.Value(v)
	}
	return m
}
