package app

import (
	"context"

	"mediateka/usecase/event"
	"mediateka/usecase/notice"
)

// listenerBuffer is how many events a listener of the server may fall
// behind before the bus cuts it off (it then listens again).
const listenerBuffer = 16

// listenerComponent runs work over a listener of bus as a lifecycle
// component. The listener subscribes when the component starts, not when
// it is built, so New starts nothing and nothing published after Start is
// missed; work runs in Run's errgroup until the component stops.
func listenerComponent(life *lifecycle, name string, bus *event.Bus, work func(ctx context.Context, l *event.Listener) error) component {
	var l *event.Listener
	c := life.background(name, func(ctx context.Context) error { return work(ctx, l) }, nil)
	start := c.Start
	c.Start = func(ctx context.Context) error {
		l = bus.Listen(listenerBuffer)
		if err := start(ctx); err != nil {
			l.Close()
			return err
		}
		return nil
	}
	return c
}

// noticesComponent runs the chat's scan notices: while it runs, an
// administrator who starts a scan from the chat is told in the chat how
// it ended; before Start and after Stop the chat promises no such thing.
func noticesComponent(life *lifecycle, bus *event.Bus, svc *notice.Service) component {
	return listenerComponent(life, "scan notices", bus, svc.Run)
}
