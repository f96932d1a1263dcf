package library

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"mediateka/domain"
)

// Limits of a scan request: enough for any person, small enough that a
// request cannot make the server stat a million paths.
const (
	maxScanPaths  = 100
	maxPathLength = 4096
)

// target is one folder (or video file) a scan walks, with its root.
type target struct {
	path   string
	root   domain.Root
	isFile bool
}

// targetsIn turns a request into the folders of roots to walk: the roots (of one disk
// when Disk is set) or the requested paths, which must be absolute, inside
// a root and present. Nested paths collapse into the outer one.
func (s *Service) targetsIn(roots []domain.Root, req ScanRequest) ([]target, error) {
	if len(roots) == 0 {
		return nil, domain.ErrNoRoots
	}
	if req.Disk != "" {
		roots = slices.DeleteFunc(slices.Clone(roots), func(r domain.Root) bool { return r.Disk != req.Disk })
		if len(roots) == 0 {
			return nil, invalidScan("unknown_disk", "disk", "no library folder has this disk name")
		}
	}
	if len(req.Paths) == 0 {
		out := make([]target, 0, len(roots))
		for _, r := range roots {
			out = append(out, target{path: r.Path, root: r})
		}
		return collapse(out), nil
	}
	if len(req.Paths) > maxScanPaths {
		return nil, invalidScan("invalid_input", "paths", "at most 100 paths")
	}
	out := make([]target, 0, len(req.Paths))
	for _, p := range req.Paths {
		t, err := s.resolvePath(p, roots)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return collapse(out), nil
}

// resolvePath checks one requested path.
func (s *Service) resolvePath(p string, roots []domain.Root) (target, error) {
	switch {
	case len(p) > maxPathLength || strings.ContainsRune(p, 0):
		return target{}, invalidScan("invalid_path", "paths", "a path is too long or contains a NUL byte")
	case !filepath.IsAbs(p):
		return target{}, invalidScan("path_not_absolute", "paths", "must be absolute paths: "+domain.QuotePath(p))
	}
	clean := filepath.Clean(p)
	root, ok := rootOf(clean, roots)
	if !ok {
		return target{}, invalidScan("path_outside_roots", "paths", "is not inside a library folder: "+domain.QuotePath(clean))
	}
	info, err := s.fs.Stat(clean)
	if err != nil {
		return target{}, invalidScan("path_not_found", "paths", "does not exist or cannot be read: "+domain.QuotePath(clean))
	}
	if !info.IsDir() && !(info.Mode().IsRegular() && isVideo(clean)) {
		return target{}, invalidScan("invalid_path", "paths", "is neither a folder nor a video file: "+domain.QuotePath(clean))
	}
	return target{path: clean, root: root, isFile: !info.IsDir()}, nil
}

// rootOf finds the innermost root that contains p.
func rootOf(p string, roots []domain.Root) (domain.Root, bool) {
	best, found := domain.Root{}, false
	for _, r := range roots {
		if domain.PathWithin(r.Path, p) && (!found || len(r.Path) > len(best.Path)) {
			best, found = r, true
		}
	}
	return best, found
}

// collapse drops targets inside another target.
func collapse(ts []target) []target {
	return domain.CollapseNested(ts, func(t target) string { return t.path })
}

func targetPaths(ts []target) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.path
	}
	return out
}

func invalidScan(code, field, reason string) error {
	return &domain.Error{Kind: domain.KindInvalid, Code: code, Message: "the scan request is invalid: " + reason,
		Fields: map[string]string{field: reason}}
}

// describeFSError names a file-system failure for people.
func describeFSError(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "does not exist"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case errors.Is(err, syscall.ELOOP):
		return "too many levels of symbolic links"
	case errors.Is(err, syscall.ENAMETOOLONG):
		return "name too long"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
