package control

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"mediateka/domain"
)

// maxRoomChars bounds a room's name.
const maxRoomChars = 128

// Field reasons of a refused join.
const (
	roleReason = "must be player or remote"
	roomReason = "must be an e-mail or a code of 1 to 128 characters without control characters"
)

func parseRole(s string) (Role, error) {
	switch Role(s) {
	case Player, Remote:
		return Role(s), nil
	}
	return "", invalidField("role", roleReason)
}

// ParseRoom checks a room's name and returns it as the hub keys it:
// trimmed, and an e-mail room (any name with an @) in lower case like the
// accounts' e-mails, so one account has one room however it is typed.
// Shared codes are compared exactly.
func ParseRoom(s string) (string, error) {
	name := strings.TrimSpace(s)
	if name == "" || !utf8.ValidString(name) || utf8.RuneCountInString(name) > maxRoomChars ||
		strings.ContainsFunc(name, unicode.IsControl) {
		return "", invalidField("room", roomReason)
	}
	if isEmailRoom(name) {
		return domain.NormalizeEmail(name), nil
	}
	return name, nil
}

// isEmailRoom reports whether a room is an account's: any name with an @
// counts, so an odd spelling of an e-mail cannot slip past the rule.
func isEmailRoom(name string) bool { return strings.Contains(name, "@") }

// joinFieldsError merges the role and room errors into one invalid_input
// naming every bad field.
func joinFieldsError(errs ...error) error {
	fields := map[string]string{}
	for _, err := range errs {
		if de, ok := err.(*domain.Error); ok {
			for k, v := range de.Fields {
				fields[k] = v
			}
		}
	}
	return domain.ErrInvalid("cannot join the room", fields)
}
