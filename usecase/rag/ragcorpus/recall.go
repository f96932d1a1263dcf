package ragcorpus

import (
	"slices"

	"mediateka/domain"
)

// Recall is recall@k of a search over the test's queries, overall and per
// language: for each query the share of its relevant entries found in the
// first k results (out of at most k, so a query with more relevant entries
// than k needs its whole first page relevant), averaged over the queries.
type Recall struct {
	All, RU, EN float64
	// Missed lists the queries below full recall, for the test's failure
	// message.
	Missed []string
}

// MeasureRecall runs search (which returns entry ids, best first) for
// every query and measures recall@k.
func MeasureRecall(queries []Query, k int, search func(query string) []int64) Recall {
	var sum, n [3]float64 // all, ru, en
	var r Recall
	for _, q := range queries {
		got := search(q.Text)
		got = got[:min(k, len(got))]
		found := 0
		for _, id := range q.Relevant {
			if slices.Contains(got, id) {
				found++
			}
		}
		v := float64(found) / float64(min(k, len(q.Relevant)))
		if v < 1 {
			r.Missed = append(r.Missed, q.Lang+": "+q.Text)
		}
		lang := 2
		if q.Lang == domain.LangRussian {
			lang = 1
		}
		sum[0], n[0] = sum[0]+v, n[0]+1
		sum[lang], n[lang] = sum[lang]+v, n[lang]+1
	}
	r.All, r.RU, r.EN = div(sum[0], n[0]), div(sum[1], n[1]), div(sum[2], n[2])
	return r
}

func div(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
