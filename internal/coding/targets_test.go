package coding

import (
	"testing"

	"rkhs/linalg"
)

func TestTargets(t *testing.T) {
	for _, c := range []struct {
		name            string
		labels, classes []float64
		cols            int
		want            []float64
		bad             int
	}{
		{"two classes", []float64{3, -1, 3, -1}, []float64{-1, 3}, 1, []float64{1, -1, 1, -1}, -1},
		{"minus zero", []float64{0, 1}, []float64{0, 1}, 1, []float64{-1, 1}, -1},
		{"one against all", []float64{2, 0, 1}, []float64{0, 1, 2}, 3, []float64{-1, -1, 1, 1, -1, -1, -1, 1, -1}, -1},
		{"unknown label", []float64{0, 5, 1}, []float64{0, 1}, 1, []float64{-1, 0, 0}, 1},
	} {
		if c.name == "minus zero" {
			c.labels[0] = -c.labels[0] * 1 // −0 codes as +0
		}
		dst := linalg.NewDense(len(c.labels), c.cols, nil)
		if bad := Targets(dst, c.labels, c.classes); bad != c.bad {
			t.Errorf("%s: bad row %d, want %d", c.name, bad, c.bad)
		}
		for i, v := range c.want {
			if dst.Data[i] != v {
				t.Errorf("%s: entry %d = %g, want %g", c.name, i, dst.Data[i], v)
			}
		}
	}
}
