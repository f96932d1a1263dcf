package classify

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/domain/domaintest"
)

// TestSchemaAndAnswerCoverExactlyTheFillableFields: the schema names every
// field the table marks as classified and no other, each with a rule, and
// an answer carrying a value for each of them fills each of them.
func TestSchemaAndAnswerCoverExactlyTheFillableFields(t *testing.T) {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(Schema(2026), &s))
	want := domaintest.FilledMedia(0)
	answer := map[string]any{}
	for _, f := range domain.MediaFields() {
		prop, ok := s.Properties[f.Name]
		assert.Equal(t, f.Is(domain.FieldClassified), ok, "schema lists %s", f.Name)
		if !ok {
			continue
		}
		assert.NotEqual(t, "null", string(prop), "%s has a rule in the schema", f.Name)
		answer[f.Name] = f.Ref(&want)
	}
	raw, err := json.Marshal(answer)
	require.NoError(t, err)
	got, err := decodeAnswer(string(raw), 2026)
	require.NoError(t, err)
	for _, f := range domain.MediaFields() {
		if f.Is(domain.FieldClassified) {
			assert.Equal(t, f.Ref(&want), f.Ref(&got), "the answer fills %s", f.Name)
			assert.Contains(t, missingFields(domain.Media{}), f.Name)
		} else {
			assert.True(t, f.Empty(&got) || f.Is(domain.FieldNotNull), "the answer never fills %s", f.Name)
		}
	}
}
