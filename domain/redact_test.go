package domain_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"mediateka/domain"
)

func TestRedactor(t *testing.T) {
	r := domain.NewRedactor([]string{"hunter2-long", "abc", ""})
	assert.Equal(t, "pw *** and *** again; abc stays", r.Scrub("pw hunter2-long and hunter2-long again; abc stays"),
		"values under 4 characters would mangle ordinary words")
	for key, want := range map[string]bool{"password": true, "X-API_KEY": true, "access_token": true, "Cookie": true,
		"init_data": true, "key_file": false, "password_file": false, "user": false, "path": false} {
		assert.Equal(t, want, r.SensitiveKey(key), key)
	}
	var none *domain.Redactor
	assert.Equal(t, "as is", none.Scrub("as is"))
}

func TestRedactorValue(t *testing.T) {
	r := domain.NewRedactor([]string{"hunter2-long"})
	got := r.Value(map[string]any{"args": []string{"-p", "hunter2-long"}, "Cookie": []int{1}, "n": 3, "ok": true,
		"deep": []any{map[string]any{"token": "t"}, []any{"x hunter2-long"}}})
	assert.Equal(t, map[string]any{"args": []any{"-p", "***"}, "Cookie": "***", "n": json.Number("3"), "ok": true,
		"deep": []any{map[string]any{"token": "***"}, []any{"x ***"}}}, got)
	assert.Equal(t, domain.Redacted, r.Value(make(chan int)), "what cannot be looked into is not written")
}
