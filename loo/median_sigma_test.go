package loo

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"rkhs/linalg"
)

// TestMedianSigma: the median of the pairwise distances by brute force,
// all rows and a sample; the sample is the default's and depends on the
// seed only; equal rows are left out.
func TestMedianSigma(t *testing.T) {
	// Points 0, 1, 3, 7 on a line: distances 1, 2, 3, 4, 6, 7; the upper
	// middle of six is 4.
	line := linalg.NewDense(4, 1, []float64{0, 1, 3, 7})
	// With a repeated point the zero distance is left out: 1, 2, 2, 3, 3.
	rep := linalg.NewDense(4, 1, []float64{0, 1, 3, 3})
	x := linalg.NewDense(1500, 3, nil)
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range x.Data {
		x.Data[i] = rnd.NormFloat64()
	}
	for _, c := range []struct {
		name      string
		x         *linalg.Dense
		maxPoints int
		want      float64
	}{
		{"line", line, 0, 4},
		{"repeated point", rep, 0, 2},
		{"housing, all rows", x, 1500, bruteMedian(x, nil)},
		{"housing, 200 rows", x, 200, bruteMedian(x, sampleOf(x.Rows, 200, 7))},
		{"housing, default", x, 0, bruteMedian(x, sampleOf(x.Rows, DefaultMedianRows, 7))},
	} {
		got, err := MedianSigma(c.x, c.maxPoints, 7)
		if err != nil || math.Abs(got-c.want) > 1e-12*c.want {
			t.Errorf("%s: %v, %v; want %v", c.name, got, err, c.want)
		}
	}
	a, _ := MedianSigma(x, 100, 1)
	b, _ := MedianSigma(x, 100, 1)
	c, _ := MedianSigma(x, 100, 2)
	if a != b || a == c {
		t.Errorf("seed 1 gives %v then %v, seed 2 %v: want the same, then another", a, b, c)
	}
}

// sampleOf returns the rows SigmaGrid samples: its seeded permutation.
func sampleOf(n, k int, seed uint64) []int {
	if n <= k {
		return nil
	}
	r := rand.New(rand.NewPCG(seed, 0x7369676d61)).Perm(n)[:k] // SigmaGrid's draw
	slices.Sort(r)
	return r
}

// bruteMedian is the upper middle of the sorted non-zero distances between
// the rows (all when rows is nil), each by its definition.
func bruteMedian(x *linalg.Dense, rows []int) float64 {
	if rows == nil {
		for i := 0; i < x.Rows; i++ {
			rows = append(rows, i)
		}
	}
	var d []float64
	for a, i := range rows {
		for _, j := range rows[a+1:] {
			var s float64
			for k := 0; k < x.Cols; k++ {
				s += (x.At(i, k) - x.At(j, k)) * (x.At(i, k) - x.At(j, k))
			}
			if s > 0 {
				d = append(d, math.Sqrt(s))
			}
		}
	}
	slices.Sort(d)
	return d[len(d)/2]
}

func TestMedianSigmaErrors(t *testing.T) {
	x := linalg.NewDense(3, 1, []float64{0, 1, 3})
	for _, c := range []struct {
		name      string
		x         *linalg.Dense
		maxPoints int
		arg       string
		notFinite bool
	}{
		{"maxPoints 1", x, 1, "maxPoints", false},
		{"maxPoints −1", x, -1, "maxPoints", false},
		{"nil", nil, 0, "X", false},
		{"one row", linalg.NewDense(1, 1, []float64{1}), 0, "X", false},
		{"NaN", linalg.NewDense(2, 1, []float64{0, math.NaN()}), 0, "X", true},
		{"all equal", linalg.NewDense(3, 1, []float64{2, 2, 2}), 0, "X", false},
	} {
		_, err := MedianSigma(c.x, c.maxPoints, 1)
		var ie *linalg.InputError
		if !errors.As(err, &ie) || !errors.Is(err, ErrInput) || ie.Op != "MedianSigma" || !strings.HasPrefix(ie.Arg, c.arg) ||
			errors.Is(err, linalg.ErrNotFinite) != c.notFinite {
			t.Errorf("%s: %v; want an ErrInput from MedianSigma naming %s (not finite: %v)", c.name, err, c.arg, c.notFinite)
		}
	}
}
