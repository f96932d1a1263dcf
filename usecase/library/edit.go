package library

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"unicode/utf8"

	"mediateka/domain"
)

// Patch is a person's change to one record: field names (columns) to new
// values as encoding/json decodes them (string, float64 or json.Number,
// []any, map[string]any, nil to clear). Unknown names are ignored.
type Patch map[string]any

// Limits of edited values, in characters.
const (
	maxTitleChars = 500
	maxTextChars  = 20000
	maxListItems  = 200
)

// readOnlyFields are stored or shown but never edited: the fields the
// table does not mark editable (where the file is, what the scanner alone
// knows) and the bookkeeping columns outside the table.
func readOnlyFields() []string {
	ro := []string{"id", "size", "mtime", "modified_at", "edited_fields", "created_at", "updated_at", "children",
		"content_hash", "title_norm"}
	for _, f := range domain.MediaFields() {
		if !f.Is(domain.FieldEditable) {
			ro = append(ro, f.Name)
		}
	}
	return ro
}

// Edit applies a person's changes to record id and remembers the fields as
// edited, so no later scan or AI classification overwrites them. Every
// invalid field is reported at once.
func (s *Service) Edit(ctx context.Context, id int64, p Patch) (domain.Media, error) {
	m, err := s.store.ByID(ctx, id)
	if err != nil {
		return domain.Media{}, err
	}
	problems := map[string]string{}
	var cols []string
	for _, name := range sortedKeys(p) {
		if slices.Contains(readOnlyFields(), name) {
			problems[name] = "cannot be changed"
			continue
		}
		ok, why := s.applyField(ctx, &m, name, p[name])
		if why != "" {
			problems[name] = why
		}
		if ok && why == "" {
			cols = append(cols, name)
		}
	}
	if err := editError(problems); err != nil {
		return domain.Media{}, err
	}
	if len(cols) == 0 {
		return domain.Media{}, domain.ErrInvalid("nothing to change: name at least one editable field", nil)
	}
	for _, c := range cols {
		if !m.Edited(c) {
			m.EditedFields = append(m.EditedFields, c)
		}
	}
	sort.Strings(m.EditedFields)
	out, err := s.store.Update(ctx, m, append(cols, "edited_fields"))
	if err != nil {
		return domain.Media{}, fmt.Errorf("edit media %d: %w", id, err)
	}
	s.changed()
	s.settle(ctx)
	return out, nil
}

// editError names the most specific code when a single kind of problem
// occurred (an unknown type or category), else the generic one.
func editError(problems map[string]string) error {
	if len(problems) == 0 {
		return nil
	}
	if len(problems) == 1 {
		if why, ok := problems["media_type"]; ok && why == domain.ErrInvalidType.Message {
			e := *domain.ErrInvalidType
			e.Fields = problems
			return &e
		}
		if why, ok := problems["main_category"]; ok && why == domain.ErrInvalidCategory.Message {
			e := *domain.ErrInvalidCategory
			e.Fields = problems
			return &e
		}
	}
	return domain.ErrInvalid("some fields are invalid", problems)
}

// applyField sets one field of m. known is false for names that are not
// editable fields (ignored); why says what is wrong with the value. The
// field's kind picks the rule; a few fields have their own.
func (s *Service) applyField(ctx context.Context, m *domain.Media, name string, v any) (known bool, why string) {
	f, ok := domain.MediaFieldNamed(name)
	if !ok || !f.Is(domain.FieldEditable) {
		return false, ""
	}
	switch name {
	case "media_type":
		return true, setMediaType(m, v)
	case "main_category":
		return true, setCategory(m, v)
	case "parent_id":
		return true, s.setParent(ctx, m, v)
	}
	switch p := f.Ref(m).(type) {
	case *string:
		limit := maxTextChars
		if f.Is(domain.FieldSearchable) {
			limit = maxTitleChars
		}
		return true, setText(p, v, limit)
	case **int:
		lo, hi := s.intRange(name)
		return true, setInt(p, v, lo, hi)
	case *int:
		lo, hi := s.intRange(name)
		var n *int
		why := setInt(&n, v, lo, hi)
		if why == "" && n != nil {
			*p = *n
		}
		return true, why
	case *[]string:
		return true, setList(p, v)
	case *[]int:
		return true, setIntList(p, v)
	case *map[string]float64:
		return true, setRating(p, v)
	}
	return true, "cannot be changed"
}

// intRange is the range a person may set a number field to.
func (s *Service) intRange(name string) (lo, hi int) {
	switch name {
	case "year":
		return 1870, s.opt.Now().Year() + 5
	case "episode_scan_skipped":
		return 0, 1
	}
	return 0, 100000
}

