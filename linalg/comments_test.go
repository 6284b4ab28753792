package linalg

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goFileName matches a file name such as tridiag_dc.go or
// internal/avx/avx.go in a comment (not a pattern such as gemm_kernel*.go).
var goFileName = regexp.MustCompile(`\b[A-Za-z0-9_][A-Za-z0-9_./-]*\.go\b`)

// TestCommentsNameExistingFiles fails when a comment in this package names
// a .go file that does not exist: a name without a slash is looked up in
// this directory, one with a slash from the module's root. Comments that
// point a reader at a file must not outlive a rename.
func TestCommentsNameExistingFiles(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files found: %v", err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, file := range files {
		f, err := parser.ParseFile(fset, file, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				for _, name := range goFileName.FindAllString(c.Text, -1) {
					path := name
					if strings.Contains(name, "/") {
						path = filepath.Join("..", name)
					}
					checked++
					if _, err := os.Stat(path); err != nil {
						t.Errorf("%s: comment names %s, which does not exist", fset.Position(c.Pos()), name)
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no file names found in comments: the pattern is broken")
	}
}
