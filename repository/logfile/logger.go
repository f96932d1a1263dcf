// Package logfile is the server's log folder: the JSON-lines writer with
// size rotation the logger writes through (lumberjack), the handler that
// redacts every record on its way there, and the file access the logs use
// case reads, clears and reports through. Every file it opens is inside
// the folder: names are checked by the use case and again here, where a
// symlink that leads out of the folder is refused.
package logfile

import (
	"context"
	"io"
	"log/slog"

	"mediateka/domain"
)

// ActiveName is the file the logger writes; rotation renames it to
// mediateka-<time>.log (and .log.gz when compressed).
const ActiveName = "mediateka.log"

// Options configure the logger.
type Options struct {
	// Dir is the log folder, created when missing.
	Dir        string
	Level      string
	MaxSizeMB  int
	MaxBackups int
	// Compress gzips rotated files (mediateka-<time>.log.gz).
	Compress bool
	// Stderr gets the same records as human-readable text.
	Stderr io.Writer
	// Redactor masks secrets in every record before it is written.
	Redactor *domain.Redactor
}

// NewLogger writes JSON lines to <Dir>/mediateka.log (rotated by size) and
// human-readable text to Stderr. Every record passes the redactor first,
// so a secret handed to a log call by mistake is still never written. The
// Writer it returns is the file side: close it last, and clear the active
// file through it (Dir does).
func NewLogger(opt Options) (*slog.Logger, *Writer, error) {
	w, err := OpenWriter(opt.Dir, opt.MaxSizeMB, opt.MaxBackups, opt.Compress)
	if err != nil {
		return nil, nil, err
	}
	if opt.Stderr == nil {
		opt.Stderr = io.Discard
	}
	lvl := parseLevel(opt.Level)
	h := slog.NewMultiHandler(
		slog.NewJSONHandler(w, &slog.HandlerOptions{Level: lvl}),
		slog.NewTextHandler(opt.Stderr, &slog.HandlerOptions{Level: lvl}),
	)
	return slog.New(newRedactor(h, opt.Redactor)), w, nil
}

func parseLevel(s string) slog.Level {
	var l slog.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return slog.LevelInfo
	}
	return l
}

// redactor is a slog.Handler that masks sensitive attributes by name and
// scrubs known secret values from every message and string value, inside
// groups, lists, maps and structs too, by the one rule of domain.Redactor.
type redactor struct {
	next slog.Handler
	rule *domain.Redactor
}

func newRedactor(next slog.Handler, rule *domain.Redactor) *redactor {
	if rule == nil {
		rule = domain.NewRedactor(nil)
	}
	return &redactor{next: next, rule: rule}
}

func (h *redactor) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h *redactor) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, h.rule.Scrub(r.Message), r.PC)
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
	return &redactor{next: h.next.WithAttrs(clean), rule: h.rule}
}

func (h *redactor) WithGroup(name string) slog.Handler {
	return &redactor{next: h.next.WithGroup(name), rule: h.rule}
}

func (h *redactor) attr(a slog.Attr) slog.Attr {
	if h.rule.SensitiveKey(a.Key) {
		return slog.String(a.Key, domain.Redacted)
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
		return slog.String(a.Key, h.rule.Scrub(v.String()))
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			return slog.String(a.Key, h.rule.Scrub(err.Error()))
		}
		// Lists, maps, structs: what the JSON handler would write,
		// cleaned all the way down (sensitive keys, secret values).
		return slog.Any(a.Key, h.rule.Value(v.Any()))
	}
	return a
}
