// Package web holds the pages mediateka serves, embedded in the binary so a
// single file is the whole server: the home page, the player, the
// remote and the admin panel, and under assets/ the style sheet and the ES modules they share
// (no build step: what is here is what the browser runs; see docs/PAGES.md).
package web

import "embed"

// Files holds the embedded pages and assets.
//
//go:embed home.html player.html remote.html admin.html tgmini.html assets
var Files embed.FS
