package loo

import (
	"math"
	"slices"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// TestDefaultGrids: the σ grid is the median × 1/4…4, the λ grid 51
// values five a decade from 1e-10 to 1, and each call returns a new
// slice.
func TestDefaultGrids(t *testing.T) {
	if got, want := DefaultSigmas(3), []float64{0.75, 1.5, 3, 6, 12}; !slices.Equal(got, want) {
		t.Errorf("DefaultSigmas(3) = %v, want %v", got, want)
	}
	DefaultSigmaRatios()[0] = 7
	if got := DefaultSigmaRatios()[0]; got != 0.25 {
		t.Errorf("DefaultSigmaRatios()[0] after a caller's write: %v, want 0.25", got)
	}
	l := DefaultLambdas()
	if len(l) != 51 || l[0] != 1e-10 || l[50] != 1 || math.Abs(l[5]/1e-9-1) > 1e-12 {
		t.Errorf("DefaultLambdas: %d values, %v … %v, the sixth %v; want 51 from 1e-10 to 1, the sixth 1e-9", len(l), l[0], l[len(l)-1], l[5])
	}
}

// TestDefaultSubset: every row up to 100,000 rows, 20,000 above.
func TestDefaultSubset(t *testing.T) {
	for _, c := range []struct{ n, want int }{{0, 0}, {5, 0}, {100_000, 0}, {100_001, 20_000}, {5_000_000, 20_000}} {
		if got := DefaultSubset(c.n); got != c.want {
			t.Errorf("DefaultSubset(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

// TestMedianRows: the median of the rows MedianRows names, gathered in
// their order, is MedianDistanceOf's on all the rows, bit for bit — below
// TestDefaultDescentRows: every row up to 100,000 rows, 50,000 above, the
// leave-one-out subset among them and at least MinDescentRows of 1000
// centres.
func TestDefaultDescentRows(t *testing.T) {
	for _, c := range []struct{ n, want int }{{0, 0}, {2, 0}, {16_512, 0}, {100_000, 0}, {100_001, 50_000}, {256_525, 50_000}, {1_000_000, 50_000}} {
		got := DefaultDescentRows(c.n)
		if got != c.want {
			t.Errorf("DefaultDescentRows(%d) = %d, want %d", c.n, got, c.want)
		}
		if s := DefaultSubset(c.n); got > 0 && (s > got || got < MinDescentRows(1000)) {
			t.Errorf("DefaultDescentRows(%d) = %d: below the leave-one-out subset %d or MinDescentRows(1000) = %d", c.n, got, s, MinDescentRows(1000))
		}
	}
}

// the sample's size (every row) and above it (a seeded sample).
func TestMedianRows(t *testing.T) {
	for _, n := range []int{40, DefaultMedianRows, DefaultMedianRows + 300} {
		x := distinctRows(3, n, 4)
		rows := MedianRows(n, 9)
		if want := min(n, DefaultMedianRows); len(rows) != want || !slices.IsSorted(rows) {
			t.Fatalf("n = %d: %d rows (sorted %v), want %d sorted", n, len(rows), slices.IsSorted(rows), want)
		}
		g := linalg.NewDense(len(rows), x.Cols, nil)
		for a, i := range rows {
			copy(g.Row(a), x.Row(i))
		}
		for _, k := range []kernels.Kernel{kernels.Gaussian{}, kernels.Laplacian{}} {
			norm, _ := NormOf(k)
			got, err1 := MedianDistance(g, norm, 0, 1)
			want, err2 := MedianDistanceOf(k, x, 9)
			if err1 != nil || err2 != nil || got != want {
				t.Errorf("n = %d, %T: the gathered rows' median %v (%v), MedianDistanceOf %v (%v); want the same", n, k, got, err1, want, err2)
			}
		}
	}
}

// TestSelectNystromDefaultGrids: nil Sigmas and Lambdas choose on the
// default grids, exactly as the grids given explicitly do.
func TestSelectNystromDefaultGrids(t *testing.T) {
	x, y := housing(120)
	gauss := func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }
	sn := SelectNystrom{Kernel: gauss, Centers: x.Slice(0, 20, 0, x.Cols), Intercept: regress.FreeIntercept, Seed: 4}
	got, err := sn.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	med, err := MedianDistanceOf(kernels.Gaussian{}, x, 4)
	if err != nil {
		t.Fatal(err)
	}
	sn.Sigmas, sn.Lambdas = DefaultSigmas(med), DefaultLambdas()
	want, err := sn.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	if got.Choice != want.Choice || !slices.Equal(got.Scores.Sigmas, want.Scores.Sigmas) || !slices.Equal(got.Scores.Lambdas, want.Scores.Lambdas) {
		t.Errorf("nil grids: %+v on σ %v, %d λ; the defaults given: %+v on σ %v, %d λ",
			got.Choice, got.Scores.Sigmas, len(got.Scores.Lambdas), want.Choice, want.Scores.Sigmas, len(want.Scores.Lambdas))
	}
	sn.Sigmas, sn.Kernel = nil, func(float64) kernels.Kernel { return kernels.Linear{} }
	if _, err := sn.Fit(x, y); err == nil {
		t.Errorf("nil Sigmas with a linear kernel: no error, want one (it has no width)")
	}
}

// TestDefaultDescentCenters: every centre up to 400, then 2/5 of them and
// at least 400.
func TestDefaultDescentCenters(t *testing.T) {
	for _, c := range []struct{ m, want int }{{1, 1}, {30, 30}, {400, 400}, {401, 400}, {1000, 400}, {1001, 400}, {2000, 800}, {4000, 1600}} {
		if got := DefaultDescentCenters(c.m); got != c.want {
			t.Errorf("DefaultDescentCenters(%d) = %d, want %d", c.m, got, c.want)
		}
	}
}
