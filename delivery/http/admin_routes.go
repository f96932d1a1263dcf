package http

import (
	"context"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"mediateka/domain"
	"mediateka/usecase/admin"
)

// AdminService is what the /api/admin routes of this capability need.
type AdminService interface {
	SystemInstruction(ctx context.Context) (admin.SystemInstruction, error)
	SetSystemInstruction(ctx context.Context, content string) (admin.SystemInstruction, error)
	ResetSystemInstruction(ctx context.Context) (admin.SystemInstruction, error)
	Model() string
	Plugins() []domain.PluginStatus
	Plugin(name string) (domain.PluginStatus, error)
	SetPluginEnabled(ctx context.Context, name string, enabled bool) (domain.PluginStatus, error)
}

// systemInstructionDTO is the instruction with the model that receives
// it: provider is the part of the model's name before "/" ("offline" for
// the built-in assistant), model the rest (null for the assistant).
type systemInstructionDTO struct {
	Content   string     `json:"content"`
	UpdatedAt *time.Time `json:"updated_at"`
	IsDefault bool       `json:"is_default"`
	Provider  string     `json:"provider"`
	Model     *string    `json:"model"`
}

type pluginStatusDTO struct {
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Order       int     `json:"order"`
	Enabled     bool    `json:"enabled"`
	Loaded      bool    `json:"loaded"`
	Running     bool    `json:"running"`
	LastError   *string `json:"last_error"`
}

func (s *Server) toSystemInstructionDTO(si admin.SystemInstruction) systemInstructionDTO {
	out := systemInstructionDTO{Content: si.Content, IsDefault: si.UpdatedAt == nil}
	provider, model, _ := strings.Cut(s.deps.Admin.Model(), "/")
	out.Provider, out.Model = provider, optText(model)
	if si.UpdatedAt != nil {
		t := si.UpdatedAt.UTC()
		out.UpdatedAt = &t
	}
	return out
}

func toPluginStatusDTO(st domain.PluginStatus) pluginStatusDTO {
	return pluginStatusDTO{Name: st.Name, Description: st.Description, Order: st.Order, Enabled: st.Enabled,
		Loaded: st.Loaded, Running: st.Running, LastError: optText(st.LastError)}
}

// mountAdmin adds the system instruction and plugin routes. Each route
// carries its own auth, so other /api/admin routes (users) can be mounted
// beside these without running the checks twice.
func (s *Server) mountAdmin() {
	if s.deps.Admin == nil {
		return
	}
	r := s.app.Group("/api/admin")
	r.Get("/system_instruction", s.userAuth, requireAdmin, s.getSystemInstruction)
	r.Post("/system_instruction", s.userAuth, requireAdmin, s.setSystemInstruction)
	r.Delete("/system_instruction", s.userAuth, requireAdmin, s.resetSystemInstruction)
	r.Get("/plugins", s.userAuth, requireAdmin, s.listPlugins)
	r.Get("/plugin/:name/status", s.userAuth, requireAdmin, s.getPlugin)
	r.Post("/plugin/:name/status", s.userAuth, requireAdmin, s.setPlugin)
}

func (s *Server) getSystemInstruction(c *fiber.Ctx) error {
	si, err := s.deps.Admin.SystemInstruction(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(s.toSystemInstructionDTO(si))
}

func (s *Server) setSystemInstruction(c *fiber.Ctx) error {
	var body struct {
		Content string `json:"content"`
	}
	if err := parseJSON(c, &body); err != nil {
		return err
	}
	si, err := s.deps.Admin.SetSystemInstruction(c.UserContext(), body.Content)
	if err != nil {
		return err
	}
	return c.JSON(s.toSystemInstructionDTO(si))
}

func (s *Server) resetSystemInstruction(c *fiber.Ctx) error {
	si, err := s.deps.Admin.ResetSystemInstruction(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(s.toSystemInstructionDTO(si))
}

func (s *Server) listPlugins(c *fiber.Ctx) error {
	list := s.deps.Admin.Plugins()
	out := make([]pluginStatusDTO, len(list))
	for i, st := range list {
		out[i] = toPluginStatusDTO(st)
	}
	return c.JSON(out)
}

func (s *Server) getPlugin(c *fiber.Ctx) error {
	st, err := s.deps.Admin.Plugin(c.Params("name"))
	if err != nil {
		return err
	}
	return c.JSON(toPluginStatusDTO(st))
}

func (s *Server) setPlugin(c *fiber.Ctx) error {
	var body struct {
		Enabled *bool `json:"enabled"`
	}
	if err := parseJSON(c, &body); err != nil {
		return err
	}
	if body.Enabled == nil {
		return domain.ErrInvalid("enabled is required", map[string]string{"enabled": "must be true or false"})
	}
	st, err := s.deps.Admin.SetPluginEnabled(c.UserContext(), c.Params("name"), *body.Enabled)
	if err != nil {
		return err
	}
	return c.JSON(toPluginStatusDTO(st))
}
