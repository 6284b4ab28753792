package loo

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
)

// TestMedianDistance: the median of the pairwise distances by brute force,
// all rows and a sample; the sample is the default's and depends on the
// seed only; equal rows are left out.
func TestMedianDistance(t *testing.T) {
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
		got, err := medianL2(c.x, c.maxPoints, 7)
		if err != nil || math.Abs(got-c.want) > 1e-12*c.want {
			t.Errorf("%s: %v, %v; want %v", c.name, got, err, c.want)
		}
	}
	a, _ := medianL2(x, 100, 1)
	b, _ := medianL2(x, 100, 1)
	c, _ := medianL2(x, 100, 2)
	if a != b || a == c {
		t.Errorf("seed 1 gives %v then %v, seed 2 %v: want the same, then another", a, b, c)
	}
}

// sampleOf returns the rows DistanceQuantiles samples: its seeded permutation.
func sampleOf(n, k int, seed uint64) []int {
	if n <= k {
		return nil
	}
	r := rand.New(rand.NewPCG(seed, 0x7369676d61)).Perm(n)[:k] // DistanceQuantiles's draw
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

func TestMedianDistanceErrors(t *testing.T) {
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
		_, err := medianL2(c.x, c.maxPoints, 1)
		var ie *linalg.InputError
		if !errors.As(err, &ie) || !errors.Is(err, ErrInput) || ie.Op != "MedianDistance" || !strings.HasPrefix(ie.Arg, c.arg) ||
			errors.Is(err, linalg.ErrNotFinite) != c.notFinite {
			t.Errorf("%s: %v; want an ErrInput from MedianDistance naming %s (not finite: %v)", c.name, err, c.arg, c.notFinite)
		}
	}
}

// distinctRows returns n distinct rows of d features, normal deviates.
func distinctRows(seed uint64, n, d int) *linalg.Dense {
	x := linalg.NewDense(n, d, nil)
	rnd := rand.New(rand.NewPCG(seed, 2))
	for i := range x.Data {
		x.Data[i] = rnd.NormFloat64()
	}
	return x
}

// timesAll returns a copy of x with every element multiplied by f.
func timesAll(x *linalg.Dense, f float64) *linalg.Dense {
	c := x.Clone()
	for i := range c.Data {
		c.Data[i] *= f
	}
	return c
}

// TestMedianDistanceScales: 200 distinct rows multiplied by 2^k or 10^k
// keep their median distance times the factor — bit for bit for a power
// of two (it scales every sum exactly), to 1e-14 for a power of ten —
// in both norms, from 1e-300 to 1e300: the squares neither overflow nor
// underflow. The Euclidean median of ordinary data is the brute-force
// one bit for bit. MedianDistance refuses a median whose Gaussian widths
// would overflow, naming the cause, and accepts one of 1e100.
func TestMedianDistanceScales(t *testing.T) {
	x := distinctRows(3, 200, 4)
	if got, want := mustMedian(t, x, L2), bruteMedian(x, nil); got != want {
		t.Errorf("ordinary data: %v, want the brute-force %v bit for bit", got, want)
	}
	for _, norm := range []Norm{L2, L1} {
		base := mustMedian(t, x, norm)
		for _, k := range []int{-1000, -700, -400, 400, 700, 1000} {
			got, err := MedianDistance(timesAll(x, math.Ldexp(1, k)), norm, 0, 1)
			if norm == L2 {
				got, err = gridMedian(timesAll(x, math.Ldexp(1, k)))
			}
			if want := math.Ldexp(base, k); err != nil || got != want {
				t.Errorf("%v ×2^%d: %v, %v; want %v", norm, k, got, err, want)
			}
		}
		for _, f := range []float64{1e-300, 1e-200, 1e200, 1e300} {
			got, err := MedianDistance(timesAll(x, f), norm, 0, 1)
			if norm == L2 {
				got, err = gridMedian(timesAll(x, f))
			}
			if err != nil || math.Abs(got/(base*f)-1) > 1e-14 {
				t.Errorf("%v ×%g: %v, %v; want %v", norm, f, got, err, base*f)
			}
		}
	}
	for _, c := range []struct {
		f    float64
		want string // "" for a median
	}{
		{1e-200, "is too small for the width of a Gaussian kernel: 1/(2σ²) overflows for σ down to 1/16 of it: standardize"},
		{1e-154, "is too small"},
		{1e-152, ""}, // a median near 2.5e-152
		{1e-100, ""},
		{1e100, ""},
		{1e152, ""}, // 2.5e152
		{1e153, "is too large for the width of a Gaussian kernel: 2σ² overflows for σ up to 16 times it: standardize"},
		{1e200, "is too large"},
	} {
		xs := timesAll(x, c.f)
		_, err := medianL2(xs, 0, 1)
		_, errD := MedianDistance(xs, L2, 0, 1)
		if c.want == "" && (err != nil || errD != nil) {
			t.Errorf("×%g: %v, %v; want a median", c.f, err, errD)
		}
		if c.want != "" && (!errors.Is(err, ErrInput) || !strings.Contains(fmt.Sprint(err), "MedianDistance: X: the median distance") ||
			!strings.Contains(fmt.Sprint(err), c.want) || !errors.Is(errD, ErrInput)) {
			t.Errorf("×%g: %v; want ErrInput saying %q", c.f, err, c.want)
		}
		if c.want != "" {
			if s, err := DistanceQuantiles(xs, []float64{0.5}, 0, 1); err != nil || s[0] <= 0 || math.IsInf(s[0], 0) {
				t.Errorf("DistanceQuantiles ×%g: %v, %v; want the median, finite", c.f, s, err)
			}
		}
	}
}

