package http

import (
	"encoding/json"
	"fmt"

	"github.com/gofiber/fiber/v2"

	"mediateka/domain"
	"mediateka/usecase/library"
)

// rootDirDTO is a library folder of GET/PUT /api/media-admin/roots.
type rootDirDTO struct {
	Path    string `json:"path"`
	Disk    string `json:"disk"`
	Exists  bool   `json:"exists"`
	Entries int    `json:"entries"`
}

func (s *Server) rootsGet(c *fiber.Ctx) error {
	roots, err := s.deps.Library.ListRoots(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(rootsResponse(roots))
}

func (s *Server) rootsPut(c *fiber.Ctx) error {
	var body struct {
		Dirs *[]json.RawMessage `json:"dirs"`
	}
	if err := parseJSON(c, &body); err != nil {
		return err
	}
	if body.Dirs == nil {
		return domain.ErrInvalid("the library folders are missing", map[string]string{"dirs": "must be a list of folders"})
	}
	entries, err := decodeRootEntries(*body.Dirs)
	if err != nil {
		return err
	}
	roots, err := s.deps.Library.SetRoots(c.UserContext(), entries)
	if err != nil {
		return err
	}
	return c.JSON(rootsResponse(roots))
}

// decodeRootEntries reads the entries as search_dirs.json has them: a
// string is a path whose disk is its folder name; an object has path and
// an optional disk.
func decodeRootEntries(raw []json.RawMessage) ([]domain.Root, error) {
	out := make([]domain.Root, len(raw))
	bad := map[string]string{}
	for i, r := range raw {
		var obj struct {
			Path string `json:"path"`
			Disk string `json:"disk"`
		}
		if json.Unmarshal(r, &out[i].Path) == nil {
			continue
		}
		if err := json.Unmarshal(r, &obj); err != nil {
			if len(bad) < 100 {
				bad[fmt.Sprintf("dirs[%d]", i)] = "must be a path or an object with a path and a disk"
			}
			continue
		}
		out[i] = domain.Root{Path: obj.Path, Disk: obj.Disk}
	}
	if len(bad) > 0 {
		return nil, domain.ErrInvalid("the library folders are invalid", bad)
	}
	return out, nil
}

func rootsResponse(roots []library.RootInfo) fiber.Map {
	dirs := make([]rootDirDTO, len(roots))
	for i, r := range roots {
		dirs[i] = rootDirDTO{Path: r.Path, Disk: r.Disk, Exists: r.Exists, Entries: r.Entries}
	}
	return fiber.Map{"dirs": dirs}
}
