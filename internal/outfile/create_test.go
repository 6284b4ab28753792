package outfile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCreateInParts: an output written in parts replaces the file only at
// Close; one given up by Abort leaves the old file and nothing beside it.
func TestCreateInParts(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out")
	if err := os.WriteFile(p, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, abort := range []bool{true, false} {
		w, err := Create(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, part := range []string{"a\n", "b\n"} {
			if _, err := w.Write([]byte(part)); err != nil {
				t.Fatal(err)
			}
		}
		if b, _ := os.ReadFile(p); string(b) != "old\n" {
			t.Errorf("before Close the file holds %q, want its old content", b)
		}
		want := "a\nb\n"
		if abort {
			w.Abort()
			want = "old\n"
		} else if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(p); string(b) != want {
			t.Errorf("abort %v: the file holds %q, want %q", abort, b, want)
		}
		if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) != 0 {
			t.Errorf("abort %v: left %v behind", abort, left)
		}
	}
}
