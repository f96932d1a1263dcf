//go:build unix

package localfs

import (
	"fmt"
	"syscall"

	"mediateka/domain"
)

// Space measures the file system a library folder is on (statfs): the
// admin overview's disk use. Free is what an unprivileged writer may use,
// as df shows it.
type Space struct{}

// Space answers the size and the free bytes of the file system holding path.
func (Space) Space(path string) (domain.DiskSpace, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return domain.DiskSpace{}, fmt.Errorf("statfs %s: %w", path, err)
	}
	bs := uint64(st.Bsize) // int64 on Linux, uint32 on the BSDs
	return domain.DiskSpace{Total: uint64(st.Blocks) * bs, Free: uint64(st.Bavail) * bs}, nil
}
