package library

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"mediateka/domain"
)

// RootInfo is a library folder as GET /api/media-admin/roots shows it:
// whether it is there now and how many catalogue entries lie under it.
type RootInfo struct {
	Path    string
	Disk    string
	Exists  bool
	Entries int
}

// ListRoots describes the current library folders. The entries are
// counted in one query however many folders there are.
func (s *Service) ListRoots(ctx context.Context) ([]RootInfo, error) {
	return s.describeRoots(ctx, s.roots.Roots())
}

func (s *Service) describeRoots(ctx context.Context, roots []domain.Root) ([]RootInfo, error) {
	paths := make([]string, len(roots))
	for i, r := range roots {
		paths[i] = r.Path
	}
	counts, err := s.store.CountUnder(ctx, paths)
	if err != nil {
		return nil, fmt.Errorf("count the entries of the library folders: %w", err)
	}
	out := make([]RootInfo, len(roots))
	for i, st := range s.rootStatuses(roots) {
		out[i] = RootInfo{Path: st.Path, Disk: st.Disk, Exists: st.Available, Entries: counts[i]}
	}
	return out, nil
}

// SetRoots replaces the library folders: every entry is checked (absolute,
// an existing folder, none inside another, disk names unique; an empty
// disk is the folder's name), then the list is saved and used at once by
// the next scan and audit. A scan running here or in another process is
// ErrScanRunning: its records would be judged against folders it does not
// walk. A scan already running keeps the folders it started with.
func (s *Service) SetRoots(ctx context.Context, entries []domain.Root) ([]RootInfo, error) {
	roots, err := checkRoots(s.fs, entries)
	if err != nil {
		return nil, err
	}
	if err := s.replaceRoots(roots); err != nil {
		return nil, err
	}
	return s.describeRoots(ctx, roots)
}

// replaceRoots saves the roots while holding the scan slot, so no scan
// starts half-way through the change.
func (s *Service) replaceRoots(roots []domain.Root) error {
	return s.scans.Exclusive(func() error {
		if err := s.roots.SaveRoots(roots); err != nil {
			return fmt.Errorf("save the library folders: %w", err)
		}
		s.log.Info("library folders changed", "folders", len(roots))
		return nil
	})
}

// memRoots keeps the library folders in memory only, for a service built
// without a RootStore.
type memRoots struct {
	mu    sync.RWMutex
	roots []domain.Root
}

func (m *memRoots) Roots() []domain.Root {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return slices.Clone(m.roots)
}

func (m *memRoots) SaveRoots(roots []domain.Root) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.roots = slices.Clone(roots)
	return nil
}
