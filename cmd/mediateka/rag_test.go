package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// `mediateka rag build` indexes what a scan found with the built-in
// embedder, shows a bar on standard error, and a second run embeds
// nothing that did not change.
func TestRAGBuildCommand(t *testing.T) {
	cfgPath, _ := scanSetup(t)
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run([]string{"scan", "--config", cfgPath, "--quiet"}, strings.NewReader(""), &out, &errOut), errOut.String())

	out.Reset()
	errOut.Reset()
	code := run([]string{"rag", "build", "--config", cfgPath}, strings.NewReader(""), &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	assert.Contains(t, out.String(), "rag build completed: 2 of 2 entries indexed, 2 embedded, local")
	assert.Contains(t, out.String(), "1024 dimensions")
	assert.Contains(t, errOut.String(), "indexing", "the progress bar goes to standard error")

	out.Reset()
	errOut.Reset()
	code = run([]string{"rag", "build", "--config", cfgPath, "--quiet"}, strings.NewReader(""), &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	assert.Contains(t, out.String(), "2 of 2 entries indexed, 0 embedded", "nothing changed, nothing embedded again")
	assert.Empty(t, errOut.String(), "--quiet shows no bar")

	code = run([]string{"rag", "nope"}, strings.NewReader(""), &out, &errOut)
	assert.NotEqual(t, 0, code)
}
