package http

import (
	"github.com/gofiber/fiber/v2"

	"mediateka/delivery/web"
)

// mountPages serves "/": the configured index_path, or the built-in home page
// (which completes a Google sign-in by trading the #code= of the redirect
// through POST /api/auth/exchange).
func (s *Server) mountPages() {
	s.app.Get("/", func(c *fiber.Ctx) error {
		if s.opt.IndexPath != "" {
			return c.SendFile(s.opt.IndexPath)
		}
		page, err := web.Files.ReadFile("home.html")
		if err != nil {
			return err
		}
		c.Type("html", "utf-8")
		return c.Send(page)
	})
}
