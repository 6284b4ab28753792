package rkhs_test

// Comments name only what exists: an identifier a comment writes in
// backquotes or as pkg.Name (pkg.Type.Method) must be declared, so that a
// rename or a deletion cannot leave a comment pointing nowhere; and a doc
// comment starts with the name it documents, as go doc reads it.

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strings"
	"testing"
)

// goPackage is what the tests need of one package directory: its name,
// every identifier its files declare or use (top level, methods and
// fields as Type.Name, parameters and locals), and its parsed files.
type goPackage struct {
	name  string
	top   map[string]bool // top-level declarations, and Type.Method, Type.Field
	all   map[string]bool // every identifier written in the package's files
	files map[string]*ast.File
	fset  *token.FileSet
}

// repoPackages parses every .go file of the repository (the nested
// modules too: their comments name the root module's identifiers, and
// the other way round) and returns the packages by directory.
func repoPackages(t *testing.T) map[string]*goPackage {
	t.Helper()
	files, _ := repoFiles(t)
	pkgs := map[string]*goPackage{}
	for _, path := range files {
		if !strings.HasSuffix(path, ".go") || strings.Contains(path, "/testdata/") {
			continue
		}
		dir := pathDir(path)
		p := pkgs[dir]
		if p == nil {
			p = &goPackage{top: map[string]bool{}, all: map[string]bool{}, files: map[string]*ast.File{}, fset: token.NewFileSet()}
			pkgs[dir] = p
		}
		f, err := parser.ParseFile(p.fset, path, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(path, "_test.go") || p.name == "" {
			p.name = strings.TrimSuffix(f.Name.Name, "_test")
		}
		p.files[path] = f
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				p.all[id.Name] = true
			}
			return true
		})
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil && len(d.Recv.List) == 1 {
					p.top[receiverType(d.Recv.List[0].Type)+"."+d.Name.Name] = true
				} else {
					p.top[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						p.top[s.Name.Name] = true
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, fl := range st.Fields.List {
								for _, n := range fl.Names {
									p.top[s.Name.Name+"."+n.Name] = true
								}
								if len(fl.Names) == 0 { // embedded: its methods and fields are the type's too
									p.top[s.Name.Name+"."+receiverType(fl.Type)] = true
								}
							}
						}
						if it, ok := s.Type.(*ast.InterfaceType); ok {
							for _, m := range it.Methods.List {
								for _, n := range m.Names {
									p.top[s.Name.Name+"."+n.Name] = true
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							p.top[n.Name] = true
						}
					}
				}
			}
		}
	}
	return pkgs
}

// receiverType returns the name of a receiver's (or embedded field's)
// type: T for T, *T, T[P] and pkg.T.
func receiverType(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return receiverType(e.X)
	case *ast.IndexExpr:
		return receiverType(e.X)
	case *ast.IndexListExpr:
		return receiverType(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.Ident:
		return e.Name
	}
	return ""
}

var (
	// qualified matches pkg.Name and pkg.Type.Member in prose.
	qualified = regexp.MustCompile(`\b([a-z][a-z0-9]*)\.([A-Z]\w*)(?:\.([A-Za-z]\w*))?`)
	// quoted matches an identifier in backquotes: `name`, `Type.Method`.
	quoted = regexp.MustCompile("`([A-Za-z_]\\w*(?:\\.[A-Za-z_]\\w*)*)`")
	// camel matches a word in prose that starts with two lower-case
	// letters and has a hump, an upper-case letter followed by a lower-case
	// one (drawCenters): no English word is written so, and every such
	// word is an identifier (the Greek-free notation of the comments — nL, mI, qL —
	// has no second lower-case letter before its hump).
	camel = regexp.MustCompile(`(?:^|[^\w.\-/])([a-z]{2}[a-z0-9]*[A-Z][a-z][A-Za-z0-9]*)\b`)

	// elsewhere are identifiers comments name that are declared outside
	// the repository.
	elsewhere = map[string]string{
		"asyncPreempt": "the Go runtime's asynchronous preemption",
	}
)

