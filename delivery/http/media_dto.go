package http

import (
	"time"

	"mediateka/domain"
	"mediateka/usecase/catalog"
)

// mediaDTO is a media entry as API.md §3 shows it: every stored column,
// JSON columns as real arrays and objects (empty, never null), unknown text
// and numbers as null.
type mediaDTO struct {
	ID                   int64              `json:"id"`
	DiskName             string             `json:"disk_name"`
	Path                 string             `json:"path"`
	Title                *string            `json:"title"`
	TitleRu              *string            `json:"title_ru"`
	TitleOrig            *string            `json:"title_orig"`
	Year                 *int               `json:"year"`
	MainCategory         *string            `json:"main_category"`
	Country              *string            `json:"country"`
	Status               *string            `json:"status"`
	Genres               []string           `json:"genres"`
	Directors            []string           `json:"directors"`
	Cast                 []string           `json:"cast"`
	Awards               []string           `json:"awards"`
	Facts                []string           `json:"facts"`
	Similar              []string           `json:"similar"`
	NumEpisodesPerSeason []int              `json:"num_episodes_per_season"`
	Rating               map[string]float64 `json:"rating"`
	NumOfSeasons         *int               `json:"num_of_seasons"`
	Number               *int               `json:"number"`
	Plot                 *string            `json:"plot"`
	Atmosphere           *string            `json:"atmosphere"`
	WhyWatch             *string            `json:"why_watch"`
	Mood                 *string            `json:"mood"`
	FinalVerdict         *string            `json:"final_verdict"`
	CanStopAt            *string            `json:"can_stop_at"`
	Quote                *string            `json:"quote"`
	ParentID             int64              `json:"parent_id"`
	EpisodeScanSkipped   int                `json:"episode_scan_skipped"`
	MediaType            string             `json:"media_type"`
	Size                 *int64             `json:"size"`
	ModifiedAt           *time.Time         `json:"modified_at"`
	EditedFields         []string           `json:"edited_fields"`
	CreatedAt            *time.Time         `json:"created_at"`
	UpdatedAt            *time.Time         `json:"updated_at"`
}

// entryDTO is an entry with its children (GET /api/media/{id}).
type entryDTO struct {
	mediaDTO
	Children []entryDTO `json:"children"`
}

func toMediaDTO(m domain.Media) mediaDTO {
	d := mediaDTO{
		ID: m.ID, DiskName: m.DiskName, Path: m.Path, Title: optText(m.Title), TitleRu: optText(m.TitleRu),
		TitleOrig: optText(m.TitleOrig), Year: m.Year, MainCategory: optText(m.MainCategory),
		Country: optText(m.Country), Status: optText(m.Status), Genres: list(m.Genres),
		Directors: list(m.Directors), Cast: list(m.Cast), Awards: list(m.Awards), Facts: list(m.Facts),
		Similar: list(m.Similar), NumEpisodesPerSeason: m.NumEpisodesPerSeason, Rating: m.Rating,
		NumOfSeasons: m.NumOfSeasons, Number: m.Number, Plot: optText(m.Plot), Atmosphere: optText(m.Atmosphere),
		WhyWatch: optText(m.WhyWatch), Mood: optText(m.Mood), FinalVerdict: optText(m.FinalVerdict),
		CanStopAt: optText(m.CanStopAt), Quote: optText(m.Quote), ParentID: m.ParentID,
		EpisodeScanSkipped: m.EpisodeScanSkipped, MediaType: m.MediaType, EditedFields: list(m.EditedFields),
		CreatedAt: optTime(m.CreatedAt), UpdatedAt: optTime(m.UpdatedAt),
	}
	if d.NumEpisodesPerSeason == nil {
		d.NumEpisodesPerSeason = []int{}
	}
	if d.Rating == nil {
		d.Rating = map[string]float64{}
	}
	if m.HasFile() {
		size := m.Size
		d.Size, d.ModifiedAt = &size, optTime(m.ModTime)
	}
	return d
}

func toEntryDTO(e catalog.Entry) entryDTO {
	d := entryDTO{mediaDTO: toMediaDTO(e.Media), Children: make([]entryDTO, 0, len(e.Children))}
	for _, c := range e.Children {
		d.Children = append(d.Children, toEntryDTO(c))
	}
	return d
}

func toMediaDTOs(ms []domain.Media) []mediaDTO {
	out := make([]mediaDTO, 0, len(ms))
	for _, m := range ms {
		out = append(out, toMediaDTO(m))
	}
	return out
}

func optText(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func optTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

func list(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
