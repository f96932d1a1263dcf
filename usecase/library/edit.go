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

// readOnlyFields are stored but never edited: where the file is, and what
// the scanner alone knows.
func readOnlyFields() []string {
	return []string{"id", "path", "disk_name", "status", "size", "mtime", "modified_at", "edited_fields",
		"created_at", "updated_at", "children", "content_hash", "title_norm"}
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
// editable fields (ignored); why says what is wrong with the value.
func (s *Service) applyField(ctx context.Context, m *domain.Media, name string, v any) (known bool, why string) {
	if p := textField(m, name); p != nil {
		limit := maxTextChars
		if name == "title" || name == "title_ru" || name == "title_orig" {
			limit = maxTitleChars
		}
		return true, setText(p, v, limit)
	}
	if p := listField(m, name); p != nil {
		return true, setList(p, v)
	}
	switch name {
	case "year":
		return true, setInt(&m.Year, v, 1870, s.opt.Now().Year()+5)
	case "num_of_seasons", "number":
		target := &m.NumOfSeasons
		if name == "number" {
			target = &m.Number
		}
		return true, setInt(target, v, 0, 100000)
	case "episode_scan_skipped":
		var n *int
		why := setInt(&n, v, 0, 1)
		if why == "" && n != nil {
			m.EpisodeScanSkipped = *n
		}
		return true, why
	case "media_type":
		return true, setMediaType(m, v)
	case "main_category":
		return true, setCategory(m, v)
	case "num_episodes_per_season":
		return true, setIntList(&m.NumEpisodesPerSeason, v)
	case "rating":
		return true, setRating(&m.Rating, v)
	case "parent_id":
		return true, s.setParent(ctx, m, v)
	}
	return false, ""
}

func textField(m *domain.Media, name string) *string {
	switch name {
	case "title":
		return &m.Title
	case "title_ru":
		return &m.TitleRu
	case "title_orig":
		return &m.TitleOrig
	case "country":
		return &m.Country
	case "plot":
		return &m.Plot
	case "atmosphere":
		return &m.Atmosphere
	case "why_watch":
		return &m.WhyWatch
	case "mood":
		return &m.Mood
	case "final_verdict":
		return &m.FinalVerdict
	case "can_stop_at":
		return &m.CanStopAt
	case "quote":
		return &m.Quote
	}
	return nil
}

func listField(m *domain.Media, name string) *[]string {
	switch name {
	case "genres":
		return &m.Genres
	case "directors":
		return &m.Directors
	case "cast":
		return &m.Cast
	case "awards":
		return &m.Awards
	case "facts":
		return &m.Facts
	case "similar":
		return &m.Similar
	}
	return nil
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
