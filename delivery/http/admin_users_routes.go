package http

import (
	"context"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"mediateka/domain"
	"mediateka/usecase/auth"
)

// UserAdmin is what /api/admin/users needs: the auth use case's user
// administration, whose rules (not deleting yourself, keeping the last
// administrator) live there, not here.
type UserAdmin interface {
	List(ctx context.Context, limit *int, offset int) (auth.UserPage, error)
	Create(ctx context.Context, actor domain.User, r auth.AccountRequest) (domain.User, error)
	Update(ctx context.Context, actor domain.User, id int64, ch auth.AccountChange) (domain.User, error)
	Delete(ctx context.Context, actor domain.User, id int64) error
	LinkCode(ctx context.Context, actor domain.User, id int64) (auth.LinkCode, error)
	UnlinkTelegram(ctx context.Context, actor domain.User, id int64) (domain.User, error)
}

// adminUserDTO is an account as administrators see it: what
// /api/auth/me shows, and whether it has a password at all (accounts made
// by Google sign-in have none). The hash itself never leaves the server.
type adminUserDTO struct {
	meDTO
	HasPassword bool `json:"has_password"`
}

func toAdminUserDTO(u domain.User) adminUserDTO {
	return adminUserDTO{meDTO: toMeDTO(u), HasPassword: u.PasswordHash != ""}
}

// mountAdminUsers adds the user administration routes of API.md §7.
func (s *Server) mountAdminUsers() {
	if s.deps.Users == nil {
		return
	}
	r := s.app.Group("/api/admin/users")
	r.Get("", s.userAuth, requireAdmin, s.listUsers)
	r.Post("", s.userAuth, requireAdmin, s.createUser)
	r.Patch("/:id", s.userAuth, requireAdmin, s.updateUser)
	r.Delete("/:id", s.userAuth, requireAdmin, s.deleteUser)
	r.Post("/:id/telegram-link", s.userAuth, requireAdmin, s.userLinkCode)
	r.Delete("/:id/telegram", s.userAuth, requireAdmin, s.unlinkUser)
}

// userID reads the :id path parameter: a positive whole number, else 400.
func userID(c *fiber.Ctx) (int64, error) {
	id, err := strconv.ParseInt(c.Params("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, domain.ErrInvalid("the id in the path is not an account id", map[string]string{"id": "must be a positive whole number"})
	}
	return id, nil
}

func (s *Server) listUsers(c *fiber.Ctx) error {
	limit, offset, err := pageQuery(c)
	if err != nil {
		return err
	}
	page, err := s.deps.Users.List(c.UserContext(), limit, offset)
	if err != nil {
		return err
	}
	out := make([]adminUserDTO, len(page.Items))
	for i, u := range page.Items {
		out[i] = toAdminUserDTO(u)
	}
	c.Set("X-Total-Count", strconv.FormatInt(page.Total, 10))
	return c.JSON(out)
}

func (s *Server) createUser(c *fiber.Ctx) error {
	var req struct {
		Email    string `json:"email"`
		Name     string `json:"name"`
		Password string `json:"password"`
		Role     string `json:"role"`
	}
	if err := parseJSON(c, &req); err != nil {
		return err
	}
	actor, _ := CurrentUser(c)
	u, err := s.deps.Users.Create(c.UserContext(), actor, auth.AccountRequest{Email: req.Email, Name: req.Name, Password: req.Password, Role: req.Role})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(toAdminUserDTO(u))
}

func (s *Server) updateUser(c *fiber.Ctx) error {
	id, err := userID(c)
	if err != nil {
		return err
	}
	var req struct {
		Name     *string `json:"name"`
		Role     *string `json:"role"`
		IsAdmin  *bool   `json:"is_admin"`
		Password *string `json:"password"`
	}
	if err := parseJSON(c, &req); err != nil {
		return err
	}
	actor, _ := CurrentUser(c)
	u, err := s.deps.Users.Update(c.UserContext(), actor, id, auth.AccountChange{Name: req.Name, Role: req.Role, IsAdmin: req.IsAdmin, Password: req.Password})
	if err != nil {
		return err
	}
	return c.JSON(toAdminUserDTO(u))
}

func (s *Server) deleteUser(c *fiber.Ctx) error {
	id, err := userID(c)
	if err != nil {
		return err
	}
	actor, _ := CurrentUser(c)
	if err := s.deps.Users.Delete(c.UserContext(), actor, id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *Server) userLinkCode(c *fiber.Ctx) error {
	id, err := userID(c)
	if err != nil {
		return err
	}
	actor, _ := CurrentUser(c)
	code, err := s.deps.Users.LinkCode(c.UserContext(), actor, id)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"code": code.Code, "expires_at": code.ExpiresAt.UTC().Format(time.RFC3339)})
}

func (s *Server) unlinkUser(c *fiber.Ctx) error {
	id, err := userID(c)
	if err != nil {
		return err
	}
	actor, _ := CurrentUser(c)
	u, err := s.deps.Users.UnlinkTelegram(c.UserContext(), actor, id)
	if err != nil {
		return err
	}
	return c.JSON(toAdminUserDTO(u))
}
