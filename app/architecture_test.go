package app

import (
	"go/build"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestImportRules keeps the layers honest: domain imports only the standard
// library; usecase never reaches for Fiber, GORM, Telegram, delivery or
// repository; delivery never imports repository; repository never imports
// usecase; plugins use use cases and domain, never delivery, repository or
// app. Only non-test imports count: a test may wire real repositories.
func TestImportRules(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "mediateka/...").CombinedOutput()
	require.NoError(t, err, string(out))
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg, imports := fields[0], fields[1:]
		for _, imp := range imports {
			if v := importViolation(pkg, imp); v != "" {
				t.Errorf("%s imports %s: %s", pkg, imp, v)
			}
		}
		checked++
	}
	assert.Greater(t, checked, 8, "the rule saw the project's packages")
}

// importViolation explains why pkg may not import imp, or returns "".
func importViolation(pkg, imp string) string {
	layer := func(p string) string {
		rest, ok := strings.CutPrefix(p, "mediateka/")
		if !ok {
			return ""
		}
		first, _, _ := strings.Cut(rest, "/")
		return first
	}
	std := isStdlib(imp)
	switch layer(pkg) {
	case "domain":
		if !std && layer(imp) != "domain" {
			return "domain may import only the standard library"
		}
	case "usecase":
		for _, banned := range []string{"github.com/gofiber/", "gorm.io/", "github.com/go-telegram/", "github.com/mattn/go-sqlite3"} {
			if strings.HasPrefix(imp, banned) {
				return "use cases must not depend on frameworks or drivers"
			}
		}
		if l := layer(imp); l == "delivery" || l == "repository" || l == "app" || l == "plugins" {
			return "use cases must not import outer layers"
		}
	case "delivery":
		if l := layer(imp); l == "repository" || l == "app" {
			return "delivery talks to use cases, not repositories"
		}
	case "repository":
		if l := layer(imp); l == "delivery" || l == "app" || l == "plugins" {
			return "repositories must not import outer layers"
		}
		if layer(imp) == "usecase" {
			return "repositories implement use-case ports; they must not import use cases"
		}
	case "plugins":
		if l := layer(imp); l == "delivery" || l == "repository" || l == "app" {
			return "plugins use use cases and domain, never delivery, repositories or app"
		}
	}
	return ""
}

func isStdlib(path string) bool {
	if strings.HasPrefix(path, "mediateka") {
		return false
	}
	p, err := build.Default.Import(path, "", build.FindOnly)
	return err == nil && p.Goroot
}

// TestImportRuleCatchesViolations shows every rule refusing what it must
// and letting through what it must, so a rule that stops matching fails.
func TestImportRuleCatchesViolations(t *testing.T) {
	t.Parallel()
	cases := []struct {
		pkg, imp string
		refused  bool
	}{
		{"mediateka/domain", "github.com/google/uuid", true},
		{"mediateka/domain", "mediateka/usecase/auth", true},
		{"mediateka/domain", "encoding/json", false},
		{"mediateka/usecase/auth", "github.com/gofiber/fiber/v2", true},
		{"mediateka/usecase/auth", "gorm.io/gorm", true},
		{"mediateka/usecase/chat", "mediateka/delivery/http", true},
		{"mediateka/usecase/chat", "mediateka/repository/sqlstore", true},
		{"mediateka/usecase/chat", "github.com/go-telegram/bot", true},
		{"mediateka/usecase/chat", "mediateka/plugins", true},
		{"mediateka/usecase/chat", "mediateka/app", true},
		{"mediateka/usecase/chat", "mediateka/usecase/textmatch", false},
		{"mediateka/usecase/chat", "mediateka/domain", false},
		{"mediateka/delivery/http", "mediateka/repository/sqlstore", true},
		{"mediateka/delivery/http", "mediateka/app", true},
		{"mediateka/delivery/http", "mediateka/usecase/auth", false},
		{"mediateka/delivery/http", "github.com/gofiber/fiber/v2", false},
		{"mediateka/repository/sqlstore", "mediateka/usecase/catalog", true},
		{"mediateka/repository/sqlstore", "mediateka/usecase/textmatch", true},
		{"mediateka/repository/sqlstore", "mediateka/delivery/http", true},
		{"mediateka/repository/sqlstore", "mediateka/plugins", true},
		{"mediateka/repository/sqlstore", "mediateka/app", true},
		{"mediateka/repository/sqlstore", "mediateka/domain", false},
		{"mediateka/repository/sqlstore", "gorm.io/gorm", false},
		{"mediateka/plugins/mediaorganizer", "mediateka/delivery/http", true},
		{"mediateka/plugins/mediaorganizer", "mediateka/repository/sqlstore", true},
		{"mediateka/plugins/medialayer", "mediateka/repository/ffprobe", true},
		{"mediateka/plugins", "mediateka/app", true},
		{"mediateka/plugins/mediaorganizer", "mediateka/usecase/library", false},
		{"mediateka/plugins/mediaorganizer", "mediateka/domain", false},
		{"mediateka/plugins", "mediateka/plugins/medialayer", false},
		{"mediateka/plugins/telegram", "github.com/go-telegram/bot", false},
		{"mediateka/app", "mediateka/repository/sqlstore", false},
	}
	for _, tc := range cases {
		v := importViolation(tc.pkg, tc.imp)
		if tc.refused {
			assert.NotEmpty(t, v, "%s must not import %s", tc.pkg, tc.imp)
		} else {
			assert.Empty(t, v, "%s may import %s", tc.pkg, tc.imp)
		}
	}
}
