package app

import (
	"context"
	"errors"
	"log/slog"

	"mediateka/config"
	"mediateka/domain"
	"mediateka/usecase/classify"
	"mediateka/usecase/event"
)

// newClassify builds the classification job on the model config ai names.
// The offline assistant cannot classify, so with ai.provider offline (or
// empty) the job has no model and its endpoint answers 503 ai_unavailable.
// A running job ends when its lifecycle component stops. afterScans tells
// whether the "classify after scans" component belongs in the lifecycle.
func newClassify(cfg config.Config, repos repositories, chatModel domain.AIModel, lib libraryParts, log *slog.Logger) (svc *classify.Service, afterScans bool) {
	var model domain.AIModel
	if p := cfg.AI.Provider; p != "" && p != "offline" {
		model = chatModel
	}
	svc = classify.New(repos.media, model, classify.Options{
		Events: lib.events, Listener: lib.listeners, Logger: log,
	})
	if !cfg.AI.ClassifyAfterScan {
		return svc, false
	}
	if model == nil {
		log.Warn("ai.classify_after_scan is on but no AI model is configured (ai.provider is offline): scans will not classify")
		return svc, false
	}
	return svc, true
}

// afterScansComponent classifies after each completed scan. It listens
// from the moment it starts (see listenerComponent), so New starts nothing
// and no scan completed after Start is missed.
func afterScansComponent(life *lifecycle, bus *event.Bus, svc *classify.Service, log *slog.Logger) component {
	return listenerComponent(life, "classify after scans", bus, func(ctx context.Context, l *event.Listener) error {
		l.Run(ctx, func(m event.Message) { classifyAfterScan(ctx, m.Event, svc, log) }, nil)
		return nil
	})
}

// classifyAfterScan starts a classification job when e is a completed
// scan. A job still running from the last scan is left to finish; the
// next completed scan picks up what it missed.
func classifyAfterScan(ctx context.Context, e domain.Event, svc *classify.Service, log *slog.Logger) {
	if scan, ok := e.(domain.ScanCompleted); !ok || scan.State != domain.JobCompleted {
		return
	}
	if err := svc.Start(ctx, nil); err != nil && !errors.Is(err, classify.ErrRunning) {
		log.Warn("classification after the scan did not start", "err", err.Error())
	}
}