// TestCommentsNameIdentifiersThatExist: in every comment of the
// repository, pkg.Name and pkg.Type.Member name a declaration of that
// package of the repository (when pkg is one), and an identifier in
// backquotes is declared in the repository or written in the comment's
// package (a parameter, a local), and so is a word of prose written as
// only an identifier is (see camel); names of the standard library
// written with their package are not checked.
func TestCommentsNameIdentifiersThatExist(t *testing.T) {
	pkgs := repoPackages(t)
	byName := map[string][]*goPackage{}
	declared := map[string]bool{}
	for _, p := range pkgs {
		if p.name != "main" {
			byName[p.name] = append(byName[p.name], p)
		}
		for n := range p.top {
			declared[n] = true
			if i := strings.IndexByte(n, '.'); i > 0 {
				declared[n[i+1:]] = true
			}
		}
	}
	has := func(pkg, name, member string) bool {
		for _, p := range byName[pkg] {
			if member == "" && p.top[name] || member != "" && (p.top[name+"."+member] || p.top[name] && embeds(p, name, member)) {
				return true
			}
		}
		return false
	}
	checked := 0
	for dir, p := range pkgs {
		for path, f := range p.files {
			for _, group := range f.Comments {
				text := group.Text()
				line := p.fset.Position(group.Pos()).Line
				for _, m := range qualified.FindAllStringSubmatch(text, -1) {
					if byName[m[1]] == nil || m[1] == "main" {
						continue // not one of the repository's packages
					}
					checked++
					if !has(m[1], m[2], m[3]) {
						t.Errorf("%s:%d: the comment names %s, which package %s does not declare: name what exists now", path, line, m[0], m[1])
					}
				}
				for _, m := range camel.FindAllStringSubmatch(text, -1) {
					checked++
					if !declared[m[1]] && !p.all[m[1]] && elsewhere[m[1]] == "" {
						t.Errorf("%s:%d: the comment names %s, which is declared nowhere in %s or the repository: name what exists now", path, line, m[1], dir)
					}
				}
				for _, m := range quoted.FindAllStringSubmatch(text, -1) {
					name := m[1]
					parts := strings.Split(name, ".")
					if len(parts) > 1 && byName[parts[0]] != nil {
						continue // pkg.Name: checked above
					}
					if len(parts) > 1 && strings.ToLower(parts[0]) == parts[0] && !declared[parts[0]] {
						continue // a standard library name, or a file
					}
					if !strings.ContainsAny(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_.") {
						continue // a plain word: a parameter, a flag value, a command
					}
					checked++
					last := parts[len(parts)-1]
					if !declared[name] && !declared[last] && !p.all[last] {
						t.Errorf("%s:%d: the comment names `%s`, which is declared nowhere in %s or the repository: name what exists now", path, line, name, dir)
					}
				}
			}
		}
	}
	if checked < 200 {
		t.Fatalf("checked only %d identifiers in comments: is the test run from the repository root?", checked)
	}
}

// embeds reports whether the type name of package p has member through
// one of its embedded fields (a method or field promoted from it).
func embeds(p *goPackage, name, member string) bool {
	for k := range p.top {
		if emb, ok := strings.CutPrefix(k, name+"."); ok && p.top[emb] && (p.top[emb+"."+member] || embeds(p, emb, member)) {
			return true
		}
	}
	return false
}

// TestDocCommentsStartWithTheirName: the doc comment of every top-level
// declaration of the root module's non-test files starts with the name it
// documents (a type's may start with "A" or "An" before it), so that go doc
// and a reader find the declaration they came for.
func TestDocCommentsStartWithTheirName(t *testing.T) {
	pkgs := repoPackages(t)
	_, modules := repoFiles(t)
	for dir, p := range pkgs {
		if !modules[dir] {
			continue
		}
		for path, f := range p.files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			check := func(name string, doc *ast.CommentGroup, isType bool) {
				if doc == nil || name == "_" {
					return
				}
				words := strings.Fields(doc.Text())
				if len(words) == 0 {
					return // only directives (//go:embed, //go:noinline)
				}
				if isType && len(words) > 1 && (words[0] == "A" || words[0] == "An") {
					words = words[1:]
				}
				if len(words) == 0 || strings.TrimRight(words[0], ",:;") != name {
					t.Errorf("%s:%d: the doc comment of %s starts with %q: start it with the name", path, p.fset.Position(doc.Pos()).Line, name, strings.Join(words[:min(4, len(words))], " "))
				}
			}
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					check(d.Name.Name, d.Doc, false)
				case *ast.GenDecl:
					if len(d.Specs) != 1 || d.Lparen.IsValid() {
						continue // a group's comment is the group's
					}
					switch s := d.Specs[0].(type) {
					case *ast.TypeSpec:
						check(s.Name.Name, d.Doc, true)
					case *ast.ValueSpec:
						if len(s.Names) == 1 {
							check(s.Names[0].Name, d.Doc, false)
						}
					}
				}
			}
		}
	}
}
