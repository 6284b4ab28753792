package loo

import (
	"math"
	"slices"
	"testing"

	"rkhs/dataset"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

func TestGridsAndSplits(t *testing.T) {
	g := Geometric(1e-10, 1e5, 100)
	if g[0] != 1e-10 || g[99] != 1e5 || len(g) != 100 {
		t.Errorf("Geometric ends %v … %v (%d values)", g[0], g[99], len(g))
	}
	for j := 1; j < len(g); j++ {
		if r := g[j] / g[j-1]; math.Abs(r-math.Pow(1e15, 1.0/99)) > 1e-9 {
			t.Fatalf("ratio %v at %d", r, j)
		}
	}
	tr, te := Split(10, 0.7, 5)
	if len(tr) != 7 || len(te) != 3 || !slices.IsSorted(tr) || !slices.IsSorted(te) {
		t.Errorf("Split: %v %v", tr, te)
	}
	if all := append(append([]int(nil), tr...), te...); func() bool { slices.Sort(all); return !slices.Equal(all, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) }() {
		t.Errorf("Split does not partition: %v %v", tr, te)
	}
	folds := KFold(11, 3, 1)
	var seen []int
	for _, f := range folds {
		if len(f) < 3 || len(f) > 4 {
			t.Errorf("fold of %d", len(f))
		}
		seen = append(seen, f...)
		c := Complement(11, f)
		if len(c)+len(f) != 11 {
			t.Errorf("complement of %v is %v", f, c)
		}
	}
	slices.Sort(seen)
	if !slices.Equal(seen, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}) {
		t.Errorf("folds do not partition: %v", folds)
	}
	if !slices.Equal(KFold(11, 3, 1)[0], folds[0]) {
		t.Errorf("KFold not deterministic")
	}
}

// TestSelectRLS: the choice is the grid point with the smallest score in
// the table, and the table's rows are the LOO paths.
func TestSelectRLS(t *testing.T) {
	x, y := housing(80)
	sig, err := DistanceQuantiles(x, []float64{0.1, 0.5, 0.9}, 50, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !(sig[0] <= sig[1] && sig[1] <= sig[2] && sig[0] > 0) {
		t.Errorf("DistanceQuantiles %v", sig)
	}
	lambdas := Geometric(1e-8, 1, 9)
	gauss := func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }
	best, tab, err := SelectRLS(gauss, x, y, sig, lambdas, regress.FreeIntercept)
	if err != nil {
		t.Fatal(err)
	}
	min := math.Inf(1)
	for a := range sig {
		for b := range lambdas {
			min = math.Min(min, tab.Scores[a][b])
		}
	}
	if best.Score != min {
		t.Errorf("best score %v, table minimum %v", best.Score, min)
	}
	s, _ := regress.NewSpectral(gauss(sig[1]), x, y)
	p, _ := RLS(s, lambdas, regress.FreeIntercept)
	if !slices.Equal(p.MSE, tab.Scores[1]) {
		t.Errorf("table row differs from the LOO path")
	}
	lg, err := LambdaGrid(s, 5)
	if err != nil {
		t.Fatal(err)
	}
	ev := s.Values()
	if math.Abs(lg[4]-ev[len(ev)-1]/80) > 1e-15*lg[4] || lg[0] <= 0 {
		t.Errorf("LambdaGrid %v, σ_max/n = %v", lg, ev[len(ev)-1]/80)
	}
}

// TestSplitMatchesDataset: the same n, fraction and seed give the same
// split through loo.Split and dataset.Data.Split (one splitter).
func TestSplitMatchesDataset(t *testing.T) {
	d := &dataset.Data{X: *linalg.NewDense(23, 1, nil), Y: make([]float64, 23)}
	for i := range d.Y {
		d.Y[i] = float64(i) // the label is the row index
		d.X.Set(i, 0, float64(i))
	}
	for _, frac := range []float64{0, 0.3, 2.0 / 3, 1} {
		for seed := uint64(0); seed < 3; seed++ {
			tr, te := Split(23, frac, seed)
			dtr, dte := d.Split(frac, seed)
			got := func(dd *dataset.Data) []int {
				var idx []int
				for _, v := range dd.Y {
					idx = append(idx, int(v))
				}
				return idx
			}
			if !slices.Equal(got(dtr), tr) || !slices.Equal(got(dte), te) {
				t.Errorf("frac %v, seed %d: loo.Split %v | %v, dataset.Split %v | %v", frac, seed, tr, te, got(dtr), got(dte))
			}
		}
	}
}

// TestGeometricSubnormal: a grid between subnormal bounds stays inside
// them and is geometric; math.Log10(1e-320) is -307.95, which put the
// inner points near 1.1e-308, above the upper bound 1e-310.
func TestGeometricSubnormal(t *testing.T) {
	for _, c := range []struct{ lo, hi float64 }{{1e-320, 1e-310}, {5e-324, 1e-300}, {1e-315, 1e-5}} {
		g := Geometric(c.lo, c.hi, 7)
		for j, v := range g {
			if !(v >= c.lo && v <= c.hi) || j > 0 && !(v > g[j-1]) {
				t.Fatalf("Geometric(%g, %g, 7) = %v: not increasing inside the bounds", c.lo, c.hi, g)
			}
		}
		// Equal ratios, to the precision of the subnormal values (the
		// smallest, 5e-324, has one significant bit).
		// math.Log is wrong for subnormals: take logs through math.Frexp.
		ln := func(x float64) float64 { m, k := math.Frexp(x); return math.Log(m) + float64(k)*math.Ln2 }
		step := (ln(c.hi) - ln(c.lo)) / 6
		for j := 1; j < len(g); j++ {
			if d := ln(g[j]) - ln(g[j-1]); math.Abs(d-step) > 0.05*step+math.Log(1+2/math.Max(g[j-1]/5e-324, 1)) {
				t.Errorf("Geometric(%g, %g, 7): log step %d is %g, want %g", c.lo, c.hi, j, d, step)
			}
		}
	}
}
