package classify

import "mediateka/domain"

// missingFields lists the classification fields of m that are empty and
// that no person edited: the only ones a job may fill.
func missingFields(m domain.Media) []string {
	var out []string
	for _, f := range classifiedFields() {
		if f.Empty(&m) && !m.Edited(f.Name) {
			out = append(out, f.Name)
		}
	}
	return out
}

// classifiedFields are the fields of the media table classification may
// fill, in column order.
func classifiedFields() []domain.MediaField {
	var out []domain.MediaField
	for _, f := range domain.MediaFields() {
		if f.Is(domain.FieldClassified) {
			out = append(out, f)
		}
	}
	return out
}
