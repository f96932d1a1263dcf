package http

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/gofiber/fiber/v2"

	"mediateka/domain"
)

// assetType is the Content-Type of a file under assets/ by its extension,
// "" for one the pages do not use. A fixed table rather than the system's
// MIME database, so a module is text/javascript on every machine (browsers
// refuse an ES module served as anything else under nosniff).
func assetType(ext string) string {
	switch ext {
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".png":
		return "image/png"
	}
	return ""
}

// asset is one embedded file, read once: its bytes, type and entity tag.
type asset struct {
	body        []byte
	contentType string
	etag        string
}

// mustLoadAssets reads every file of dir in fsys. The embedded files never
// change while the server runs, so each tag is a hash computed here once.
// The files are compiled in: failing to read one, or a file of a type the
// table lacks, is a broken build, and every test that starts a server says
// so at once.
func mustLoadAssets(fsys fs.FS, dir string) map[string]asset {
	out := map[string]asset{}
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		ct := assetType(path.Ext(p))
		if ct == "" {
			return fmt.Errorf("asset %s: no content type for its extension", p)
		}
		sum := sha256.Sum256(body)
		out[strings.TrimPrefix(p, dir+"/")] = asset{body: body, contentType: ct,
			etag: `"` + base64.RawURLEncoding.EncodeToString(sum[:16]) + `"`}
		return nil
	})
	if err != nil {
		panic("http: embedded assets: " + err.Error())
	}
	return out
}

// serveAssets answers GET /assets/<name> from the table: the file with
// its type and ETag, 304 when the browser's copy is current. Browsers
// check again on every load (no-cache), so a new build is never hidden by
// a stale module, and the check costs a 304 without a body.
func serveAssets(files map[string]asset) fiber.Handler {
	return func(c *fiber.Ctx) error {
		a, ok := files[c.Params("*")]
		if !ok {
			return domain.ErrNotFound("asset")
		}
		c.Set(fiber.HeaderETag, a.etag)
		c.Set(fiber.HeaderCacheControl, "no-cache")
		if etagMatches(c.Get(fiber.HeaderIfNoneMatch), a.etag) {
			return c.SendStatus(fiber.StatusNotModified)
		}
		c.Set(fiber.HeaderContentType, a.contentType)
		return c.Send(a.body)
	}
}

// etagMatches applies If-None-Match: a list of tags (weak ones compare by
// their value) or "*".
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}
