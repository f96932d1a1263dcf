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
// repository; delivery never imports repository.
func TestImportRules(t *testing.T) {
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

func TestImportRuleCatchesViolations(t *testing.T) {
	assert.NotEmpty(t, importViolation("mediateka/domain", "github.com/google/uuid"))
	assert.NotEmpty(t, importViolation("mediateka/domain", "mediateka/usecase/auth"))
	assert.Empty(t, importViolation("mediateka/domain", "encoding/json"))
	assert.NotEmpty(t, importViolation("mediateka/usecase/auth", "github.com/gofiber/fiber/v2"))
	assert.NotEmpty(t, importViolation("mediateka/usecase/auth", "gorm.io/gorm"))
	assert.NotEmpty(t, importViolation("mediateka/usecase/chat", "mediateka/delivery/http"))
	assert.NotEmpty(t, importViolation("mediateka/usecase/chat", "mediateka/repository/sqlstore"))
	assert.NotEmpty(t, importViolation("mediateka/usecase/chat", "github.com/go-telegram/bot"))
	assert.NotEmpty(t, importViolation("mediateka/delivery/http", "mediateka/repository/sqlstore"))
	assert.Empty(t, importViolation("mediateka/delivery/http", "mediateka/usecase/auth"))
}
