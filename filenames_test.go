package rkhs_test

// Comments and documents that point a reader to a file must name one that
// exists: a file renamed or deleted leaves them pointing nowhere.

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// repoFiles walks the repository from its root (this package's
// directory) and returns the slash-separated paths of its files, skipping
// .git. modules lists the directories of the root module: all but those
// with a go.mod of their own and testdata.
func repoFiles(t *testing.T) (files []string, modules map[string]bool) {
	t.Helper()
	modules = map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		path = filepath.ToSlash(path)
		if d.IsDir() {
			if d.Name() == ".git" {
				return fs.SkipDir
			}
			_, err := os.Stat(filepath.Join(path, "go.mod"))
			own := path != "." && err == nil
			inModule := path == "." || modules[pathDir(path)]
			if inModule && !own && d.Name() != "testdata" {
				modules[path] = true
			}
			return nil
		}
		files = append(files, path)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files, modules
}

// pathDir is path.Dir for the slash-separated relative paths of repoFiles.
func pathDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return "."
}

// goFileName matches a Go file named in prose: "gemm.go",
// "linalg/gemm_kernel.go", "linalg/gemm_kernel*.go".
var goFileName = regexp.MustCompile(`[\w./*-]*\w\*?\.go\b`)

// TestCommentsNameFilesThatExist: a comment in a .go file of the root
// module that names a .go file names one that exists — in the same
// directory, at that path from the repository root or from the comment's
// directory, or (a bare name, which may point to another package) anywhere
// in the repository. A name with * is a pattern that must match a file of
// the directory. URLs are not checked.
func TestCommentsNameFilesThatExist(t *testing.T) {
	files, modules := repoFiles(t)
	exists := map[string]bool{}
	base := map[string]bool{}
	for _, f := range files {
		exists[f] = true
		base[f[strings.LastIndexByte(f, '/')+1:]] = true
	}
	found := func(dir, name string) bool {
		if strings.Contains(name, "*") {
			for _, f := range files {
				inDir, _ := filepath.Match(strings.TrimPrefix(dir+"/", "./")+name, f)
				atRoot, _ := filepath.Match(name, f)
				if inDir || atRoot {
					return true
				}
			}
			return false
		}
		if strings.Contains(name, "/") {
			return exists[name] || exists[strings.TrimPrefix(dir+"/", "./")+name]
		}
		return exists[strings.TrimPrefix(dir+"/", "./")+name] || base[name]
	}
	checked := 0
	for _, path := range files {
		dir := pathDir(path)
		if !strings.HasSuffix(path, ".go") || !modules[dir] {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, group := range f.Comments {
			for _, c := range group.List {
				for _, loc := range goFileName.FindAllStringIndex(c.Text, -1) {
					name := c.Text[loc[0]:loc[1]]
					if strings.HasSuffix(c.Text[:loc[0]], ":") || strings.HasPrefix(name, "//") {
						continue // a URL
					}
					checked++
					if !found(dir, name) {
						line := fset.Position(c.Pos()).Line + strings.Count(c.Text[:loc[0]], "\n")
						t.Errorf("%s:%d: the comment names %s, which does not exist: name the file that now holds what it points to, or drop the reference", path, line, name)
					}
				}
			}
		}
	}
	if checked < 20 {
		t.Fatalf("checked only %d file names in comments: is the test run from the repository root?", checked)
	}
}
