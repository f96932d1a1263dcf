package library

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"sort"
	"strconv"
	"sync"

	"mediateka/domain"
)

// Reasons two records are duplicates.
const (
	DuplicateSameTitleYear = "same_title_year"
	DuplicateSameContent   = "same_content"
)

// hashChunk is the size of each of the three parts (start, middle, end) a
// partial content hash reads: enough to tell different videos apart, and
// cheap even for a 50 GB file.
const hashChunk = 64 << 10

// DuplicateGroup is a set of records that look like the same work.
type DuplicateGroup struct {
	Reason  string
	Entries []domain.Media
}

type idGroup struct {
	reason string
	ids    []int64
}

// Duplicates lists the duplicate groups: movies or series with the same
// normalised title (in any of their title fields), year and type, and
// video files with the same size and partial content hash.
func (s *Service) Duplicates(ctx context.Context) ([]DuplicateGroup, error) {
	groups, err := s.duplicateGroups(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]DuplicateGroup, 0, len(groups))
	for _, g := range groups {
		entries, err := s.store.ByIDs(ctx, g.ids)
		if err != nil {
			return nil, fmt.Errorf("load duplicates: %w", err)
		}
		if len(entries) > 1 {
			out = append(out, DuplicateGroup{Reason: g.reason, Entries: entries})
		}
	}
	return out, nil
}

// MaxDuplicatesPage is the most groups one page of DuplicatesPage holds.
const MaxDuplicatesPage = 500

// DuplicatesPage is one page of the duplicate groups and how many groups
// there are in all.
type DuplicatesPage struct {
	Groups []DuplicateGroup
	Total  int
}

// DuplicatesPaged lists limit groups from offset, in the order of
// Duplicates: only the page's records are read, so a library with many
// groups costs the grouping and one page, not every record of every
// group. A group whose records went between the grouping and the read is
// left out of its page.
func (s *Service) DuplicatesPaged(ctx context.Context, limit, offset int) (DuplicatesPage, error) {
	if limit < 1 || limit > MaxDuplicatesPage {
		return DuplicatesPage{}, domain.ErrInvalid("invalid query parameter",
			map[string]string{"limit": "must be between 1 and " + strconv.Itoa(MaxDuplicatesPage)})
	}
	if offset < 0 {
		return DuplicatesPage{}, domain.ErrInvalid("invalid query parameter", map[string]string{"offset": "must not be negative"})
	}
	groups, err := s.duplicateGroups(ctx)
	if err != nil {
		return DuplicatesPage{}, err
	}
	page := DuplicatesPage{Total: len(groups), Groups: []DuplicateGroup{}}
	if offset >= len(groups) {
		return page, nil
	}
	for _, g := range groups[offset:min(offset+limit, len(groups))] {
		entries, err := s.store.ByIDs(ctx, g.ids)
		if err != nil {
			return DuplicatesPage{}, fmt.Errorf("load duplicates: %w", err)
		}
		if len(entries) > 1 {
			page.Groups = append(page.Groups, DuplicateGroup{Reason: g.reason, Entries: entries})
		}
	}
	return page, nil
}

func (s *Service) duplicateGroups(ctx context.Context) ([]idGroup, error) {
	byTitle, err := s.titleGroups(ctx)
	if err != nil {
		return nil, err
	}
	byContent, err := s.contentGroups(ctx)
	if err != nil {
		return nil, err
	}
	return append(byTitle, byContent...), nil
}

// titleGroups joins movies and series that share a normalised title, a
// year and a type; any one shared searchable field is enough ("Матрица"
// with title_orig "The Matrix" meets "The Matrix"): a work is the same
// whichever of its names two records agree on, so no field is special.
func (s *Service) titleGroups(ctx context.Context) ([]idGroup, error) {
	parent := map[int64]int64{}
	find := func(x int64) int64 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	first := map[string]int64{}
	err := s.store.Keys(ctx, func(k domain.MediaKey) error {
		if k.Year == 0 || (k.Type != domain.MediaMovie && k.Type != domain.MediaSeries) {
			return nil
		}
		parent[k.ID] = k.ID
		for _, t := range k.Titles {
			if t == "" {
				continue
			}
			key := k.Type + "|" + strconv.Itoa(k.Year) + "|" + t
			if id, ok := first[key]; ok {
				parent[find(k.ID)] = find(id)
			} else {
				first[key] = k.ID
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("find duplicate titles: %w", err)
	}
	members := map[int64][]int64{}
	for id := range parent {
		r := find(id)
		members[r] = append(members[r], id)
	}
	return sortedGroups(members, DuplicateSameTitleYear), nil
}

// contentGroups hashes the files that share a size with another file
// (computing and storing the hashes still missing) and groups equal ones.
func (s *Service) contentGroups(ctx context.Context) ([]idGroup, error) {
	files, err := s.store.SharedSizeFiles(ctx)
	if err != nil {
		return nil, fmt.Errorf("find duplicate files: %w", err)
	}
	fresh := s.hashMissing(ctx, files)
	if len(fresh) > 0 {
		if err := s.store.SetContentHashes(ctx, fresh); err != nil {
			return nil, fmt.Errorf("store content hashes: %w", err)
		}
	}
	members := map[string][]int64{}
	for _, f := range files {
		if f.Hash != "" {
			key := strconv.FormatInt(f.Size, 10) + "|" + f.Hash
			members[key] = append(members[key], f.ID)
		}
	}
	byKey := map[int64][]int64{}
	for _, ids := range members {
		byKey[ids[0]] = ids
	}
	return sortedGroups(byKey, DuplicateSameContent), ctx.Err()
}

// hashMissing fills in the hashes of files that have none yet, a few files
// at a time; a file that cannot be read keeps an empty hash.
func (s *Service) hashMissing(ctx context.Context, files []domain.FileHash) []domain.FileHash {
	var mu sync.Mutex
	var fresh []domain.FileHash
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i := range files {
		if files[i].Hash != "" || ctx.Err() != nil {
			continue
		}
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			h, err := s.partialHash(files[i].Path, files[i].Size)
			if err != nil {
				return
			}
			files[i].Hash = h
			mu.Lock()
			fresh = append(fresh, files[i])
			mu.Unlock()
		})
	}
	wg.Wait()
	return fresh
}

// partialHash is SHA-256 over the size and the start, middle and end of a
// file (the whole file when it is small).
func (s *Service) partialHash(path string, size int64) (string, error) {
	f, err := s.fs.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	fmt.Fprintf(h, "%d\n", size)
	offsets := []int64{0}
	if size > 3*hashChunk {
		offsets = append(offsets, size/2-hashChunk/2, size-hashChunk)
	}
	buf := make([]byte, hashChunk)
	if size <= 3*hashChunk {
		buf = make([]byte, size)
	}
	for _, off := range offsets {
		n, err := f.ReadAt(buf, off)
		if err != nil && err != io.EOF {
			return "", err
		}
		h.Write(buf[:n])
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// sortedGroups keeps groups of two or more, members and groups in id order.
func sortedGroups(members map[int64][]int64, reason string) []idGroup {
	var out []idGroup
	for _, ids := range members {
		if len(ids) < 2 {
			continue
		}
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
		out = append(out, idGroup{reason: reason, ids: ids})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ids[0] < out[j].ids[0] })
	return out
}
