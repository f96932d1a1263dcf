package app

import (
	"errors"

	"mediateka/domain"
	"mediateka/usecase/classify"
	"mediateka/usecase/event"
)

// newClassify builds the classification job on the model config ai names.
// The offline assistant cannot classify, so with ai.provider offline (or
// empty) the job has no model and its endpoint answers 503 ai_unavailable.
func (a *App) newClassify() {
	var model domain.AIModel
	if p := a.cfg.AI.Provider; p != "" && p != "offline" {
		model = a.chat.model
	}
	a.lib.classify = classify.New(a.lib.media, model, classify.Options{
		Context: a.streams, Events: a.lib.events, Listener: a.lib.catalog, Logger: a.log,
	})
	if !a.cfg.AI.ClassifyAfterScan {
		return
	}
	if model == nil {
		a.log.Warn("ai.classify_after_scan is on but no AI model is configured (ai.provider is offline): scans will not classify")
		return
	}
	go a.classifyAfterScans(a.lib.events.Subscribe(16))
}

// classifyAfterScans starts a classification job after each completed scan
// until the server shuts down. A job still running from the last scan is
// left to finish; the next completed scan picks up what it missed.
func (a *App) classifyAfterScans(sub *event.Subscription) {
	defer func() { sub.Close() }()
	for {
		select {
		case <-a.streams.Done():
			return
		case m, ok := <-sub.C():
			if !ok {
				// Fell behind the bus: listen again.
				sub = a.lib.events.Subscribe(16)
				continue
			}
			if scan, ok := m.Event.(domain.ScanCompleted); !ok || scan.State != domain.JobCompleted {
				continue
			}
			err := a.lib.classify.Start(a.streams, nil)
			if err != nil && !errors.Is(err, classify.ErrRunning) {
				a.log.Warn("classification after the scan did not start", "err", err.Error())
			}
		}
	}
}
