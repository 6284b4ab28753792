package cli

import (
	"slices"
	"strings"
	"testing"
)

// TestGrid: the grids that read, and one refusal, naming the flag, for
// each way a grid can be wrong — among them a COUNT that would allocate
// without bound, a COUNT of one that drops MAX, and equal values.
func TestGrid(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []float64
		err  string
	}{
		{"1e-3:1e-1:3", []float64{1e-3, 1e-2, 1e-1}, ""},
		{"2:2:1", []float64{2}, ""},
		{"1:100:10000", nil, ""},
		{"1e-10:1:9000000000000000000", nil, "COUNT 9000000000000000000 is more than 10000 values"},
		{"1:100:10001", nil, "more than 10000"},
		{"1:2:1", nil, "one value from 1 to 2"},
		{"1:1:3", nil, "3 values all equal to 1"},
		{"1e-3:1e-3:4", nil, "4 values all equal"},
		{"0:1:3", nil, "want 0 < MIN ≤ MAX"},
		{"2:1:3", nil, "want 0 < MIN ≤ MAX"},
		{"1:1e301:3", nil, "want 0 < MIN ≤ MAX ≤ 1e300"},
		{"1:2:0", nil, "COUNT ≥ 1"},
		{"1:2:2.5", nil, "COUNT ≥ 1"},
		{"NaN:2:2", nil, "want 0 < MIN"},
		{"1:2", nil, "want MIN:MAX:COUNT"},
		{"1,2,3", nil, "want MIN:MAX:COUNT"},
	} {
		g, err := Grid("lambdas", c.in)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%q: %v", c.in, err)
		case c.err != "" && (Status(err) != 2 || !strings.Contains(err.Error(), c.err) || !strings.HasPrefix(err.Error(), "-lambdas ")):
			t.Errorf("%q: %v, want a refusal of -lambdas containing %q", c.in, err, c.err)
		case c.want != nil && !slices.Equal(g, c.want):
			t.Errorf("%q: %v, want %v", c.in, g, c.want)
		}
	}
}
