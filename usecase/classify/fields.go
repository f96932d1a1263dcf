package classify

import "mediateka/domain"

// missingFields lists the classification fields of m that are empty and
// that no person edited: the only ones a job may fill.
func missingFields(m domain.Media) []string {
	var out []string
	for _, f := range Fields() {
		if isEmpty(m, f) && !m.Edited(f) {
			out = append(out, f)
		}
	}
	return out
}

// isEmpty reports whether field f of m holds no value.
func isEmpty(m domain.Media, f string) bool {
	switch f {
	case "title_ru":
		return m.TitleRu == ""
	case "title_orig":
		return m.TitleOrig == ""
	case "year":
		return m.Year == nil
	case "main_category":
		return m.MainCategory == ""
	case "genres":
		return len(m.Genres) == 0
	case "country":
		return m.Country == ""
	case "directors":
		return len(m.Directors) == 0
	case "cast":
		return len(m.Cast) == 0
	case "plot":
		return m.Plot == ""
	case "why_watch":
		return m.WhyWatch == ""
	case "mood":
		return m.Mood == ""
	case "atmosphere":
		return m.Atmosphere == ""
	case "final_verdict":
		return m.FinalVerdict == ""
	}
	return false
}
