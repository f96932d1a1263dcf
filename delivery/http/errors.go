package http

import (
	"encoding/json"
	"errors"
	"log/slog"
	"strings"

	"github.com/gofiber/fiber/v2"

	"mediateka/domain"
)

// errorBody is the one error shape of API.md §0.
type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    string            `json:"code"`
	Message string            `json:"message"`
	Fields  map[string]string `json:"fields,omitempty"`
}

// statusOf maps a domain error kind to its HTTP status. This is the only
// place that decides statuses for use-case errors.
func statusOf(k domain.Kind) int {
	switch k {
	case domain.KindInvalid:
		return fiber.StatusBadRequest
	case domain.KindUnauthorized:
		return fiber.StatusUnauthorized
	case domain.KindForbidden:
		return fiber.StatusForbidden
	case domain.KindNotFound:
		return fiber.StatusNotFound
	case domain.KindConflict:
		return fiber.StatusConflict
	case domain.KindTooLarge:
		return fiber.StatusRequestEntityTooLarge
	case domain.KindTooMany:
		return fiber.StatusTooManyRequests
	case domain.KindUnavailable:
		return fiber.StatusServiceUnavailable
	}
	return fiber.StatusInternalServerError
}

// fiberCodes names Fiber's own errors (routing, body limit) with the generic
// codes of API.md §0.
var fiberCodes = map[int]string{
	fiber.StatusBadRequest:                   "invalid_input",
	fiber.StatusUnauthorized:                 "unauthorized",
	fiber.StatusForbidden:                    "forbidden",
	fiber.StatusNotFound:                     "not_found",
	fiber.StatusMethodNotAllowed:             "method_not_allowed",
	fiber.StatusRequestTimeout:               "request_timeout",
	fiber.StatusRequestEntityTooLarge:        "payload_too_large",
	fiber.StatusRequestURITooLong:            "uri_too_long",
	fiber.StatusRequestHeaderFieldsTooLarge:  "headers_too_large",
	fiber.StatusRequestedRangeNotSatisfiable: "range_not_satisfiable",
	fiber.StatusTooManyRequests:              "too_many_attempts",
	fiber.StatusUpgradeRequired:              "upgrade_required",
	fiber.StatusServiceUnavailable:           "unavailable",
}

// toResponse turns any error into a status and the API error body. Unknown
// errors become a bare 500 "internal": their detail goes to the log only.
func toResponse(err error) (int, errorBody) {
	var de *domain.Error
	if errors.As(err, &de) {
		status := statusOf(de.Kind)
		msg := de.Message
		if status == fiber.StatusInternalServerError {
			msg = "internal server error"
		}
		return status, errorBody{errorDetail{Code: de.Code, Message: msg, Fields: de.Fields}}
	}
	var fe *fiber.Error
	if errors.As(err, &fe) {
		if code, ok := fiberCodes[fe.Code]; ok {
			return fe.Code, errorBody{errorDetail{Code: code, Message: strings.ToLower(fe.Message)}}
		}
	}
	return fiber.StatusInternalServerError, errorBody{errorDetail{Code: "internal", Message: "internal server error"}}
}

// errorHandler is Fiber's ErrorHandler: every error of every route, Fiber's
// own 404/405/413 included, leaves through here with the API error body and a
// request id; 500s are logged with their cause under that id.
func errorHandler(log *slog.Logger) fiber.ErrorHandler {
	return func(c *fiber.Ctx, err error) error {
		status, body := toResponse(err)
		rid := ensureRequestID(c)
		if status >= fiber.StatusInternalServerError && status != fiber.StatusServiceUnavailable {
			log.Error("request failed", "request_id", rid, "method", c.Method(), "path", c.Path(), "err", err.Error())
		} else if status == fiber.StatusServiceUnavailable {
			log.Warn("dependency unavailable", "request_id", rid, "path", c.Path(), "err", err.Error())
		}
		return c.Status(status).JSON(body)
	}
}

// parseJSON decodes the request body into dst. An empty body means {}; a body
// that is not JSON is 400 invalid_json; a field of the wrong type is 400
// invalid_input naming the field.
func parseJSON(c *fiber.Ctx, dst any) error {
	body := c.Body()
	if len(strings.TrimSpace(string(body))) == 0 {
		body = []byte("{}")
	}
	err := json.Unmarshal(body, dst)
	var typ *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "body"
		}
		return domain.ErrInvalid("a field has the wrong type", map[string]string{field: "must be " + jsonKind(typ.Type.Kind().String())})
	default:
		return domain.NewError(domain.KindInvalid, "invalid_json", "the request body is not valid JSON")
	}
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "slice", "array":
		return "an array"
	case "map", "struct", "ptr":
		return "an object"
	}
	return "a number"
}
