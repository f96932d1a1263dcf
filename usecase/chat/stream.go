package chat

import (
	"context"
	"encoding/json"
	"strings"

	"mediateka/domain"
)

// Progress statuses a stream reports before the answer.
const (
	StatusCheckingPlugins = "checking_plugins"
	StatusAskingModel     = "asking_model"
)

// Event is one piece of a streamed answer: a Status while the answer is
// being found, then Text chunks, then one event with Done set, naming who
// answered. Exactly one of Status, Text and Done is set.
type Event struct {
	Status    string
	Text      string
	Done      bool
	HandledBy string
	Model     string
}

// Stream answers r as a series of events passed to emit. An error from emit
// (the client left) stops the answer and is returned; a failure of the model
// is returned as 503 ai_unavailable, and the caller reports it in the
// stream. A request that does not validate fails before any event.
func (s *Service) Stream(ctx context.Context, r Request, emit func(Event) error) error {
	if err := s.Validate(r); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, s.opt.Timeout)
	defer cancel()
	msg := strings.TrimSpace(r.Message)
	ctx = withCaller(ctx, r.Caller, msg)
	if err := emit(Event{Status: StatusCheckingPlugins}); err != nil {
		return err
	}
	if answer, plugin := s.chain.Handle(ctx, msg); answer != "" {
		s.record(ctx, r, msg, plugin, nil)
		if err := emit(Event{Text: s.withNotices(ctx, answer)}); err != nil {
			return err
		}
		return emit(Event{Done: true, HandledBy: plugin})
	}
	if err := emit(Event{Status: StatusAskingModel}); err != nil {
		return err
	}
	if err := s.streamModel(ctx, r, msg, emit); err != nil {
		return err
	}
	return emit(Event{Done: true, HandledBy: HandledByModel, Model: s.model.Name()})
}

// streamModel passes the model's answer on piece by piece and records the
// exchange. The caller's notices go out with the first piece: once the
// client has that, it has them.
func (s *Service) streamModel(ctx context.Context, r Request, msg string, emit func(Event) error) error {
	var emitErr error
	first := true
	err := s.model.Stream(ctx, s.prompt(ctx, msg, r.History), func(chunk string) error {
		if first {
			first = false
			chunk = s.withNotices(ctx, chunk)
		}
		emitErr = emit(Event{Text: chunk})
		return emitErr
	})
	switch {
	case emitErr != nil:
		s.record(ctx, r, msg, HandledByModel, emitErr)
		return emitErr
	case err != nil:
		err = modelError(ctx, err)
		s.record(ctx, r, msg, HandledByModel, err)
		return err
	}
	s.record(ctx, r, msg, HandledByModel, nil)
	return nil
}

// activityDetails is what the activity log keeps of an exchange: its size
// and who answered, never the text.
type activityDetails struct {
	MessageChars int    `json:"message_chars"`
	HistoryItems int    `json:"history_items"`
	HandledBy    string `json:"handled_by"`
	Error        string `json:"error,omitempty"`
}

// record writes the exchange to the user's activity log. It runs even when
// the request's context has ended (a timeout is worth recording), and a
// failure to record is logged, never shown: the answer matters more.
func (s *Service) record(ctx context.Context, r Request, msg string, handledBy string, failure error) {
	if r.Caller.UserID == 0 {
		return
	}
	d := activityDetails{MessageChars: len([]rune(msg)), HistoryItems: len(r.History), HandledBy: handledBy}
	if failure != nil {
		d.Error = "client_gone"
		if de, ok := failure.(*domain.Error); ok {
			d.Error = de.Code
		}
	}
	raw, _ := json.Marshal(d)
	ctx = context.WithoutCancel(ctx)
	if err := s.activity.Add(ctx, domain.Activity{UserID: r.Caller.UserID, Action: ActivityAction, Details: string(raw)}); err != nil {
		s.log.WarnContext(ctx, "chat: cannot record the exchange in the activity log", "user_id", r.Caller.UserID, "err", err)
	}
}
