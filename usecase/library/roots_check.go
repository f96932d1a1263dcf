package library

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"mediateka/domain"
)

// Limits of a list of library folders: thousands of folders work, and a
// request still cannot make the server stat a million paths.
const (
	maxRoots       = 10000
	maxDiskName    = 200
	maxRootReports = 100
)

// rootProblems collects what is wrong with a list of folders, one message
// per field ("dirs[2].path"), at most maxRootReports of them.
type rootProblems struct {
	fields map[string]string
	more   int
}

func (p *rootProblems) add(i int, field, reason string) {
	key := fmt.Sprintf("dirs[%d].%s", i, field)
	if _, dup := p.fields[key]; dup {
		return
	}
	if len(p.fields) >= maxRootReports {
		p.more++
		return
	}
	p.fields[key] = reason
}

func (p *rootProblems) err() error {
	if len(p.fields) == 0 {
		return nil
	}
	if p.more > 0 {
		p.fields["dirs"] = fmt.Sprintf("%d more problems are not listed", p.more)
	}
	return domain.ErrInvalid("the library folders are invalid", p.fields)
}

// checkRoots validates a new list of library folders and returns it clean
// (paths cleaned, disk names trimmed or taken from the folder's name).
func checkRoots(fsys FileSystem, entries []domain.Root) ([]domain.Root, error) {
	if len(entries) > maxRoots {
		return nil, domain.ErrInvalid("too many library folders", map[string]string{"dirs": fmt.Sprintf("at most %d folders", maxRoots)})
	}
	probs := &rootProblems{fields: map[string]string{}}
	roots := make([]domain.Root, len(entries))
	for i, e := range entries {
		roots[i] = checkRoot(fsys, i, e, probs)
	}
	checkNesting(fsys, roots, probs)
	checkDisks(roots, probs)
	return roots, probs.err()
}

// checkRoot checks one entry on its own.
func checkRoot(fsys FileSystem, i int, e domain.Root, probs *rootProblems) domain.Root {
	switch {
	case e.Path == "":
		probs.add(i, "path", "must not be empty")
	case len(e.Path) > maxPathLength || strings.ContainsRune(e.Path, 0):
		probs.add(i, "path", "is too long or contains a NUL byte")
	case !filepath.IsAbs(e.Path):
		probs.add(i, "path", "must be an absolute path")
	}
	clean := filepath.Clean(e.Path)
	if _, bad := probs.fields[fmt.Sprintf("dirs[%d].path", i)]; !bad {
		info, err := fsys.Stat(clean)
		switch {
		case err != nil:
			probs.add(i, "path", "must be an existing folder: it "+describeFSError(err))
		case !info.IsDir():
			probs.add(i, "path", "must be a folder, not a file")
		}
	}
	disk := strings.TrimSpace(e.Disk)
	if disk == "" {
		disk = filepath.Base(clean)
	}
	if utf8.RuneCountInString(disk) > maxDiskName {
		probs.add(i, "disk", fmt.Sprintf("must be at most %d characters", maxDiskName))
	}
	return domain.Root{Path: clean, Disk: disk}
}

// checkNesting refuses a folder listed twice or inside another one, as
// written and once symbolic links are resolved: its files would be
// catalogued twice.
func checkNesting(fsys FileSystem, roots []domain.Root, probs *rootProblems) {
	written := make([]string, len(roots))
	real := make([]string, len(roots))
	for i, r := range roots {
		written[i], real[i] = r.Path, r.Path
		if p, err := fsys.RealPath(r.Path); err == nil {
			real[i] = p
		}
	}
	for _, paths := range [][]string{written, real} {
		for _, c := range domain.RootConflicts(paths) {
			if c.Same {
				probs.add(c.I, "path", fmt.Sprintf("is the same folder as dirs[%d]", c.J))
			} else {
				probs.add(c.I, "path", fmt.Sprintf("is inside dirs[%d] (%s): list only the outer folder", c.J, domain.QuotePath(roots[c.J].Path)))
			}
		}
	}
}

// checkDisks refuses a disk name used twice: the disk selects the folders
// of a scan and names where an entry lives.
func checkDisks(roots []domain.Root, probs *rootProblems) {
	seen := make(map[string]int, len(roots))
	for i, r := range roots {
		if j, dup := seen[r.Disk]; dup {
			probs.add(i, "disk", fmt.Sprintf("is already the disk name of dirs[%d]", j))
			continue
		}
		seen[r.Disk] = i
	}
}
