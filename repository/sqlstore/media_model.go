package sqlstore

import (
	"database/sql"
	"encoding/json"
	"strings"
	"time"

	"mediateka/domain"
)

// mediaRow is the GORM model of the media table. Optional columns are Null*
// so that "unknown" stays NULL in the file and zero values stay distinct.
type mediaRow struct {
	ID                   int64 `gorm:"primaryKey"`
	DiskName             string
	Path                 string
	Title                sql.NullString
	TitleRu              sql.NullString
	TitleOrig            sql.NullString
	Year                 sql.NullInt64
	MainCategory         sql.NullString
	Country              sql.NullString
	Status               sql.NullString
	Genres               sql.NullString
	Directors            sql.NullString
	Cast                 sql.NullString `gorm:"column:cast"`
	Awards               sql.NullString
	Facts                sql.NullString
	Similar              sql.NullString
	NumEpisodesPerSeason sql.NullString
	Rating               sql.NullString
	NumOfSeasons         sql.NullInt64
	Number               sql.NullInt64
	Plot                 sql.NullString
	Atmosphere           sql.NullString
	WhyWatch             sql.NullString
	Mood                 sql.NullString
	FinalVerdict         sql.NullString
	CanStopAt            sql.NullString
	Quote                sql.NullString
	ParentID             sql.NullInt64
	EpisodeScanSkipped   sql.NullInt64
	MediaType            sql.NullString
	Size                 sql.NullInt64
	Mtime                sql.NullInt64
	EditedFields         sql.NullString
	CreatedAt            sql.NullTime
	UpdatedAt            sql.NullTime
}

// TableName tells GORM the table of the model.
func (mediaRow) TableName() string { return "media" }

// mediaSelect lists the columns a mediaRow is read from, in scan order.
const mediaSelect = `id, disk_name, path, title, title_ru, title_orig, year, main_category, country, status,
	genres, directors, "cast", awards, facts, similar, num_episodes_per_season, rating, num_of_seasons, number,
	plot, atmosphere, why_watch, mood, final_verdict, can_stop_at, quote, parent_id, episode_scan_skipped,
	media_type, size, mtime, edited_fields, created_at, updated_at`

// rowScanner is *sql.Rows or *sql.Row.
type rowScanner interface{ Scan(dest ...any) error }

// scanMedia reads one row selected with mediaSelect. Hot paths (streaming
// the whole catalogue) use it instead of GORM's reflection.
func scanMedia(s rowScanner) (mediaRow, error) {
	var r mediaRow
	err := s.Scan(&r.ID, &r.DiskName, &r.Path, &r.Title, &r.TitleRu, &r.TitleOrig, &r.Year, &r.MainCategory,
		&r.Country, &r.Status, &r.Genres, &r.Directors, &r.Cast, &r.Awards, &r.Facts, &r.Similar,
		&r.NumEpisodesPerSeason, &r.Rating, &r.NumOfSeasons, &r.Number, &r.Plot, &r.Atmosphere, &r.WhyWatch,
		&r.Mood, &r.FinalVerdict, &r.CanStopAt, &r.Quote, &r.ParentID, &r.EpisodeScanSkipped, &r.MediaType,
		&r.Size, &r.Mtime, &r.EditedFields, &r.CreatedAt, &r.UpdatedAt)
	return r, err
}

