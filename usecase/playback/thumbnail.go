package playback

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"

	"mediateka/domain"
	"mediateka/usecase/catalog"
)

// Thumbnail is a picture of an entry, as a JPEG.
type Thumbnail struct {
	JPEG []byte
	// ETag names this picture: it changes when the file it shows does.
	ETag string
}

// thumbnailAt is where in a film its picture is taken: far enough in to
// be past the opening titles.
const thumbnailAt = 0.10

// Thumbnail is the picture of entry id: a frame of its file at a tenth
// of its length, at most 480 pixels wide; a series or season shows its
// first episode's. It is made once per version of the file and kept:
// concurrent first requests wait for one ffmpeg, and a file no picture
// could be made of is not tried again until it changes. No ffmpeg, no
// episode, no video stream: ErrNoThumbnail.
func (s *Service) Thumbnail(ctx context.Context, id int64) (Thumbnail, error) {
	fileID, err := s.picturedFile(ctx, id)
	if err != nil {
		return Thumbnail{}, err
	}
	f, err := s.cat.Stream(ctx, fileID)
	if err != nil {
		return Thumbnail{}, err
	}
	name := fmt.Sprintf("%d-%d-%d.jpg", fileID, f.ModTime.UnixNano(), f.Size)
	t := Thumbnail{ETag: `"` + name[:len(name)-len(".jpg")] + `"`}
	if t.JPEG, err = s.storedPicture(name); t.JPEG != nil || err != nil {
		return t, err
	}
	if s.opt.Transcoder == nil || s.failed.has(keyOf(f)) {
		return Thumbnail{}, ErrNoThumbnail
	}
	v, err, _ := s.thumbs.Do(name, func() (any, error) {
		// One request leaving must not fail the others waiting on it.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), thumbnailWait)
		defer cancel()
		return s.makeThumbnail(ctx, fileID, f, name)
	})
	if err != nil {
		return Thumbnail{}, err
	}
	t.JPEG = v.([]byte)
	return t, nil
}

// storedPicture is the kept picture name; nil when there is none yet.
func (s *Service) storedPicture(name string) ([]byte, error) {
	if s.opt.Pictures == nil {
		return nil, nil
	}
	raw, err := s.opt.Pictures.Read(name)
	switch {
	case err == nil:
		return raw, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	}
	return nil, fmt.Errorf("read thumbnail %s: %w", name, err)
}

// makeThumbnail runs ffmpeg on the file and keeps the picture, replacing
// the pictures of the file's earlier versions.
func (s *Service) makeThumbnail(ctx context.Context, fileID int64, f catalog.StreamFile, name string) ([]byte, error) {
	info, known, err := s.probe(ctx, keyOf(f))
	if _, hasVideo := info.Video(); err != nil || (known && !hasVideo) {
		s.failed.add(keyOf(f))
		return nil, ErrNoThumbnail.Wrap(err)
	}
	jpeg, err := s.opt.Transcoder.Thumbnail(ctx, f.Path, info.Duration*thumbnailAt)
	if err != nil {
		s.log.Warn("make a thumbnail", "media_id", fileID, "err", err)
		s.failed.add(keyOf(f))
		return nil, ErrNoThumbnail.Wrap(err)
	}
	if s.opt.Pictures != nil {
		if err := s.opt.Pictures.Write(name, jpeg); err != nil {
			s.log.Warn("keep a thumbnail", "media_id", fileID, "err", err)
		} else if err := s.opt.Pictures.RemoveOthers(strconv.FormatInt(fileID, 10)+"-", name); err != nil {
			s.log.Warn("remove old thumbnails", "media_id", fileID, "err", err)
		}
	}
	return jpeg, nil
}

// picturedFile is the entry whose file pictures entry id: itself when it
// is a file, else (a series or season) its first episode: the lowest
// season from 1 up (specials, season 0, last), its lowest-numbered
// episode that is a file.
func (s *Service) picturedFile(ctx context.Context, id int64) (int64, error) {
	e, err := s.cat.Get(ctx, id)
	if err != nil {
		return 0, err
	}
	if first, ok := firstFile(e); ok {
		return first, nil
	}
	return 0, ErrNoThumbnail
}

// firstFile walks an entry's tree in viewing order for the first file.
func firstFile(e catalog.Entry) (int64, bool) {
	if e.HasFile() && e.Status != domain.StatusMissing {
		return e.ID, true
	}
	kids := slices.Clone(e.Children)
	slices.SortStableFunc(kids, func(a, b catalog.Entry) int { return cmp.Compare(viewingOrder(a.Media), viewingOrder(b.Media)) })
	for _, k := range kids {
		if id, ok := firstFile(k); ok {
			return id, true
		}
	}
	return 0, false
}

// viewingOrder ranks a season or episode by its number, specials (0) and
// unnumbered ones after the numbered.
func viewingOrder(m domain.Media) int {
	if m.Number == nil || *m.Number <= 0 {
		return 1 << 30
	}
	return *m.Number
}