func setText(dst *string, v any, limit int) string {
	if v == nil {
		*dst = ""
		return ""
	}
	s, ok := v.(string)
	if !ok {
		return "must be a string"
	}
	if utf8.RuneCountInString(s) > limit {
		return fmt.Sprintf("must be at most %d characters", limit)
	}
	*dst = s
	return ""
}

func setList(dst *[]string, v any) string {
	if v == nil {
		*dst = nil
		return ""
	}
	items, ok := v.([]any)
	if !ok {
		return "must be an array of strings"
	}
	if len(items) > maxListItems {
		return fmt.Sprintf("must have at most %d items", maxListItems)
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		s, ok := it.(string)
		if !ok {
			return "must be an array of strings"
		}
		if utf8.RuneCountInString(s) > maxTitleChars {
			return fmt.Sprintf("items must be at most %d characters", maxTitleChars)
		}
		out = append(out, s)
	}
	*dst = out
	return ""
}

// toInt accepts a JSON number that is a whole number.
func toInt(v any) (int, bool) {
	var f float64
	switch n := v.(type) {
	case float64:
		f = n
	case json.Number:
		x, err := n.Float64()
		if err != nil {
			return 0, false
		}
		f = x
	case int:
		return n, true
	default:
		return 0, false
	}
	if f != math.Trunc(f) || math.Abs(f) > 1e15 {
		return 0, false
	}
	return int(f), true
}

func setInt(dst **int, v any, lo, hi int) string {
	if v == nil {
		*dst = nil
		return ""
	}
	n, ok := toInt(v)
	if !ok {
		return "must be a whole number"
	}
	if n < lo || n > hi {
		return fmt.Sprintf("must be between %d and %d", lo, hi)
	}
	*dst = &n
	return ""
}

func setIntList(dst *[]int, v any) string {
	if v == nil {
		*dst = nil
		return ""
	}
	items, ok := v.([]any)
	if !ok || len(items) > maxListItems {
		return "must be an array of at most 200 whole numbers"
	}
	out := make([]int, 0, len(items))
	for _, it := range items {
		n, ok := toInt(it)
		if !ok || n < 0 {
			return "must be an array of whole numbers, 0 or more"
		}
		out = append(out, n)
	}
	*dst = out
	return ""
}

func setRating(dst *map[string]float64, v any) string {
	if v == nil {
		*dst = nil
		return ""
	}
	obj, ok := v.(map[string]any)
	if !ok || len(obj) > maxListItems {
		return "must be an object of scores by rating source"
	}
	out := make(map[string]float64, len(obj))
	for k, x := range obj {
		switch n := x.(type) {
		case float64:
			out[k] = n
		case json.Number:
			f, err := n.Float64()
			if err != nil {
				return "scores must be numbers"
			}
			out[k] = f
		default:
			return "scores must be numbers"
		}
	}
	*dst = out
	return ""
}

func setMediaType(m *domain.Media, v any) string {
	s, ok := v.(string)
	if !ok || !domain.ValidMediaType(s) {
		return domain.ErrInvalidType.Message
	}
	m.MediaType = s
	return ""
}

// setCategory accepts a category slug or any of its names ("Боевики").
func setCategory(m *domain.Media, v any) string {
	if v == nil {
		m.MainCategory = ""
		return ""
	}
	s, ok := v.(string)
	if !ok {
		return "must be a string"
	}
	if s == "" {
		m.MainCategory = ""
		return ""
	}
	if c, ok := domain.CategoryBySlug(s); ok {
		m.MainCategory = c.Slug
		return ""
	}
	if slug := domain.CategoryForName(s); slug != "" {
		m.MainCategory = slug
		return ""
	}
	return domain.ErrInvalidCategory.Message
}

// setParent moves a record under another; the parent must exist and must
// not be the record or one of its descendants.
func (s *Service) setParent(ctx context.Context, m *domain.Media, v any) string {
	id, ok := toInt(v)
	if v == nil {
		id, ok = 0, true
	}
	if !ok || id < 0 {
		return "must be the id of another entry, or 0"
	}
	for cur, depth := int64(id), 0; cur != 0; depth++ {
		if cur == m.ID || depth > 16 {
			return "would put the entry inside itself"
		}
		p, err := s.store.ByID(ctx, cur)
		if err != nil {
			return "no entry has this id"
		}
		cur = p.ParentID
	}
	m.ParentID = int64(id)
	return ""
}

func sortedKeys(p Patch) []string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
