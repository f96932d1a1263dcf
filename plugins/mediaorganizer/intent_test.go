package mediaorganizer

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"mediateka/usecase/textmatch"
)

func TestDetectTellsAScanFromAQuestionAboutOne(t *testing.T) {
	for msg, want := range map[string]intent{
		"статус сканирования":    intentScanStatus,
		"как идёт сканирование?": intentScanStatus,
		"scan status":       intentScanStatus,
		"is the scan done?": intentScanStatus,
		"запусти сканирование":                             intentScan,
		"запусти сканирование и скажи, когда закончится":   intentScan,
		"просканируй библиотеку и скажи, когда завершится": intentScan,
		"scan the library and tell me when it's done":      intentScan,
		"rescan":                             intentScan,
		"give me an overview of the scanner": intentNone,
	} {
		assert.Equal(t, want, detect(strings.Fields(textmatch.Normalize(msg))), msg)
	}
}
