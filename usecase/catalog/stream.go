package catalog

import (
	"context"
	"path/filepath"
	"strings"
	"time"

	"mediateka/domain"
)

// StreamFile is a catalogue file ready to be served.
type StreamFile struct {
	Path        string
	Size        int64
	ModTime     time.Time
	ContentType string
}

// Stream resolves the file of entry id. Only catalogue entries stream, and
// only through their recorded path, so no request can name a file on disk.
func (s *Service) Stream(ctx context.Context, id int64) (StreamFile, error) {
	m, err := s.fileEntry(ctx, id)
	if err != nil {
		return StreamFile{}, err
	}
	info, err := s.files.Stat(m.Path)
	if err != nil || !info.Mode().IsRegular() {
		return StreamFile{}, domain.ErrFileMissing
	}
	return StreamFile{Path: m.Path, Size: info.Size(), ModTime: info.ModTime().UTC(), ContentType: ContentType(m.Path)}, nil
}

// Open resolves entry id like Stream and opens its file; the caller
// closes it.
func (s *Service) Open(ctx context.Context, id int64) (StreamFile, domain.FileReader, error) {
	f, err := s.Stream(ctx, id)
	if err != nil {
		return StreamFile{}, nil, err
	}
	r, err := s.files.Open(f.Path)
	if err != nil {
		return StreamFile{}, nil, domain.ErrFileMissing.Wrap(err)
	}
	return f, r, nil
}

// fileEntry loads an entry that stands for a video file.
func (s *Service) fileEntry(ctx context.Context, id int64) (domain.Media, error) {
	m, err := s.repo.ByID(ctx, id)
	if err != nil {
		return domain.Media{}, err
	}
	return m, playable(m)
}

// ContentType is the MIME type of a video container, by extension, as
// browsers and players expect it.
func ContentType(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".mp4", ".m4v":
		return "video/mp4"
	case ".mkv":
		return "video/x-matroska"
	case ".webm":
		return "video/webm"
	case ".avi", ".divx":
		return "video/x-msvideo"
	case ".mov":
		return "video/quicktime"
	case ".wmv":
		return "video/x-ms-wmv"
	case ".asf":
		return "video/x-ms-asf"
	case ".ts", ".m2ts", ".mts":
		return "video/mp2t"
	case ".mpg", ".mpeg", ".vob":
		return "video/mpeg"
	case ".flv":
		return "video/x-flv"
	case ".3gp":
		return "video/3gpp"
	case ".ogv":
		return "video/ogg"
	case ".rm", ".rmvb":
		return "application/vnd.rn-realmedia"
	case ".iso":
		return "application/x-iso9660-image"
	}
	return "application/octet-stream"
}
