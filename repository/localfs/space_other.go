//go:build !unix

package localfs

import (
	"errors"

	"mediateka/domain"
)

// Space measures file systems where statfs exists; elsewhere it says so.
type Space struct{}

// Space reports that disk space is not measured on this system.
func (Space) Space(string) (domain.DiskSpace, error) {
	return domain.DiskSpace{}, errors.New("disk space is not measured on this system")
}
