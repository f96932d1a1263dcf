package classify

import (
	"encoding/json"

	"mediateka/domain"
)

// Limits of what the model may answer, in characters or items. They are in
// the schema the model sees and checked again on the answer, since a
// provider or a local server may not enforce the schema.
const (
	maxTitle     = 300
	maxShortText = 200
	maxLongText  = 2000
	maxGenres    = 10
	maxPeople    = 20
	maxItem      = 200
	minYear      = 1900
)

// textLimits are the text fields of the answer and their length limits.
func textLimits() map[string]int {
	return map[string]int{
		"title_ru": maxTitle, "title_orig": maxTitle, "country": maxShortText, "mood": maxShortText,
		"plot": maxLongText, "why_watch": maxLongText, "atmosphere": maxLongText, "final_verdict": maxLongText,
	}
}

// listLimits are the list fields of the answer and their item limits.
func listLimits() map[string]int {
	return map[string]int{"genres": maxGenres, "directors": maxPeople, "cast": maxPeople}
}

// Fields are the media columns classification fills, in answer order.
func Fields() []string {
	return []string{"title_ru", "title_orig", "year", "main_category", "genres", "country", "directors",
		"cast", "plot", "why_watch", "mood", "atmosphere", "final_verdict"}
}

// Schema is the JSON schema of the model's answer for a clock at year
// thisYear. Every field is required and may be null ("unknown"), and no
// other field is allowed: OpenAI's strict structured outputs demand
// exactly this shape, and Gemini's responseJsonSchema accepts it as is.
func Schema(thisYear int) json.RawMessage {
	nullable := func(t string, extra map[string]any) map[string]any {
		p := map[string]any{"type": []string{t, "null"}}
		for k, v := range extra {
			p[k] = v
		}
		return p
	}
	props := map[string]any{}
	for name, limit := range textLimits() {
		props[name] = nullable("string", map[string]any{"maxLength": limit})
	}
	for name, limit := range listLimits() {
		props[name] = nullable("array", map[string]any{"maxItems": limit,
			"items": map[string]any{"type": "string", "maxLength": maxItem}})
	}
	props["year"] = nullable("integer", map[string]any{"minimum": minYear, "maximum": thisYear + 1})
	var slugs []string
	for _, c := range domain.Categories() {
		slugs = append(slugs, c.Slug)
	}
	// anyOf rather than a null inside enum: Gemini takes enum values as
	// strings only, and both providers accept a string-or-null anyOf.
	props["main_category"] = map[string]any{"anyOf": []any{
		map[string]any{"type": "string", "enum": slugs}, map[string]any{"type": "null"}}}
	raw, _ := json.Marshal(map[string]any{
		"type": "object", "properties": props, "required": Fields(), "additionalProperties": false,
	})
	return raw
}
