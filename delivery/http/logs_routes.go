package http

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"mediateka/domain"
	"mediateka/usecase/logs"
)

// LogService is what the /api/logs routes need (API.md §9).
type LogService interface {
	Files(ctx context.Context) ([]domain.LogFile, error)
	Read(ctx context.Context, q logs.Query) (logs.Page, error)
	Clear(ctx context.Context, name string) ([]string, error)
	Analyze(ctx context.Context, name string) (string, error)
	Reports(ctx context.Context) ([]domain.LogFile, error)
	Report(ctx context.Context, name string) (string, error)
	Stats(ctx context.Context) (logs.Stats, error)
}

type logFileDTO struct {
	Name     string    `json:"name"`
	Size     int64     `json:"size"`
	Modified time.Time `json:"modified"`
}

// logLineDTO is one line: a record split into its parts, or raw text.
type logLineDTO struct {
	Time  *time.Time     `json:"time"`
	Level *string        `json:"level"`
	Msg   *string        `json:"msg"`
	Attrs map[string]any `json:"attrs"`
	Raw   *string        `json:"raw,omitempty"`
}

func toLogFiles(files []domain.LogFile) []logFileDTO {
	out := make([]logFileDTO, len(files))
	for i, f := range files {
		out[i] = logFileDTO{Name: f.Name, Size: f.Size, Modified: f.Modified.UTC()}
	}
	return out
}

func toLogLine(l logs.Line) logLineDTO {
	d := logLineDTO{Time: l.Time, Msg: l.Msg, Attrs: l.Attrs}
	if l.Level != "" {
		d.Level = &l.Level
	}
	if l.Raw != "" {
		raw := l.Raw
		d.Raw = &raw
	}
	return d
}

// mountLogs adds the administrator's log routes.
func (s *Server) mountLogs() {
	if s.deps.Logs == nil {
		return
	}
	r := s.app.Group("/api/logs", s.userAuth, requireAdmin)
	r.Get("/files", s.logFiles)
	r.Get("/read", s.readLog)
	r.Delete("/clear", s.clearLogs)
	r.Post("/analyze", s.analyzeLog)
	r.Get("/reports", s.logReports)
	r.Get("/report", s.logReport)
	r.Get("/stats", s.logStats)
}

func (s *Server) logFiles(c *fiber.Ctx) error {
	files, err := s.deps.Logs.Files(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"files": toLogFiles(files), "count": len(files)})
}

func (s *Server) readLog(c *fiber.Ctx) error {
	q, err := readQuery(c)
	if err != nil {
		return err
	}
	page, err := s.deps.Logs.Read(c.UserContext(), q)
	if err != nil {
		return err
	}
	lines := make([]logLineDTO, len(page.Lines))
	for i, l := range page.Lines {
		lines[i] = toLogLine(l)
	}
	return c.JSON(fiber.Map{"filename": page.Filename, "total_lines": page.TotalLines,
		"returned_lines": len(lines), "lines": lines})
}

// readQuery parses filename, tail (default 500), level, q, since, until.
// The strings are copied: Fiber's c.Query shares the request's buffer,
// which the next request reuses, and the use case may keep the file name
// (its line-count cache).
func readQuery(c *fiber.Ctx) (logs.Query, error) {
	q := logs.Query{Filename: strings.Clone(c.Query("filename")), Tail: 500, Level: strings.Clone(c.Query("level")),
		Q: strings.Clone(c.Query("q"))}
	if q.Filename == "" {
		return q, domain.ErrInvalid("filename is required", map[string]string{"filename": "must not be empty"})
	}
	if t := c.Query("tail"); t != "" {
		n, err := strconv.Atoi(t)
		if err != nil {
			return q, domain.ErrInvalid("tail is not a number", map[string]string{"tail": "must be a whole number"})
		}
		q.Tail = n
	}
	for _, p := range []struct {
		name string
		dst  *time.Time
	}{{"since", &q.Since}, {"until", &q.Until}} {
		if v := c.Query(p.name); v != "" {
			t, err := time.Parse(time.RFC3339Nano, v)
			if err != nil { // an unencoded "+03:00" arrives as " 03:00"
				t, err = time.Parse(time.RFC3339Nano, strings.Replace(v, " ", "+", 1))
			}
			if err != nil {
				return q, domain.ErrInvalid(p.name+" is not a time", map[string]string{p.name: "must be an RFC 3339 time"})
			}
			*p.dst = t
		}
	}
	return q, nil
}

func (s *Server) clearLogs(c *fiber.Ctx) error {
	cleared, err := s.deps.Logs.Clear(c.UserContext(), c.Query("filename"))
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"cleared": cleared, "count": len(cleared)})
}

func (s *Server) analyzeLog(c *fiber.Ctx) error {
	var body struct {
		Filename string `json:"filename"`
	}
	if err := parseJSON(c, &body); err != nil {
		return err
	}
	if body.Filename == "" {
		return domain.ErrInvalid("filename is required", map[string]string{"filename": "must not be empty"})
	}
	report, err := s.deps.Logs.Analyze(c.UserContext(), body.Filename)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(fiber.Map{"status": "started", "report": report})
}

func (s *Server) logReports(c *fiber.Ctx) error {
	reports, err := s.deps.Logs.Reports(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"reports": toLogFiles(reports), "count": len(reports)})
}

func (s *Server) logReport(c *fiber.Ctx) error {
	name := c.Query("filename")
	if name == "" {
		return domain.ErrInvalid("filename is required", map[string]string{"filename": "must not be empty"})
	}
	content, err := s.deps.Logs.Report(c.UserContext(), name)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"filename": name, "content": content})
}

func (s *Server) logStats(c *fiber.Ctx) error {
	st, err := s.deps.Logs.Stats(c.UserContext())
	if err != nil {
		return err
	}
	hours := make([]string, len(st.ErrorsPerHour.Hours))
	for i, h := range st.ErrorsPerHour.Hours {
		hours[i] = h.UTC().Format(time.RFC3339)
	}
	return c.JSON(fiber.Map{"total_size_bytes": st.TotalSizeBytes, "file_count": st.FileCount,
		"report_count": st.ReportCount, "by_level": st.ByLevel, "errors_last_24h": st.ErrorsLast24h,
		"errors_per_hour": fiber.Map{"hours": hours, "counts": st.ErrorsPerHour.Counts}})
}
