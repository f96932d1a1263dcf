package openai

import (
	"encoding/json"

	goopenai "github.com/sashabaranov/go-openai"

	"mediateka/domain"
	"mediateka/repository/aimodel"
)

// schemaName names the answer schema in response_format; OpenAI requires a
// name but mediateka's prompts carry only the schema.
const schemaName = "answer"

// buildRequest turns a checked prompt into a chat completion request: a
// "system" message first, then the history with roles "user" and
// "assistant" (oldest first), then the message as the last "user" message.
// A schema becomes response_format {"type":"json_schema","json_schema":
// {"name","schema","strict":true}} (structured outputs), sent verbatim:
// go-openai v1.43 keeps a json.RawMessage schema as it is. Strict mode
// needs every property required and additionalProperties false; a server
// that does not know json_schema (older local servers) may ignore it.
func buildRequest(model string, p domain.Prompt) goopenai.ChatCompletionRequest {
	msgs := make([]goopenai.ChatCompletionMessage, 0, len(p.History)+2)
	if p.System != "" {
		msgs = append(msgs, goopenai.ChatCompletionMessage{Role: goopenai.ChatMessageRoleSystem, Content: p.System})
	}
	for _, turn := range p.History {
		role := goopenai.ChatMessageRoleUser
		if aimodel.IsModelTurn(turn.Role) {
			role = goopenai.ChatMessageRoleAssistant
		}
		msgs = append(msgs, goopenai.ChatCompletionMessage{Role: role, Content: turn.Text})
	}
	msgs = append(msgs, goopenai.ChatCompletionMessage{Role: goopenai.ChatMessageRoleUser, Content: p.Message})

	req := goopenai.ChatCompletionRequest{Model: model, Messages: msgs}
	if len(p.Schema) > 0 {
		req.ResponseFormat = &goopenai.ChatCompletionResponseFormat{
			Type: goopenai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &goopenai.ChatCompletionResponseFormatJSONSchema{
				Name:   schemaName,
				Schema: json.RawMessage(p.Schema),
				Strict: true,
			},
		}
	}
	return req
}
