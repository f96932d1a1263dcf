package library

import (
	"fmt"

	"mediateka/usecase/textmatch"
)

// ScanSummary says in lang what a scan did, for people: "добавлено: 6,
// обновлено: 0, пропало: 0" / "6 added, 0 updated, 0 missing", with the
// files it could not read when there were any. The chat's notice that a
// scan ended and its "scan status" answer say it alike.
func ScanSummary(lang string, added, updated, missing, unreadable int) string {
	s := textmatch.Pick(lang,
		fmt.Sprintf("добавлено: %d, обновлено: %d, пропало: %d", added, updated, missing),
		fmt.Sprintf("%d added, %d updated, %d missing", added, updated, missing))
	if unreadable > 0 {
		s += textmatch.Pick(lang, fmt.Sprintf(", не прочитано: %d", unreadable), fmt.Sprintf(", %d unreadable", unreadable))
	}
	return s
}
