package http

import (
	"crypto/sha256"
	"encoding/base64"
	"os"
	"regexp"
	"strings"

	"github.com/gofiber/fiber/v2"

	"mediateka/delivery/web"
)

// pagePolicy is the Content-Security-Policy setting of one page (API.md
// §12). Every page gets default-src 'self'; a page's own inline <script>
// and <style> blocks are allowed by their hashes, computed from the page
// as served, so editing a page never needs a matching edit here.
type pagePolicy struct {
	// FrameAncestors lists who may embed the page in a frame, besides the
	// server itself: /tgmini lists Telegram's web clients.
	FrameAncestors []string
	// Images lists where the page's images may come from, besides the
	// server itself: blob: for thumbnails, which are fetched with the
	// Authorization header and shown as blob: URLs so no token ever sits
	// in an <img> address; https: for profile pictures of the sign-in
	// provider. A page lists only what it shows.
	Images []string
	// Media lists where the page's audio and video may come from, besides
	// the server itself: blob: for speech, which is fetched with the
	// Authorization header and played from a MediaSource or a Blob (so no
	// token sits in a media address either). Empty: no media-src of its
	// own, default-src 'self' applies.
	Media []string
}

// telegramPolicy is /tgmini's: the thumbnails' blob: images, and
// Telegram's web clients (web.telegram.org and its subdomains) may frame
// it; the mobile and desktop apps show it in a webview of their own, which
// frame-ancestors does not concern.
var telegramPolicy = pagePolicy{Images: []string{"blob:"},
	FrameAncestors: []string{"https://web.telegram.org", "https://*.web.telegram.org"}}

// inlineBlock finds inline <script> and <style> elements (not those with a
// src attribute) and captures their text.
var inlineBlock = regexp.MustCompile(`(?is)<(script|style)(\s[^>]*)?>(.*?)</(?:script|style)\s*>`)

// contentSecurityPolicy builds the header for html under p.
func (p pagePolicy) contentSecurityPolicy(html []byte) string {
	hashes := map[string][]string{}
	for _, m := range inlineBlock.FindAllSubmatch(html, -1) {
		tag := strings.ToLower(string(m[1]))
		if tag == "script" && strings.Contains(strings.ToLower(string(m[2])), "src=") {
			continue
		}
		sum := sha256.Sum256(m[3])
		hashes[tag] = append(hashes[tag], "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
	}
	src := func(tag string) string { return strings.Join(append([]string{"'self'"}, hashes[tag]...), " ") }
	directives := []string{
		"default-src 'self'",
		"script-src " + src("script"),
		"style-src " + src("style"),
		"img-src " + strings.Join(append([]string{"'self'"}, p.Images...), " "),
	}
	if len(p.Media) > 0 {
		directives = append(directives, "media-src "+strings.Join(append([]string{"'self'"}, p.Media...), " "))
	}
	return strings.Join(append(directives,
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'self'",
		"frame-ancestors "+strings.Join(append([]string{"'self'"}, p.FrameAncestors...), " "),
	), "; ")
}

// sendPage answers with an HTML page and its policy.
func sendPage(c *fiber.Ctx, p pagePolicy, html []byte) error {
	c.Set("Content-Security-Policy", p.contentSecurityPolicy(html))
	c.Type("html", "utf-8")
	return c.Send(html)
}

// mountPages serves "/": the configured index_path, or the built-in home page
// (which completes a Google sign-in by trading the #code= of the redirect
// through POST /api/auth/exchange); the player and the remote; and the
// assets they share under /assets/.
func (s *Server) mountPages() {
	s.app.Get("/", func(c *fiber.Ctx) error {
		name, read := "home.html", web.Files.ReadFile
		if s.opt.IndexPath != "" {
			name, read = s.opt.IndexPath, os.ReadFile
		}
		page, err := read(name)
		if err != nil {
			return err
		}
		// Nobody else may frame the home page; it shows Google profile
		// pictures, and a configured index page may show anything.
		return sendPage(c, pagePolicy{Images: []string{"https:", "data:", "blob:"}}, page)
	})
	// The built-in pages besides "/": each loads its modules from /assets/
	// and shows no image but the thumbnails it fetched itself; besides
	// their films (from the server) they play speech as blob: URLs (the
	// admin panel its speech samples).
	for route, file := range map[string]string{"/player": "player.html", "/remote": "remote.html", "/admin": "admin.html"} {
		page, err := web.Files.ReadFile(file)
		if err != nil {
			panic("http: embedded page " + file + ": " + err.Error())
		}
		s.app.Get(route, func(c *fiber.Ctx) error {
			return sendPage(c, pagePolicy{Images: []string{"blob:"}, Media: []string{"blob:"}}, page)
		})
	}
	// The Telegram Mini App: Telegram's web client shows it in a frame.
	miniApp, err := web.Files.ReadFile("tgmini.html")
	if err != nil {
		panic("http: embedded page tgmini.html: " + err.Error())
	}
	s.app.Get("/tgmini", func(c *fiber.Ctx) error { return sendPage(c, telegramPolicy, miniApp) })
	s.app.Get("/assets/*", serveAssets(mustLoadAssets(web.Files, "assets")))
}