// mustMedian returns MedianDistance(x, norm, 0, 1) or fails the test.
func mustMedian(t *testing.T, x *linalg.Dense, norm Norm) float64 {
	t.Helper()
	m, err := MedianDistance(x, norm, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// gridMedian is DistanceQuantiles's quantile 0.5, which does not refuse widths
// the Gaussian kernel cannot use.
func gridMedian(x *linalg.Dense) (float64, error) {
	s, err := DistanceQuantiles(x, []float64{0.5}, 0, 1)
	if err != nil {
		return 0, err
	}
	return s[0], nil
}

// TestMedianDistanceNorms: on rows that differ in every feature by the
// same amount, i·(1, …, 1), the 1-norm distance is d|i − j| and the
// Euclidean √d|i − j|; on rows that differ in one feature, i·e₁, both are
// |i − j|. The medians are those of |i − j| times those factors, and
// MedianDistanceOf is MedianDistance in the kernel's norm, bit for bit.
func TestMedianDistanceNorms(t *testing.T) {
	const n, d = 30, 9
	// The upper middle of the sorted |i − j|, i < j < n.
	var gaps []float64
	for i := range n {
		for j := i + 1; j < n; j++ {
			gaps = append(gaps, float64(j-i))
		}
	}
	slices.Sort(gaps)
	gap := gaps[len(gaps)/2]
	diag, axis := linalg.NewDense(n, d, nil), linalg.NewDense(n, d, nil)
	for i := range n {
		for k := range d {
			diag.Set(i, k, 0.25*float64(i))
		}
		axis.Set(i, 0, 0.25*float64(i))
	}
	for _, c := range []struct {
		name string
		x    *linalg.Dense
		norm Norm
		want float64
	}{
		{"diagonal L1", diag, L1, d * 0.25 * gap},
		{"diagonal L2", diag, L2, 3 * 0.25 * gap}, // √9 = 3
		{"axis L1", axis, L1, 0.25 * gap},
		{"axis L2", axis, L2, 0.25 * gap},
	} {
		if got := mustMedian(t, c.x, c.norm); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	for _, x := range []*linalg.Dense{diag, axis, distinctRows(4, 1200, 3)} {
		a, errA := MedianDistanceOf(kernels.Gaussian{Sigma: 2}, x, 5)
		b, errB := MedianDistance(x, L2, 0, 5)
		c, errC := MedianDistanceOf(kernels.Laplacian{}, x, 5)
		d, errD := MedianDistance(x, L1, 0, 5)
		if errA != nil || errB != nil || a != b || errC != nil || errD != nil || c != d {
			t.Errorf("MedianDistanceOf %v, %v and %v, %v; MedianDistance %v, %v and %v, %v: want the same", a, errA, c, errC, b, errB, d, errD)
		}
	}
	for k, want := range map[kernels.Kernel]Norm{kernels.Gaussian{}: L2, kernels.Laplacian{Sigma: 3}: L1} {
		if got, err := NormOf(k); got != want || err != nil {
			t.Errorf("NormOf(%T) = %v, %v; want %v", k, got, err, want)
		}
	}
	if _, err := NormOf(kernels.Linear{}); !errors.Is(err, ErrInput) {
		t.Errorf("NormOf(Linear) = %v, want ErrInput", err)
	}
	if _, err := MedianDistance(diag, Norm(7), 0, 1); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "norm: Norm(7)") {
		t.Errorf("Norm(7): %v, want ErrInput naming the norm", err)
	}
}

// TestMedianDistanceOverflow: rows near ±MaxFloat64 whose distances
// overflow float64 give an error in either norm, not a median of +Inf;
// DistanceQuantiles returns the +Inf quantile as it is.
func TestMedianDistanceOverflow(t *testing.T) {
	x := linalg.NewDense(4, 2, []float64{1.5e308, -1.5e308, -1.5e308, 1.5e308, 1.4e308, -1.4e308, -1.4e308, 1.4e308})
	for _, norm := range []Norm{L2, L1} {
		if m, err := MedianDistance(x, norm, 0, 1); !errors.Is(err, ErrInput) || !strings.Contains(fmt.Sprint(err), "overflows float64") {
			t.Errorf("%v: %v, %v; want ErrInput saying the median overflows", norm, m, err)
		}
	}
	if s, err := DistanceQuantiles(x, []float64{1}, 0, 1); err != nil || !math.IsInf(s[0], 1) {
		t.Errorf("DistanceQuantiles: %v, %v; want +Inf", s, err)
	}
}

// medianL2 is the median heuristic of the Gaussian kernel.
func medianL2(x *linalg.Dense, maxPoints int, seed uint64) (float64, error) {
	return MedianDistance(x, L2, maxPoints, seed)
}
