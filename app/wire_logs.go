package app

import (
	"io"
	"log/slog"

	"mediateka/config"
	"mediateka/domain"
	"mediateka/repository/logfile"
	"mediateka/usecase/event"
	"mediateka/usecase/logs"
	"mediateka/usecase/offline"
)

// newLogger writes JSON lines to <log dir>/mediateka.log (rotated by size)
// and text to stderr, every record redacted by redact first. The writer it
// returns is also how the logs API clears the active file.
func newLogger(cfg config.Config, stderr io.Writer, redact *domain.Redactor) (*slog.Logger, *logfile.Writer, error) {
	return logfile.NewLogger(logfile.Options{Dir: cfg.LogDir, Level: cfg.Log.Level, MaxSizeMB: cfg.Log.MaxSizeMB,
		MaxBackups: cfg.Log.MaxBackups, Compress: cfg.Log.Compress, Stderr: stderr, Redactor: redact})
}

// newLogs builds the administrator's logs use case over the log folder the
// logger writes. The offline assistant writes no summaries, so with it
// the reports have none.
func newLogs(cfg config.Config, w *logfile.Writer, redact *domain.Redactor, model domain.AIModel, events *event.Bus, log *slog.Logger) (*logs.Service, error) {
	dir, err := logfile.NewDir(cfg.LogDir, w)
	if err != nil {
		return nil, err
	}
	if _, isOffline := model.(*offline.Model); isOffline {
		model = nil
	}
	return logs.New(dir, model, logs.Options{Redactor: redact, Events: events, Logger: log}), nil
}

// logsComponent stops running log analyses before the log file closes.
func logsComponent(svc *logs.Service) component {
	return component{Name: "log analysis", Start: noStart, Stop: svc.Stop}
}
