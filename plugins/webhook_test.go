package plugins

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
)

// hookPlugin is a test plugin with the Webhooker capability.
type hookPlugin struct{ testPlugin }

func (p *hookPlugin) Webhook() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) })
}

func TestWebhookIsFoundByCapability(t *testing.T) {
	rec := &recorder{}
	hook := Entry{Name: "telegram", Factory: func(Deps) domain.Plugin { return &hookPlugin{testPlugin{name: "telegram", rec: rec}} }}
	m := NewManager([]Entry{entry(rec, "rag", "x"), hook}, Deps{}, Options{})
	h := m.Webhook("telegram")
	require.NotNil(t, h)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/", nil))
	assert.Equal(t, http.StatusTeapot, w.Code)
	assert.Nil(t, m.Webhook("rag"), "a plugin without the capability has none")
	assert.Nil(t, m.Webhook("nope"))
}

func TestBuiltinsHoldTheTelegramBot(t *testing.T) {
	var names []string
	for _, e := range Builtins() {
		names = append(names, e.Name)
	}
	assert.Equal(t, Order(), names, "every slot of the spec is built in")
}
