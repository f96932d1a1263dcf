// Package domaintest builds domain values for tests of every layer.
package domaintest

import (
	"fmt"

	"mediateka/domain"
)

// FilledMedia returns a record with every field of domain.MediaFields set
// to a value of its own that every layer accepts (a real media type and
// category, a year in range, 0 or 1 where only those are allowed). Tests
// that iterate over the field table use it to see that no layer drops a
// field; parentID is the parent_id to use (an edit needs a real one).
func FilledMedia(parentID int64) domain.Media {
	var m domain.Media
	for i, f := range domain.MediaFields() {
		switch p := f.Ref(&m).(type) {
		case *string:
			*p = fmt.Sprintf("%s <%d> «значение»", f.Name, i)
		case **int:
			n := 10 + i
			*p = &n
		case *int:
			*p = 1
		case *int64:
			*p = parentID
		case *[]string:
			*p = []string{f.Name + " 1", f.Name + " 2"}
		case *[]int:
			*p = []int{i, i + 1}
		case *map[string]float64:
			*p = map[string]float64{f.Name: float64(i) + 0.5}
		default:
			panic("domaintest: no sample for media field " + f.Name)
		}
	}
	year := 1999
	m.Year, m.MediaType, m.MainCategory = &year, domain.MediaEpisode, "drama"
	return m
}
