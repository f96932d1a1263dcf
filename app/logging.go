package app

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/natefinch/lumberjack.v2"
)

// newLogger writes JSON lines to <logDir>/mediateka.log (rotated by size) and
// human-readable text to stderr. Every record passes a redactor first, so a
// secret handed to a log call by mistake is still never written.
func newLogger(logDir, level string, maxSizeMB, maxBackups int, stderr io.Writer, secrets []string) (*slog.Logger, io.Closer, error) {
	if err := os.MkdirAll(logDir, 0o750); err != nil {
		return nil, nil, err
	}
	file := &lumberjack.Logger{
		Filename:   filepath.Join(logDir, "mediateka.log"),
		MaxSize:    maxSizeMB,
		MaxBackups: maxBackups,
	}
	lvl := parseLevel(level)
	h := slog.NewMultiHandler(
		slog.NewJSONHandler(file, &slog.HandlerOptions{Level: lvl}),
		slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: lvl}),
	)
	return slog.New(newRedactor(h, secrets)), file, nil
}

func parseLevel(s string) slog.Level {
	var l slog.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return slog.LevelInfo
	}
	return l
}

// sensitiveKeys are attribute names whose values are always replaced.
var sensitiveKeys = []string{"password", "passwd", "secret", "token", "api_key", "apikey", "authorization", "cookie", "init_data"}

// redactor is a slog.Handler that masks sensitive attributes by name and
// scrubs known secret values (JWT secret, admin password, OAuth client
// secret, torrent client password…) from every message and string value.
type redactor struct {
	next    slog.Handler
	secrets []string
}

func newRedactor(next slog.Handler, secrets []string) *redactor {
	var keep []string
	for _, s := range secrets {
		if len(s) >= 4 { // shorter values would mangle ordinary words
			keep = append(keep, s)
		}
	}
	return &redactor{next: next, secrets: keep}
}

func (h *redactor) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h *redactor) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, h.scrub(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h *redactor) WithAttrs(attrs []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		clean[i] = h.attr(a)
	}
	return &redactor{next: h.next.WithAttrs(clean), secrets: h.secrets}
}

func (h *redactor) WithGroup(name string) slog.Handler {
	return &redactor{next: h.next.WithGroup(name), secrets: h.secrets}
}

func (h *redactor) attr(a slog.Attr) slog.Attr {
	key := strings.ToLower(a.Key)
	for _, s := range sensitiveKeys {
		if strings.Contains(key, s) && !strings.HasSuffix(key, "_file") {
			return slog.String(a.Key, "***")
		}
	}
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindGroup:
		attrs := v.Group()
		clean := make([]any, len(attrs))
		for i, g := range attrs {
			clean[i] = h.attr(g)
		}
		return slog.Group(a.Key, clean...)
	case slog.KindString:
		return slog.String(a.Key, h.scrub(v.String()))
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			return slog.String(a.Key, h.scrub(err.Error()))
		}
	}
	return a
}

func (h *redactor) scrub(s string) string {
	for _, secret := range h.secrets {
		if strings.Contains(s, secret) {
			s = strings.ReplaceAll(s, secret, "***")
		}
	}
	return s
}
