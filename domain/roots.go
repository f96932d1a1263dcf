package domain

import "path/filepath"

// RootConflict says that library folder I is folder J again (Same) or lies
// inside it, J < I for the same folder. Its files would be catalogued twice.
type RootConflict struct {
	I, J int
	Same bool
}

// RootConflicts finds, for each of the clean absolute paths, the first
// earlier path that is the same folder, or else any path that holds it.
// Each path's ancestors are looked up in an index, so thousands of
// folders cost thousands of lookups, not millions of comparisons. The
// loader of search_dirs.json and the check of PUT /roots share it.
func RootConflicts(paths []string) []RootConflict {
	var out []RootConflict
	index := make(map[string]int, len(paths))
	for i, p := range paths {
		if j, dup := index[p]; dup {
			out = append(out, RootConflict{I: i, J: j, Same: true})
			continue
		}
		index[p] = i
	}
	for i, p := range paths {
		if index[p] != i {
			continue // reported as the same folder
		}
		for d := p; d != "/" && d != "."; {
			d = filepath.Dir(d)
			if j, ok := index[d]; ok {
				out = append(out, RootConflict{I: i, J: j})
				break
			}
		}
	}
	return out
}
