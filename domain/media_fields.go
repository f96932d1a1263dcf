package domain

// FieldKind is how a media field is stored (a column of the media table)
// and shown (a member of the API's media entry).
type FieldKind uint8

// The kinds of media fields.
const (
	// FieldText is text: empty is stored NULL and shown null unless the
	// field is FieldNotNull.
	FieldText FieldKind = iota + 1
	// FieldInt is a whole number: an optional one (a *int in Media) that
	// is unknown is stored NULL and shown null.
	FieldInt
	// FieldArray is a list kept as JSON text and shown decoded, [] when
	// empty.
	FieldArray
	// FieldObject is an object kept as JSON text and shown decoded, {}
	// when empty.
	FieldObject
)

// FieldFlags say who may write a media field and what it serves.
type FieldFlags uint8

// The roles of a media field.
const (
	// FieldEditable: a person may change it (PATCH /api/media-admin/media/{id}).
	FieldEditable FieldFlags = 1 << iota
	// FieldScanned: the scanner owns it and rewrites it from the disk and
	// the file name, unless a person edited it.
	FieldScanned
	// FieldClassified: AI classification may fill it while it is empty
	// and no person edited it.
	FieldClassified
	// FieldSearchable: one of the titles the title search matches. Such
	// a field is FieldText; the store's search key (title_norm) and
	// MediaKey.Titles are made of exactly these fields, in table order.
	FieldSearchable
	// FieldNotNull: never NULL, stored and shown as is even when empty.
	FieldNotNull
	// FieldDocument: part of the document text semantic search (RAG)
	// embeds for a record: what it is called and what it is about, never
	// where its file lies or how it is stored.
	FieldDocument
	// FieldSpoken: prose a person may have read aloud (GET /api/tts/*
	// with media_id and field); a text or a list of sentences.
	FieldSpoken
)

// MediaField describes one field of Media as every layer sees it. The
// store's row mapping, edits, the scan writer, the classification schema
// and the API's entry all iterate over MediaFields, so a new column is one
// line there plus a migration.
type MediaField struct {
	// Name is the column name and the JSON name.
	Name  string
	Kind  FieldKind
	Flags FieldFlags
	// Ref points at the field in m: *string for FieldText; **int
	// (optional), *int or *int64 for FieldInt; *[]string or *[]int for
	// FieldArray; *map[string]float64 for FieldObject. A typed pointer
	// keeps the hot paths (a scan writes 100 000 rows) free of reflection.
	Ref func(m *Media) any
}

// Is reports whether the field has every flag of f.
func (mf MediaField) Is(f FieldFlags) bool { return mf.Flags&f == f }

// Empty reports whether the field holds no value in m: empty text, an
// unknown number, an empty list or object. A zero FieldNotNull number is a
// value, not empty.
func (mf MediaField) Empty(m *Media) bool {
	switch p := mf.Ref(m).(type) {
	case *string:
		return *p == ""
	case **int:
		return *p == nil
	case *[]string:
		return len(*p) == 0
	case *[]int:
		return len(*p) == 0
	case *map[string]float64:
		return len(*p) == 0
	}
	return false
}

// MediaFields returns the fields of a media record in column order, every
// stored column but the bookkeeping ones (id, size, mtime, edited_fields,
// created_at, updated_at, and the store's own title_norm, content_hash and
// classified_at), which each have a rule of their own. It is a function so
// that nobody changes the table at run time; hot paths keep one copy.
func MediaFields() []MediaField {
	const (
		edit, scan, ai, search, notNull, doc, spoken = FieldEditable, FieldScanned, FieldClassified, FieldSearchable, FieldNotNull, FieldDocument, FieldSpoken
	)
	return []MediaField{
		{"disk_name", FieldText, scan | notNull, func(m *Media) any { return &m.DiskName }},
		{"path", FieldText, notNull, func(m *Media) any { return &m.Path }},
		{"title", FieldText, edit | scan | search | doc, func(m *Media) any { return &m.Title }},
		{"title_ru", FieldText, edit | scan | ai | search | doc, func(m *Media) any { return &m.TitleRu }},
		{"title_orig", FieldText, edit | scan | ai | search | doc, func(m *Media) any { return &m.TitleOrig }},
		{"year", FieldInt, edit | scan | ai | doc, func(m *Media) any { return &m.Year }},
		{"main_category", FieldText, edit | scan | ai | doc, func(m *Media) any { return &m.MainCategory }},
		{"country", FieldText, edit | ai | doc, func(m *Media) any { return &m.Country }},
		{"status", FieldText, scan, func(m *Media) any { return &m.Status }},
		{"genres", FieldArray, edit | ai | doc, func(m *Media) any { return &m.Genres }},
		{"directors", FieldArray, edit | ai | doc, func(m *Media) any { return &m.Directors }},
		{"cast", FieldArray, edit | ai | doc, func(m *Media) any { return &m.Cast }},
		{"awards", FieldArray, edit, func(m *Media) any { return &m.Awards }},
		{"facts", FieldArray, edit | spoken, func(m *Media) any { return &m.Facts }},
		{"similar", FieldArray, edit, func(m *Media) any { return &m.Similar }},
		{"num_episodes_per_season", FieldArray, edit, func(m *Media) any { return &m.NumEpisodesPerSeason }},
		{"rating", FieldObject, edit, func(m *Media) any { return &m.Rating }},
		{"num_of_seasons", FieldInt, edit, func(m *Media) any { return &m.NumOfSeasons }},
		{"number", FieldInt, edit | scan, func(m *Media) any { return &m.Number }},
		{"plot", FieldText, edit | ai | doc | spoken, func(m *Media) any { return &m.Plot }},
		{"atmosphere", FieldText, edit | ai | doc | spoken, func(m *Media) any { return &m.Atmosphere }},
		{"why_watch", FieldText, edit | ai | doc | spoken, func(m *Media) any { return &m.WhyWatch }},
		{"mood", FieldText, edit | ai | doc, func(m *Media) any { return &m.Mood }},
		{"final_verdict", FieldText, edit | ai | spoken, func(m *Media) any { return &m.FinalVerdict }},
		{"can_stop_at", FieldText, edit, func(m *Media) any { return &m.CanStopAt }},
		{"quote", FieldText, edit, func(m *Media) any { return &m.Quote }},
		{"parent_id", FieldInt, edit | scan | notNull, func(m *Media) any { return &m.ParentID }},
		{"episode_scan_skipped", FieldInt, edit | scan | notNull, func(m *Media) any { return &m.EpisodeScanSkipped }},
		{"media_type", FieldText, edit | scan | doc, func(m *Media) any { return &m.MediaType }},
	}
}

// MediaFieldNames returns the names of the fields that have every flag of
// f, in column order.
func MediaFieldNames(f FieldFlags) []string {
	var out []string
	for _, mf := range MediaFields() {
		if mf.Is(f) {
			out = append(out, mf.Name)
		}
	}
	return out
}

// MediaFieldNamed returns the field called name.
func MediaFieldNamed(name string) (MediaField, bool) {
	for _, mf := range MediaFields() {
		if mf.Name == name {
			return mf, true
		}
	}
	return MediaField{}, false
}
