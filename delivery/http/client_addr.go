package http

import (
	"net/netip"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// clientAddr finds the address of the client behind a request. It is the one
// place that reads X-Forwarded-For: login throttling, the activity log and
// the access log all use it. Fiber's c.IP() is not used because it trusts
// proxy headers only when configured globally.
type clientAddr struct {
	trusted []netip.Prefix
}

// of returns the TCP peer, unless the peer is a trusted proxy: then the
// right-most X-Forwarded-For hop that is not itself a trusted proxy (hops
// left of it were written by the client and prove nothing). A header that
// cannot be read gives the peer.
func (a clientAddr) of(c *fiber.Ctx) string {
	peer, ok := netip.AddrFromSlice(c.Context().RemoteIP())
	if !ok {
		return c.Context().RemoteIP().String()
	}
	peer = peer.Unmap()
	if !a.isTrusted(peer) {
		return peer.String()
	}
	var hops []string
	for _, v := range c.Request().Header.PeekAll(fiber.HeaderXForwardedFor) {
		hops = append(hops, strings.Split(string(v), ",")...)
	}
	client := peer
	for i := len(hops) - 1; i >= 0; i-- {
		hop, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return client.String()
		}
		client = hop.Unmap()
		if !a.isTrusted(client) {
			break
		}
	}
	return client.String()
}

func (a clientAddr) isTrusted(ip netip.Addr) bool {
	for _, p := range a.trusted {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}
