package http

import (
	"github.com/gofiber/fiber/v2"

	"mediateka/usecase/library"
)

// statsRootDTO is a library folder of GET /api/media-admin/stats: the
// /roots fields, the bytes of its catalogued files and its file system's
// size and free space (null when the folder is not there or cannot be
// measured).
type statsRootDTO struct {
	rootDirDTO
	SizeBytes    int64   `json:"size_bytes"`
	FSTotalBytes *uint64 `json:"fs_total_bytes"`
	FSFreeBytes  *uint64 `json:"fs_free_bytes"`
}

type statsCategoryDTO struct {
	Name    string `json:"name"`
	TitleRu string `json:"title_ru"`
	TitleEn string `json:"title_en"`
	Count   int    `json:"count"`
}

type statsDecadeDTO struct {
	Decade int `json:"decade"`
	Count  int `json:"count"`
}

// stats answers the admin overview (API.md §4, Overview).
func (s *Server) stats(c *fiber.Ctx) error {
	ov, err := s.deps.Library.Overview(c.UserContext())
	if err != nil {
		return err
	}
	cats := make([]statsCategoryDTO, len(ov.ByCategory))
	for i, cc := range ov.ByCategory {
		cats[i] = statsCategoryDTO{Name: cc.Category.Slug, TitleRu: cc.Category.NameRu, TitleEn: cc.Category.NameEn, Count: cc.Count}
	}
	decades := make([]statsDecadeDTO, len(ov.ByDecade))
	for i, d := range ov.ByDecade {
		decades[i] = statsDecadeDTO{Decade: d.Decade, Count: d.Count}
	}
	return c.JSON(fiber.Map{
		"counts": fiber.Map{"movies": ov.Movies, "series": ov.Series, "seasons": ov.Seasons, "episodes": ov.Episodes,
			"missing": ov.Missing},
		"by_category": cats, "by_decade": decades, "undated": ov.Undated, "roots": statsRoots(ov.Roots),
	})
}

func statsRoots(roots []library.RootUsage) []statsRootDTO {
	out := make([]statsRootDTO, len(roots))
	for i, r := range roots {
		out[i] = statsRootDTO{rootDirDTO: rootDirDTO{Path: r.Path, Disk: r.Disk, Exists: r.Exists, Entries: r.Entries},
			SizeBytes: r.Bytes}
		if r.Space != nil {
			total, free := r.Space.Total, r.Space.Free
			out[i].FSTotalBytes, out[i].FSFreeBytes = &total, &free
		}
	}
	return out
}
