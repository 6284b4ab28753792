package rkhs_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// documents returns every Markdown file of the repository (as git lists
// them; see repoFiles): README.md, BENCHMARKS.md, docs/ and the nested
// modules' READMEs.
func documents(t *testing.T) []string {
	t.Helper()
	files, _ := repoFiles(t)
	var docs []string
	for _, f := range files {
		if strings.HasSuffix(f, ".md") {
			docs = append(docs, f)
		}
	}
	return docs
}

var (
	fence    = regexp.MustCompile("^\\s*(```|~~~)")
	codeSpan = regexp.MustCompile("`[^`]*`")
	mdLink   = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading  = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
	htmlID   = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
)

// scan returns the link targets of a Markdown file (outside code) and the
// anchors its headings define, as GitHub names them.
func scan(t *testing.T, path string) (links, anchors []string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]int{}
	inFence := false
	s := bufio.NewScanner(f)
	s.Buffer(nil, 1<<20)
	for s.Scan() {
		line := s.Text()
		if fence.MatchString(line) {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		if m := heading.FindStringSubmatch(line); m != nil {
			slug := githubSlug(m[1])
			if n := seen[slug]; n > 0 {
				anchors = append(anchors, slug+"-"+strconv.Itoa(n))
			} else {
				anchors = append(anchors, slug)
			}
			seen[slug]++
		}
		for _, m := range htmlID.FindAllStringSubmatch(line, -1) {
			anchors = append(anchors, m[1])
		}
		for _, m := range mdLink.FindAllStringSubmatch(codeSpan.ReplaceAllString(line, ""), -1) {
			links = append(links, m[1])
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if inFence {
		t.Errorf("%s: a code block is never closed", path)
	}
	return links, anchors
}

// githubSlug is the anchor GitHub gives a heading: lower case, every
// character but letters, marks, digits, '_', '-' and spaces dropped, spaces
// turned into hyphens.
func githubSlug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestGithubSlug(t *testing.T) {
	for _, tc := range []struct{ heading, want string }{
		{"Large data: Falkon", "large-data-falkon"},
		{"The experiment of Prato and Zanni (2012): `rkhs paper`", "the-experiment-of-prato-and-zanni-2012-rkhs-paper"},
		{"At n = 10⁹ rows: an estimate", "at-n--10⁹-rows-an-estimate"},
		{"Kernel blocks at small d: a pure-Go exp and the streamed Kᵀ(K·V)", "kernel-blocks-at-small-d-a-pure-go-exp-and-the-streamed-kᵀkv"},
		{"Matrix–vector products without packing", "matrixvector-products-without-packing"},
	} {
		if got := githubSlug(tc.heading); got != tc.want {
			t.Errorf("githubSlug(%q) = %q, want %q", tc.heading, got, tc.want)
		}
	}
}

// exportIgnored lists the top-level paths .gitattributes marks
// export-ignore: a `git archive` of the repository leaves them out, and a
// link into one of them is not checked when it is absent.
func exportIgnored(t *testing.T) map[string]bool {
	t.Helper()
	raw, err := os.ReadFile(".gitattributes")
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	ignored := map[string]bool{}
	for _, line := range strings.Split(string(raw), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[1] == "export-ignore" {
			ignored[strings.Trim(f[0], "/")] = true
		}
	}
	return ignored
}

// TestDocumentLinks: every relative link of README.md, BENCHMARKS.md and
// docs/ names a file that exists, and every #anchor a heading of its file.
func TestDocumentLinks(t *testing.T) {
	ignored := exportIgnored(t)
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		_, list := scan(t, path)
		a := map[string]bool{}
		for _, s := range list {
			a[s] = true
		}
		anchors[path] = a
		return a
	}
	checked := 0
	for _, doc := range documents(t) {
		links, _ := scan(t, doc)
		for _, link := range links {
			if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
				continue
			}
			target, frag, _ := strings.Cut(link, "#")
			path := doc
			if target != "" {
				path = filepath.Join(filepath.Dir(doc), filepath.FromSlash(target))
			}
			if _, err := os.Stat(path); err != nil {
				top, _, _ := strings.Cut(filepath.ToSlash(filepath.Clean(path)), "/")
				if _, errTop := os.Stat(top); os.IsNotExist(errTop) && ignored[top] {
					continue // left out of this archive on purpose
				}
				t.Errorf("%s: link %q: %v", doc, link, err)
				continue
			}
			checked++
			if frag != "" && strings.HasSuffix(path, ".md") && !anchorsOf(path)[frag] {
				t.Errorf("%s: link %q: no heading of %s has the anchor %q", doc, link, path, frag)
			}
		}
	}
	if checked == 0 {
		t.Error("no relative link found: the scan is broken")
	}
}
