package mediaorganizer

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/domain"
	"mediateka/repository/localfs"
	"mediateka/repository/sqlstore/sqlstoretest"
	"mediateka/usecase/library"
	"mediateka/usecase/textmatch"
)

// heldFS tells when the first folder read starts and holds it until
// release closes: an audit walking the library stays running meanwhile.
type heldFS struct {
	localfs.FS
	entered, release chan struct{}
	once             *sync.Once
}

func (h heldFS) ReadDirStat(p string, stat func(string) bool) ([]fs.DirEntry, error) {
	h.once.Do(func() { close(h.entered) })
	<-h.release
	return h.FS.ReadDirStat(p, stat)
}

func TestAuditAlreadyRunning(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "lib")
	require.NoError(t, os.MkdirAll(root, 0o755))
	held := heldFS{entered: make(chan struct{}), release: make(chan struct{}), once: &sync.Once{}}
	lib := library.New(sqlstoretest.New(t, textmatch.Normalize).Media, held,
		library.Options{Roots: []domain.Root{{Path: root, Disk: "D"}}})
	defer lib.Close()
	p := New(Deps{Library: lib})

	first := make(chan string, 1)
	go func() { got, _ := p.Handle(adminCtx, "audit the library"); first <- got }()
	<-held.entered
	second, err := p.Handle(adminCtx, "проверь библиотеку, аудит")
	require.NoError(t, err)
	assert.Equal(t, "Аудит уже идёт — дождитесь, пока он закончится.", second)
	close(held.release)
	assert.Contains(t, <-first, "Audit done")
}