func (r mediaRow) toDomain() domain.Media {
	m := domain.Media{
		ID: r.ID, DiskName: r.DiskName, Path: r.Path, Title: r.Title.String, TitleRu: r.TitleRu.String,
		TitleOrig: r.TitleOrig.String, Year: intPtr(r.Year), MainCategory: r.MainCategory.String,
		Country: r.Country.String, Status: r.Status.String, NumOfSeasons: intPtr(r.NumOfSeasons),
		Number: intPtr(r.Number), Plot: r.Plot.String, Atmosphere: r.Atmosphere.String,
		WhyWatch: r.WhyWatch.String, Mood: r.Mood.String, FinalVerdict: r.FinalVerdict.String,
		CanStopAt: r.CanStopAt.String, Quote: r.Quote.String, ParentID: r.ParentID.Int64,
		EpisodeScanSkipped: int(r.EpisodeScanSkipped.Int64), MediaType: r.MediaType.String,
		Size: r.Size.Int64, CreatedAt: r.CreatedAt.Time.UTC(), UpdatedAt: r.UpdatedAt.Time.UTC(),
	}
	if r.Mtime.Valid {
		m.ModTime = time.Unix(0, r.Mtime.Int64).UTC()
	}
	decodeJSON(r.Genres, &m.Genres)
	decodeJSON(r.Directors, &m.Directors)
	decodeJSON(r.Cast, &m.Cast)
	decodeJSON(r.Awards, &m.Awards)
	decodeJSON(r.Facts, &m.Facts)
	decodeJSON(r.Similar, &m.Similar)
	decodeJSON(r.NumEpisodesPerSeason, &m.NumEpisodesPerSeason)
	decodeJSON(r.Rating, &m.Rating)
	decodeJSON(r.EditedFields, &m.EditedFields)
	return m
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

// columnValue is the stored value of one column of m: NULL for empty text,
// unknown numbers and empty lists, JSON text for lists and maps.
func columnValue(m *domain.Media, col string) any {
	switch col {
	case "disk_name":
		return m.DiskName
	case "path":
		return m.Path
	case "year":
		return nullInt(m.Year)
	case "num_of_seasons":
		return nullInt(m.NumOfSeasons)
	case "number":
		return nullInt(m.Number)
	case "parent_id":
		return m.ParentID
	case "episode_scan_skipped":
		return m.EpisodeScanSkipped
	case "size":
		if !m.HasFile() {
			return nil
		}
		return m.Size
	case "mtime":
		if !m.HasFile() {
			return nil
		}
		return m.ModTime.UnixNano()
	}
	if v, ok := textColumn(m, col); ok {
		return nullText(v)
	}
	return jsonColumn(m, col)
}

// textColumn returns the plain text columns.
func textColumn(m *domain.Media, col string) (string, bool) {
	switch col {
	case "title":
		return m.Title, true
	case "title_ru":
		return m.TitleRu, true
	case "title_orig":
		return m.TitleOrig, true
	case "main_category":
		return m.MainCategory, true
	case "country":
		return m.Country, true
	case "status":
		return m.Status, true
	case "plot":
		return m.Plot, true
	case "atmosphere":
		return m.Atmosphere, true
	case "why_watch":
		return m.WhyWatch, true
	case "mood":
		return m.Mood, true
	case "final_verdict":
		return m.FinalVerdict, true
	case "can_stop_at":
		return m.CanStopAt, true
	case "quote":
		return m.Quote, true
	case "media_type":
		return m.MediaType, true
	}
	return "", false
}

// jsonColumn returns the JSON-encoded columns; unknown names are a
// programming error and panic in tests rather than write garbage.
func jsonColumn(m *domain.Media, col string) any {
	var v any
	switch col {
	case "genres":
		v = m.Genres
	case "directors":
		v = m.Directors
	case "cast":
		v = m.Cast
	case "awards":
		v = m.Awards
	case "facts":
		v = m.Facts
	case "similar":
		v = m.Similar
	case "num_episodes_per_season":
		v = m.NumEpisodesPerSeason
	case "rating":
		v = m.Rating
	case "edited_fields":
		v = m.EditedFields
	default:
		panic("sqlstore: unknown media column " + col)
	}
	return jsonText(v)
}

// jsonText encodes a list or map, NULL when it is empty.
func jsonText(v any) any {
	switch x := v.(type) {
	case []string:
		if len(x) == 0 {
			return nil
		}
	case []int:
		if len(x) == 0 {
			return nil
		}
	case map[string]float64:
		if len(x) == 0 {
			return nil
		}
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return string(raw)
}

func nullText(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func nullInt(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// insertColumns are the columns an insert may write (title_norm,
// created_at and updated_at are added by the repository). The repository
// keeps one copy from construction on.
func insertColumns() []string {
	return []string{"disk_name", "path", "title", "title_ru", "title_orig", "year", "main_category",
		"country", "status", "genres", "directors", "cast", "awards", "facts", "similar", "num_episodes_per_season",
		"rating", "num_of_seasons", "number", "plot", "atmosphere", "why_watch", "mood", "final_verdict",
		"can_stop_at", "quote", "parent_id", "episode_scan_skipped", "media_type", "size", "mtime", "edited_fields"}
}

// quoteColumn quotes a column name for SQL ("cast" is a keyword).
func quoteColumn(c string) string { return `"` + c + `"` }
