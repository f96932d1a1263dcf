// Package web holds the pages mediateka serves, embedded in the binary so a
// single file is the whole server.
package web

import "embed"

// Files holds the embedded pages and assets.
//
//go:embed home.html
var Files embed.FS
