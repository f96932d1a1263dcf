package release

import (
	"slices"
	"time"
)

// memoSize is how many folder lists a Parser remembers. A scan lists a
// folder's files together, so the last few lists get nearly every hit: the
// file's own folder, plus the folders its season and series are read from.
const memoSize = 4

// Parser parses names like ParseAt with a fixed clock, remembering what the
// last few folder lists said, so the files of one folder read their season
// and series folders once instead of once per file. Its results are
// exactly ParseAt's. A Parser is not safe for concurrent use: give each
// goroutine its own. The zero value is not usable; call NewParser.
type Parser struct {
	maxYear int
	// memo holds the most recently used folder lists first. The parses in
	// a folders value are shared by every file that hits it and are never
	// changed after readFolders returns (see fromReleaseFolder, which
	// copies before changing one).
	memo []memoEntry
}

type memoEntry struct {
	parents []string
	dirs    folders
}

// NewParser returns a Parser whose years are bounded by now, like ParseAt's.
func NewParser(now time.Time) *Parser {
	return &Parser{maxYear: now.Year() + 1, memo: make([]memoEntry, 0, memoSize)}
}

// Parse is ParseAt(fileName, parents, now) for the Parser's now.
func (p *Parser) Parse(fileName string, parents []string) Release {
	return parseWith(fileName, p.folders(parents), p.maxYear)
}

// folders returns readFolders(parents), from the memo when the same list
// was read recently. An empty list is cheap to read and is not kept.
func (p *Parser) folders(parents []string) folders {
	if len(parents) == 0 {
		return readFolders(parents, p.maxYear)
	}
	for i, e := range p.memo {
		if slices.Equal(e.parents, parents) {
			copy(p.memo[1:i+1], p.memo[:i]) // move to the front
			p.memo[0] = e
			return e.dirs
		}
	}
	e := memoEntry{parents: slices.Clone(parents), dirs: readFolders(parents, p.maxYear)}
	if len(p.memo) < memoSize {
		p.memo = append(p.memo, memoEntry{})
	}
	copy(p.memo[1:], p.memo[:len(p.memo)-1]) // drop the least recent when full
	p.memo[0] = e
	return e.dirs
}
