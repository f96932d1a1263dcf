package http

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gofiber/fiber/v2"

	"mediateka/domain"
	"mediateka/usecase/apikey"
)

// KeyService is what the /api/keys routes need from the key store.
type KeyService interface {
	List(ctx context.Context) ([]domain.APIKey, error)
	Get(ctx context.Context, name string) (domain.APIKey, error)
	Create(ctx context.Context, n apikey.NewKey) (domain.APIKey, error)
	Update(ctx context.Context, name string, p apikey.Patch) (domain.APIKey, error)
	Delete(ctx context.Context, name string) error
	ResetQuota(ctx context.Context, name string) (domain.APIKey, error)
}

// keyDTO is API.md §8's key record. The secret only ever leaves masked.
type keyDTO struct {
	KeyName      string     `json:"key_name"`
	Provider     string     `json:"provider"`
	APIKeyMasked string     `json:"api_key_masked"`
	Status       string     `json:"status"`
	LastRun      *time.Time `json:"last_run"`
	ExhaustedAt  *time.Time `json:"exhausted_at"`
	DailyQuota   *int       `json:"daily_quota"`
	UsedToday    int        `json:"used_today"`
	CreatedAt    time.Time  `json:"created_at"`
}

func toKeyDTO(k domain.APIKey) keyDTO {
	utc := func(t *time.Time) *time.Time {
		if t == nil {
			return nil
		}
		u := t.UTC()
		return &u
	}
	return keyDTO{KeyName: k.Name, Provider: k.Provider, APIKeyMasked: domain.MaskKey(k.Secret), Status: k.Status,
		LastRun: utc(k.LastRun), ExhaustedAt: utc(k.ExhaustedAt), DailyQuota: k.DailyQuota, UsedToday: k.UsedToday,
		CreatedAt: k.CreatedAt.UTC()}
}

func (s *Server) mountKeys() {
	if s.deps.Keys == nil {
		return
	}
	r := s.app.Group("/api/keys")
	r.Get("/", s.userAuth, requireAdmin, s.listKeys)
	r.Post("/", s.userAuth, requireAdmin, s.createKey)
	r.Get("/:key_name", s.userAuth, requireAdmin, s.getKey)
	r.Patch("/:key_name", s.userAuth, requireAdmin, s.updateKey)
	r.Delete("/:key_name", s.userAuth, requireAdmin, s.deleteKey)
	r.Post("/:key_name/reset-quota", s.userAuth, requireAdmin, s.resetKeyQuota)
}

func (s *Server) listKeys(c *fiber.Ctx) error {
	keys, err := s.deps.Keys.List(c.UserContext())
	if err != nil {
		return err
	}
	out := make([]keyDTO, len(keys))
	for i, k := range keys {
		out[i] = toKeyDTO(k)
	}
	return c.JSON(fiber.Map{"keys": out, "total": len(out)})
}

func (s *Server) getKey(c *fiber.Ctx) error {
	k, err := s.deps.Keys.Get(c.UserContext(), c.Params("key_name"))
	if err != nil {
		return err
	}
	return c.JSON(toKeyDTO(k))
}

func (s *Server) createKey(c *fiber.Ctx) error {
	var body struct {
		KeyName    string `json:"key_name"`
		APIKey     string `json:"api_key"`
		Provider   string `json:"provider"`
		Status     string `json:"status"`
		DailyQuota *int   `json:"daily_quota"`
	}
	if err := parseJSON(c, &body); err != nil {
		return err
	}
	k, err := s.deps.Keys.Create(c.UserContext(), apikey.NewKey{Name: body.KeyName, Secret: body.APIKey,
		Provider: body.Provider, Status: body.Status, DailyQuota: body.DailyQuota})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(toKeyDTO(k))
}

// updateKey applies a partial change. daily_quota is read raw so that an
// explicit null (unlimited) differs from leaving the field out.
func (s *Server) updateKey(c *fiber.Ctx) error {
	var body struct {
		Status     *string         `json:"status"`
		APIKey     *string         `json:"api_key"`
		Provider   *string         `json:"provider"`
		DailyQuota json.RawMessage `json:"daily_quota"`
	}
	if err := parseJSON(c, &body); err != nil {
		return err
	}
	p := apikey.Patch{Status: body.Status, Secret: body.APIKey, Provider: body.Provider, SetQuota: body.DailyQuota != nil}
	if p.SetQuota {
		if err := json.Unmarshal(body.DailyQuota, &p.DailyQuota); err != nil {
			return domain.ErrInvalid("a field has the wrong type", map[string]string{"daily_quota": "must be a number or null"})
		}
	}
	k, err := s.deps.Keys.Update(c.UserContext(), c.Params("key_name"), p)
	if err != nil {
		return err
	}
	return c.JSON(toKeyDTO(k))
}

func (s *Server) deleteKey(c *fiber.Ctx) error {
	if err := s.deps.Keys.Delete(c.UserContext(), c.Params("key_name")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *Server) resetKeyQuota(c *fiber.Ctx) error {
	k, err := s.deps.Keys.ResetQuota(c.UserContext(), c.Params("key_name"))
	if err != nil {
		return err
	}
	return c.JSON(toKeyDTO(k))
}
