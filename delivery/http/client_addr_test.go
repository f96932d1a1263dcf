package http

import (
	"io"
	"net/http/httptest"
	"net/netip"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Fiber's in-memory transport reports the peer as 0.0.0.0.
func TestClientAddressBehindTrustedProxies(t *testing.T) {
	peer := netip.MustParsePrefix("0.0.0.0/32")
	lan := netip.MustParsePrefix("10.0.0.0/8")
	cases := []struct {
		name    string
		trusted []netip.Prefix
		xff     []string
		want    string
	}{
		{"no proxy trusted: the header is ignored", nil, []string{"1.1.1.1"}, "0.0.0.0"},
		{"trusted peer, one hop", []netip.Prefix{peer}, []string{"1.1.1.1"}, "1.1.1.1"},
		{"the right-most hop, not what the client wrote", []netip.Prefix{peer}, []string{"6.6.6.6, 1.1.1.1"}, "1.1.1.1"},
		{"trusted hops are skipped", []netip.Prefix{peer, lan}, []string{"6.6.6.6, 1.1.1.1, 10.0.0.5"}, "1.1.1.1"},
		{"an untrusted proxy hop is the client", []netip.Prefix{peer}, []string{"1.1.1.1, 10.0.0.5"}, "10.0.0.5"},
		{"several headers are one list", []netip.Prefix{peer}, []string{"1.1.1.1", "2.2.2.2"}, "2.2.2.2"},
		{"every hop trusted: the left-most", []netip.Prefix{peer, lan}, []string{"10.0.0.9, 10.0.0.5"}, "10.0.0.9"},
		{"an unreadable hop stops the walk", []netip.Prefix{peer}, []string{"1.1.1.1, nonsense"}, "0.0.0.0"},
		{"IPv6", []netip.Prefix{peer}, []string{"2001:db8::1"}, "2001:db8::1"},
		{"no header", []netip.Prefix{peer}, nil, "0.0.0.0"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Deps{}, Options{TrustedProxies: tc.trusted})
			s.Router().Get("/whoami", func(c *fiber.Ctx) error { return c.SendString(s.client.of(c)) })
			req := httptest.NewRequest("GET", "/whoami", nil)
			for _, v := range tc.xff {
				req.Header.Add("X-Forwarded-For", v)
			}
			resp, err := s.App().Test(req)
			require.NoError(t, err)
			body, _ := io.ReadAll(resp.Body)
			assert.Equal(t, tc.want, string(body))
		})
	}
}

func TestBearerToken(t *testing.T) {
	for header, want := range map[string][2]any{"": {"", true}, "Bearer abc": {"abc", true}, "bearer  abc ": {"abc", true},
		"Basic abc": {"", false}, "Bearer": {"", false}} {
		tok, ok := bearerToken(header)
		assert.Equal(t, want[0], tok, header)
		assert.Equal(t, want[1], ok, header)
	}
}
