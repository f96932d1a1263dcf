package gemini

import (
	"encoding/json"

	"google.golang.org/genai"

	"mediateka/domain"
	"mediateka/repository/aimodel"
)

// buildRequest turns a checked prompt into Gemini's request: the history as
// contents with roles "user" and "model" (oldest first), the message as the
// last user content, the system instruction in SystemInstruction, and a
// schema as responseMimeType "application/json" plus responseJsonSchema.
// responseJsonSchema takes a standard JSON schema as it is, unlike
// responseSchema, which takes Google's OpenAPI subset.
func buildRequest(p domain.Prompt) ([]*genai.Content, *genai.GenerateContentConfig) {
	contents := make([]*genai.Content, 0, len(p.History)+1)
	for _, turn := range p.History {
		role := genai.Role(genai.RoleUser)
		if aimodel.IsModelTurn(turn.Role) {
			role = genai.RoleModel
		}
		contents = append(contents, genai.NewContentFromText(turn.Text, role))
	}
	contents = append(contents, genai.NewContentFromText(p.Message, genai.RoleUser))

	cfg := &genai.GenerateContentConfig{}
	if p.System != "" {
		// The API ignores a system instruction's role (genai sends "user").
		cfg.SystemInstruction = &genai.Content{Parts: []*genai.Part{genai.NewPartFromText(p.System)}}
	}
	if len(p.Schema) > 0 {
		cfg.ResponseMIMEType = "application/json"
		cfg.ResponseJsonSchema = json.RawMessage(p.Schema)
	}
	return contents, cfg
}
