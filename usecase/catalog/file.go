package catalog

import (
	"context"

	"mediateka/domain"
)

// File is the catalogue entry id when it stands for a video file that is
// on disk: media_not_found, no_file (a series or season folder) or
// file_missing otherwise. A room's play command names its file this way.
func (s *Service) File(ctx context.Context, id int64) (domain.Media, error) {
	return s.fileEntry(ctx, id)
}

// FileAt is File for the entry stored under path, compared exactly as
// the catalogue records it. Only the database is asked, never the disk, so
// a path outside the catalogue is refused without being looked at.
func (s *Service) FileAt(ctx context.Context, path string) (domain.Media, error) {
	m, err := s.repo.ByPath(ctx, path)
	if err != nil {
		return domain.Media{}, err
	}
	return m, playable(m)
}

// playable refuses entries that are not a video file present on disk.
func playable(m domain.Media) error {
	if !m.HasFile() {
		return domain.ErrNoFile
	}
	if m.Status == domain.StatusMissing {
		return domain.ErrFileMissing
	}
	return nil
}
