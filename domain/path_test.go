package domain

import (
	"errors"
	"strings"
	"testing"
)

func TestPathHelpers(t *testing.T) {
	for _, c := range []struct {
		dir, p string
		in     bool
	}{{"/a", "/a", true}, {"/a", "/a/b", true}, {"/a", "/ab", false}, {"/", "/x", true}, {"/a/b", "/a", false}} {
		if got := PathWithin(c.dir, c.p); got != c.in {
			t.Errorf("PathWithin(%q, %q) = %v", c.dir, c.p, got)
		}
	}
	got := CollapseNested([]string{"/m/b", "/m/a/x", "/m/a", "/m/ab"}, func(s string) string { return s })
	if strings.Join(got, " ") != "/m/a /m/ab /m/b" {
		t.Errorf("CollapseNested = %v", got)
	}
	real := RealPaths([]string{"/l", "/gone", "/x"}, func(p string) (string, error) {
		if p == "/gone" {
			return "", errors.New("no such folder")
		}
		return "/real" + p, nil
	})
	if strings.Join(real, " ") != "/real/l /real/x" {
		t.Errorf("RealPaths = %v", real)
	}
	if q := QuotePath(strings.Repeat("я", 150)); len(q) > 210 || !strings.HasSuffix(q, `…"`) {
		t.Errorf("QuotePath = %q", q)
	}
	if q := QuotePath("a\xffb"); q != `"a?b"` {
		t.Errorf("QuotePath = %q", q)
	}
}
