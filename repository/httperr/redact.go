// Package httperr holds what the clients of outside HTTP services
// (qBittorrent, Torznab indexers, .torrent links) share about their
// errors.
package httperr

import (
	"errors"
	"fmt"
	"net/url"
)

// Redact drops the request URL from a transport error, keeping the
// operation and the cause: the URL may hold an API key in its query or a
// password in its user-info part, and the error ends up in the log.
func Redact(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s: %w", ue.Op, Redact(ue.Err))
	}
	return err
}
