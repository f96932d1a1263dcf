package localfs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"mediateka/domain"
)

// rootsFile is search_dirs.json: {"dirs": [{"path": "/srv/films", "disk":
// "Disk 1"}, "/srv/series"]}; a plain string is a path whose disk name is
// its folder name. A bare array of entries is accepted too.
type rootsFile struct {
	Dirs []rootEntry `json:"dirs"`
}

type rootEntry struct {
	Path string `json:"path"`
	Disk string `json:"disk"`
}

// UnmarshalJSON accepts a string or an object.
func (e *rootEntry) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &e.Path)
	}
	type plain rootEntry
	return json.Unmarshal(b, (*plain)(e))
}

// LoadRoots reads the library folders from search_dirs.json. An absent file
// means no folders (with a warning, so the server still starts); a file that
// is not valid, a relative path or a folder inside another is an error that
// lists every problem. Whether the folders exist is checked later, at each
// scan, since a disk may be plugged in after start.
func LoadRoots(path string) ([]domain.Root, []string, error) {
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, []string{fmt.Sprintf("%s not found: the media library has no folders to scan", path)}, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", path, err)
	}
	var f rootsFile
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '[' {
		err = json.Unmarshal(raw, &f.Dirs)
	} else {
		err = json.Unmarshal(raw, &f)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s is not valid: %w", path, err)
	}
	roots, problems, warnings := checkRoots(f.Dirs)
	if len(problems) > 0 {
		return nil, warnings, fmt.Errorf("%s is not valid:\n  - %s", path, strings.Join(problems, "\n  - "))
	}
	return roots, warnings, nil
}

func checkRoots(entries []rootEntry) (roots []domain.Root, problems, warnings []string) {
	seen := map[string]bool{}
	for i, e := range entries {
		switch {
		case strings.TrimSpace(e.Path) == "":
			problems = append(problems, fmt.Sprintf("dirs[%d]: the path is empty", i))
			continue
		case !filepath.IsAbs(e.Path):
			problems = append(problems, fmt.Sprintf("dirs[%d]: %q is not an absolute path", i, e.Path))
			continue
		}
		p := filepath.Clean(e.Path)
		if seen[p] {
			warnings = append(warnings, fmt.Sprintf("dirs[%d]: %s is listed twice", i, p))
			continue
		}
		seen[p] = true
		disk := strings.TrimSpace(e.Disk)
		if disk == "" {
			disk = filepath.Base(p)
		}
		roots = append(roots, domain.Root{Path: p, Disk: disk})
	}
	paths := make([]string, len(roots))
	for i, r := range roots {
		paths[i] = r.Path
	}
	for _, c := range domain.RootConflicts(paths) { // duplicates were skipped above
		problems = append(problems, fmt.Sprintf("%s is inside %s: list only the outer folder", roots[c.I].Path, roots[c.J].Path))
	}
	return roots, problems, warnings
}
