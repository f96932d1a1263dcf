package app

import (
	"log/slog"

	"mediateka/config"
	"mediateka/delivery/ws"
	"mediateka/usecase/catalog"
	"mediateka/usecase/control"
)

// controlParts are the player/remote rooms: the hub and its WebSocket
// delivery, which the HTTP server mounts.
type controlParts struct {
	hub *control.Service
	ws  *ws.Handler
}

// newControl builds the rooms over the catalogue that play commands are
// checked against; play resolves each player's own /play answer, which
// the player receives under "play" with the command; the positions
// signed-in players report go to progress.
func newControl(cfg config.Config, cat *catalog.Service, verifier ws.TokenVerifier, play control.PlayResolver,
	progress control.Progress, log *slog.Logger) controlParts {
	hub := control.New(cat, control.Options{AllowAnonymousRooms: cfg.Control.AllowAnonymousRooms, Play: play,
		Progress: progress, Logger: log})
	// Every write of the server already gets http.write_timeout (the
	// listener sets it per write), so a socket's write deadline is that.
	return controlParts{hub: hub, ws: ws.New(hub, ws.Options{AllowedOrigins: cfg.Control.AllowedOrigins,
		WriteWait: cfg.HTTP.WriteTimeout.D(), Verifier: verifier, TokenRecheck: cfg.Control.TokenRecheck.D(), Logger: log})}
}

// component is the hub in the lifecycle. It is added before the HTTP
// server, so it stops after it: the server stops taking new sockets, then
// the hub closes the open ones with 1001 (going away) and waits, within
// the deadline, until each has left.
func (c controlParts) component() component {
	return component{Name: "rooms hub", Start: c.hub.Start, Stop: c.hub.Stop}
}
