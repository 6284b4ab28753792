package datasets

import "testing"

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
