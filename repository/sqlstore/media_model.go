package sqlstore

import (
	"database/sql"
	"encoding/json"
	"strings"
	"time"

	"mediateka/domain"
)

// Bookkeeping columns a write may name besides the fields of
// domain.MediaFields: the file's state as last scanned and the fields a
// person edited. Each has a rule of its own (see value).
const (
	colSize   = "size"
	colMtime  = "mtime"
	colEdited = "edited_fields"
)

// mediaColumns is the store's view of domain.MediaFields, built once per
// repository: the SELECT list rows are read from, the columns an insert may
// write, and the field of each column name.
type mediaColumns struct {
	fields []domain.MediaField
	byName map[string]int
	// sel lists the columns a row is read from, in read order.
	sel string
	// insert are the columns an insert may write (title_norm, created_at
	// and updated_at are added by the writer).
	insert []string
	// search are the searchable fields, in table order: title_norm holds
	// their normalised values and MediaKey.Titles reads them back.
	search []domain.MediaField
	// searchSel selects the searchable columns, in the order of search.
	searchSel string
}

func newMediaColumns() *mediaColumns {
	c := &mediaColumns{fields: domain.MediaFields(), byName: map[string]int{}}
	quoted := []string{"id"}
	var searched []string
	for i, f := range c.fields {
		c.byName[f.Name] = i
		c.insert = append(c.insert, f.Name)
		quoted = append(quoted, quoteColumn(f.Name))
		if f.Is(domain.FieldSearchable) {
			if f.Kind != domain.FieldText {
				panic("sqlstore: searchable media field " + f.Name + " is not text")
			}
			c.search = append(c.search, f)
			searched = append(searched, quoteColumn(f.Name))
		}
	}
	c.searchSel = strings.Join(searched, ", ")
	c.insert = append(c.insert, colSize, colMtime, colEdited)
	quoted = append(quoted, colSize, colMtime, colEdited, "created_at", "updated_at")
	c.sel = strings.Join(quoted, ", ")
	return c
}

// value is the stored value of column col of m: NULL for empty text,
// unknown numbers and empty lists, JSON text for lists and objects. An
// unknown name is a programming error and panics in tests rather than
// write garbage.
func (c *mediaColumns) value(m *domain.Media, col string) any {
	if i, ok := c.byName[col]; ok {
		return fieldValue(c.fields[i], m)
	}
	switch col {
	case colSize:
		if !m.HasFile() {
			return nil
		}
		return m.Size
	case colMtime:
		if !m.HasFile() {
			return nil
		}
		return m.ModTime.UnixNano()
	case colEdited:
		return jsonList(m.EditedFields)
	}
	panic("sqlstore: unknown media column " + col)
}

// fieldValue is the stored value of field f of m.
func fieldValue(f domain.MediaField, m *domain.Media) any {
	switch p := f.Ref(m).(type) {
	case *string:
		if *p == "" && !f.Is(domain.FieldNotNull) {
			return nil
		}
		return *p
	case **int:
		if *p == nil {
			return nil
		}
		return **p
	case *int:
		return *p
	case *int64:
		return *p
	case *[]string:
		return jsonList(*p)
	case *[]int:
		return jsonList(*p)
	case *map[string]float64:
		if len(*p) == 0 {
			return nil
		}
		return jsonText(*p)
	}
	panic("sqlstore: media field " + f.Name + " has no storage rule")
}

// jsonList encodes a list, NULL when it is empty.
func jsonList[T any](v []T) any {
	if len(v) == 0 {
		return nil
	}
	return jsonText(v)
}

// jsonText encodes v as JSON text (NULL if it cannot be encoded).
func jsonText(v any) any {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return string(raw)
}

// rowScanner is *sql.Rows or *sql.Row.
type rowScanner interface{ Scan(dest ...any) error }

// rowReader reads rows selected with mediaColumns.sel into domain.Media,
// reusing its holders from row to row: hot paths (streaming the whole
// catalogue) read this way instead of through GORM's reflection.
type rowReader struct {
	cols         *mediaColumns
	texts        []sql.NullString // by field index, for text, lists and objects
	ints         []sql.NullInt64  // by field index, for numbers
	id           int64
	size, mtime  sql.NullInt64
	edited       sql.NullString
	created, upd sql.NullTime
	dest         []any
}

func (c *mediaColumns) reader() *rowReader {
	r := &rowReader{cols: c, texts: make([]sql.NullString, len(c.fields)), ints: make([]sql.NullInt64, len(c.fields))}
	r.dest = append(r.dest, &r.id)
	for i, f := range c.fields {
		if f.Kind == domain.FieldInt {
			r.dest = append(r.dest, &r.ints[i])
		} else {
			r.dest = append(r.dest, &r.texts[i])
		}
	}
	r.dest = append(r.dest, &r.size, &r.mtime, &r.edited, &r.created, &r.upd)
	return r
}

// read scans one row.
func (r *rowReader) read(s rowScanner) (domain.Media, error) {
	if err := s.Scan(r.dest...); err != nil {
		return domain.Media{}, err
	}
	m := domain.Media{ID: r.id, Size: r.size.Int64, CreatedAt: r.created.Time.UTC(), UpdatedAt: r.upd.Time.UTC()}
	for i, f := range r.cols.fields {
		setField(f.Ref(&m), r.texts[i], r.ints[i])
	}
	if r.mtime.Valid {
		m.ModTime = time.Unix(0, r.mtime.Int64).UTC()
	}
	decodeJSON(r.edited, &m.EditedFields)
	return m, nil
}

// setField stores a column read from the database into the field p points at.
func setField(p any, text sql.NullString, n sql.NullInt64) {
	switch p := p.(type) {
	case *string:
		*p = text.String
	case **int:
		*p = intPtr(n)
	case *int:
		*p = int(n.Int64)
	case *int64:
		*p = n.Int64
	default:
		decodeJSON(text, p)
	}
}

// decodeJSON fills dst from a JSON text column. A value that is not valid
// JSON (written by an older tool) is shown as a one-element list when dst
// is a string list, and dropped otherwise: one bad cell must not make a
// whole catalogue unreadable.
func decodeJSON(col sql.NullString, dst any) {
	if !col.Valid || strings.TrimSpace(col.String) == "" {
		return
	}
	if json.Unmarshal([]byte(col.String), dst) == nil {
		return
	}
	if list, ok := dst.(*[]string); ok {
		*list = []string{col.String}
	}
}

func intPtr(n sql.NullInt64) *int {
	if !n.Valid {
		return nil
	}
	v := int(n.Int64)
	return &v
}

// quoteColumn quotes a column name for SQL ("cast" is a keyword).
func quoteColumn(c string) string { return `"` + c + `"` }

// searchable reports whether col is one of the titles title_norm is made of.
func (c *mediaColumns) searchable(col string) bool {
	i, ok := c.byName[col]
	return ok && c.fields[i].Is(domain.FieldSearchable)
}

// valueAt is value for insert[i], without a lookup by name for the fields.
func (c *mediaColumns) valueAt(i int, col string, m *domain.Media) any {
	if i < len(c.fields) {
		return fieldValue(c.fields[i], m)
	}
	return c.value(m, col)
}
