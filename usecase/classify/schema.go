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

// textLimit is the length limit of text field name in the answer: titles
// and short facts are short, descriptions long.
func textLimit(f domain.MediaField) int {
	switch {
	case f.Is(domain.FieldSearchable):
		return maxTitle
	case f.Name == "country" || f.Name == "mood":
		return maxShortText
	}
	return maxLongText
}

// listLimit is the item limit of list field name in the answer.
func listLimit(name string) int {
	if name == "genres" {
		return maxGenres
	}
	return maxPeople
}

// Fields are the media columns classification fills, in answer order: the
// fields the media table marks as classified.
func Fields() []string {
	return domain.MediaFieldNames(domain.FieldClassified)
}

// Schema is the JSON schema of the model's answer for a clock at year
// thisYear. Every field is required and may be null ("unknown"), and no
// other field is allowed: OpenAI's strict structured outputs demand
// exactly this shape, and Gemini's responseJsonSchema accepts it as is.
func Schema(thisYear int) json.RawMessage {
	props := map[string]any{}
	for _, f := range classifiedFields() {
		props[f.Name] = fieldSchema(f, thisYear)
	}
	raw, _ := json.Marshal(map[string]any{
		"type": "object", "properties": props, "required": Fields(), "additionalProperties": false,
	})
	return raw
}

// fieldSchema is the schema of one answer field, by kind; main_category
// and year have their own. A kind with no answer rule gets none, which the
// schema test reports.
func fieldSchema(f domain.MediaField, thisYear int) any {
	nullable := func(t string, extra map[string]any) map[string]any {
		p := map[string]any{"type": []string{t, "null"}}
		for k, v := range extra {
			p[k] = v
		}
		return p
	}
	switch {
	case f.Name == "main_category":
		var slugs []string
		for _, c := range domain.Categories() {
			slugs = append(slugs, c.Slug)
		}
		// anyOf rather than a null inside enum: Gemini takes enum values as
		// strings only, and both providers accept a string-or-null anyOf.
		return map[string]any{"anyOf": []any{
			map[string]any{"type": "string", "enum": slugs}, map[string]any{"type": "null"}}}
	case f.Name == "year":
		return nullable("integer", map[string]any{"minimum": minYear, "maximum": thisYear + 1})
	case f.Kind == domain.FieldText:
		return nullable("string", map[string]any{"maxLength": textLimit(f)})
	case f.Kind == domain.FieldArray:
		if _, ok := f.Ref(&domain.Media{}).(*[]string); ok {
			return nullable("array", map[string]any{"maxItems": listLimit(f.Name),
				"items": map[string]any{"type": "string", "maxLength": maxItem}})
		}
	}
	return nil
}
