package domain

// MediaFacet is the light view of a record that questions about the
// catalogue are answered from ("how many comedies of 2010", "what to
// watch tonight"): what narrows, ranks and names an entry, without its
// long texts. Counting and suggesting walk thousands of entries, and reading
// whole records costs several times more. Genres slices may be shared
// between facets: read them, never change them.
type MediaFacet struct {
	ID           int64
	Type         string
	Title        string
	TitleRu      string
	TitleOrig    string
	Year         int // 0 when unknown
	MainCategory string
	Status       string
	Genres       []string
	Rating       map[string]float64
	// Described is true when the record says why to watch it or what it
	// is about (why_watch or plot is set).
	Described bool
}
