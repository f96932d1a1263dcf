package domain

// MediaVector is the stored embedding of one movie's or series' document
// text (table media_vector). Embedder, Model and Dimensions say which
// Embedder made it, so a change of embedder is noticed and the index
// rebuilt; Hash is a digest of the document text it was made from, so an
// update re-embeds only the records whose text changed.
type MediaVector struct {
	MediaID    int64
	Embedder   string
	Model      string
	Dimensions int
	Hash       string
	Vector     []float32
}

// RAGIndexed ends every build or update of the semantic-search index that
// changed it or did not complete: State is the outcome, Indexed how many
// entries the index holds, Total how many it should, Embedded how many
// were (re-)embedded by this run, Removed how many vectors went with
// entries that are gone.
type RAGIndexed struct {
	eventOf[RAGIndexed]
	State      JobState `json:"state"`
	Indexed    int      `json:"indexed"`
	Total      int      `json:"total"`
	Embedded   int      `json:"embedded"`
	Removed    int      `json:"removed"`
	Provider   string   `json:"provider"`
	Model      string   `json:"model"`
	Dimensions int      `json:"dimensions"`
	DurationMS int64    `json:"duration_ms"`
}
