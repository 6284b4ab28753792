package datasets

import (
	"strings"
	"testing"
)

// TestAll: every set parses with the documented shape.
func TestAll(t *testing.T) {
	for _, in := range All {
		d, err := Load(in.Name)
		if err != nil {
			t.Fatalf("%s: %v", in.Name, err)
		}
		if d.X.Rows != in.Rows || d.X.Cols != in.Features || len(d.Y) != in.Rows {
			t.Errorf("%s: %d×%d with %d labels, want %d×%d", in.Name, d.X.Rows, d.X.Cols, len(d.Y), in.Rows, in.Features)
		}
	}
	if _, err := Load("nope"); err == nil {
		t.Errorf("Load of an unknown name succeeded")
	}
}

// TestREADMENames: the first column of README.md's table is exactly the
// names Load accepts, with the file each stands for, in the order of All.
func TestREADMENames(t *testing.T) {
	raw, err := files.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows [][2]string
	for _, line := range strings.Split(string(raw), "\n") {
		f := strings.Split(line, "|")
		if len(f) < 4 || !strings.HasPrefix(strings.TrimSpace(f[2]), "`") {
			continue
		}
		rows = append(rows, [2]string{strings.TrimSpace(f[1]), strings.Trim(strings.TrimSpace(f[2]), "`")})
	}
	if len(rows) != len(All) {
		t.Fatalf("README.md lists %d sets, All has %d", len(rows), len(All))
	}
	for i, in := range All {
		if rows[i] != [2]string{in.Name, in.Path} {
			t.Errorf("README.md row %d: %q, %q; want %q, %q", i+1, rows[i][0], rows[i][1], in.Name, in.Path)
		}
	}
}
