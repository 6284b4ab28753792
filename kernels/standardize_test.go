package kernels

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"rkhs/internal/testmat"
	"rkhs/linalg"
)

// scaledRows returns n×d rows whose features are hundreds apart, on
// scales from 0.1 to 100 (testmat.FarApart).
func scaledRows(seed uint64, n, d int) *linalg.Dense {
	x := linalg.Dense(testmat.FarApart(testmat.Random(testmat.NewRand(seed), n, d, 0)))
	return &x
}

// twoPass returns the mean and the sum of squared deviations of every
// column by the textbook two passes: the reference of Moments.
func twoPass(x *linalg.Dense) (mean, ss []float64) {
	mean, ss = make([]float64, x.Cols), make([]float64, x.Cols)
	for j := range mean {
		for i := 0; i < x.Rows; i++ {
			mean[j] += x.At(i, j)
		}
		mean[j] /= float64(x.Rows)
		for i := 0; i < x.Rows; i++ {
			d := x.At(i, j) - mean[j]
			ss[j] += d * d
		}
	}
	return mean, ss
}

// closeRel reports |a − b| ≤ tol·max(|b|, 1).
func closeRel(a, b, tol float64) bool { return math.Abs(a-b) <= tol*max(math.Abs(b), 1) }

// TestMomentsMerge: the moments of shards merged, in any grouping, equal
// the moments of the whole (and the two-pass reference) to 1e-12, for
// shards that straddle Add's block of rows and an empty shard.
func TestMomentsMerge(t *testing.T) {
	x := scaledRows(1, 1000, 5)
	mean, ss := twoPass(x)
	var whole Moments
	if err := whole.Add(x); err != nil {
		t.Fatal(err)
	}
	for _, cuts := range [][]int{
		{0, 1000},
		{0, 1, 1000},
		{0, 255, 256, 257, 513, 1000},
		{0, 0, 7, 300, 999, 1000},
		{0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000},
	} {
		shards := make([]Moments, len(cuts)-1)
		for s := range shards {
			if err := shards[s].Add(x.Slice(cuts[s], cuts[s+1], 0, x.Cols)); err != nil {
				t.Fatal(err)
			}
		}
		// Merge left to right, and as a tree from the right.
		var left Moments
		for s := range shards {
			if err := left.Merge(&shards[s]); err != nil {
				t.Fatal(err)
			}
		}
		right := shards[len(shards)-1]
		for s := len(shards) - 2; s >= 0; s-- {
			c := shards[s]
			c.Mean, c.SumSq = slices.Clone(c.Mean), slices.Clone(c.SumSq)
			if err := c.Merge(&right); err != nil {
				t.Fatal(err)
			}
			right = c
		}
		for _, got := range []Moments{left, right, whole} {
			if got.N != x.Rows {
				t.Fatalf("cuts %v: N = %d, want %d", cuts, got.N, x.Rows)
			}
			for j := range mean {
				if !closeRel(got.Mean[j], mean[j], 1e-12) || !closeRel(got.SumSq[j], ss[j], 1e-12) {
					t.Errorf("cuts %v column %d: mean %v, sum of squares %v; want %v, %v", cuts, j, got.Mean[j], got.SumSq[j], mean[j], ss[j])
				}
			}
		}
	}
}

// TestStandardizationOf: the map gives the training rows mean 0 and
// standard deviation 1 (population), it is (x − μ)/σ bit for bit, and x
// is not modified.
func TestStandardizationOf(t *testing.T) {
	x := scaledRows(2, 300, 4)
	orig := x.Clone()
	s, err := StandardizationOf(x)
	if err != nil {
		t.Fatal(err)
	}
	mean, ss := twoPass(x)
	for j := range mean {
		if sd := math.Sqrt(ss[j] / 300); !closeRel(s.Mean[j], mean[j], 1e-13) || !closeRel(s.Scale[j], sd, 1e-12) {
			t.Errorf("column %d: mean %v, scale %v; want %v, %v", j, s.Mean[j], s.Scale[j], mean[j], sd)
		}
	}
	z, err := s.Apply(x)
	if err != nil {
		t.Fatal(err)
	}
	zm, zss := twoPass(z)
	for j := range zm {
		if math.Abs(zm[j]) > 1e-12 || math.Abs(zss[j]/300-1) > 1e-12 {
			t.Errorf("standardized column %d: mean %v, variance %v; want 0, 1", j, zm[j], zss[j]/300)
		}
		for i := 0; i < x.Rows; i++ {
			if want := (x.At(i, j) - s.Mean[j]) / s.Scale[j]; math.Float64bits(z.At(i, j)) != math.Float64bits(want) {
				t.Fatalf("z[%d][%d] = %v, want (x − μ)/σ = %v", i, j, z.At(i, j), want)
			}
		}
	}
	if !slices.Equal(x.Data, orig.Data) {
		t.Error("StandardizationOf or Apply modified x")
	}
	var none *Standardization
	if z, err := none.Apply(x); z != x || err != nil {
		t.Errorf("nil Standardization: Apply = %p, %v; want x itself", z, err)
	}
}

// TestStandardizationConstant: a constant column — its values exactly
// equal (0.1 sums inexactly), agreeing to the last bits, or zero — is
// found by Constant and kept at its value, scaled by its magnitude (1 for
// zero), so that its training rows standardize to 0; a column that varies
// at 1e-9 of its mean is an ordinary one.
func TestStandardizationConstant(t *testing.T) {
	const n = 5000
	for _, c := range []struct {
		name  string
		value func(i int) float64
		want  []int // constant columns
	}{
		{"0.1 everywhere", func(int) float64 { return 0.1 }, []int{1}},
		{"zero", func(int) float64 { return 0 }, []int{1}},
		{"last bit", func(i int) float64 { return math.Nextafter(1e6, float64(i%2)*2e6) }, []int{1}},
		{"1e-9 relative", func(i int) float64 { return 1e6 * (1 + 1e-9*float64(i%3)) }, nil},
	} {
		x := scaledRows(3, n, 3)
		for i := 0; i < n; i++ {
			x.Set(i, 1, c.value(i))
		}
		var m Moments
		if err := m.Add(x); err != nil {
			t.Fatal(err)
		}
		if got := m.Constant(); !slices.Equal(got, c.want) {
			t.Errorf("%s: Constant = %v, want %v", c.name, got, c.want)
		}
		st, err := StandardizationOf(x)
		if err != nil {
			t.Fatalf("%s: %v, want a standardization", c.name, err)
		}
		if err := st.Validate(); err != nil {
			t.Errorf("%s: the standardization does not validate: %v", c.name, err)
		}
		want := math.Abs(m.Mean[1])
		if want == 0 {
			want = 1
		}
		if c.want != nil && st.Scale[1] != want {
			t.Errorf("%s: the constant feature is scaled by %g, want its magnitude %g (1 for 0)", c.name, st.Scale[1], want)
		}
		z, err := st.Apply(x)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if v := z.At(i, 1); c.want != nil && math.Abs(v) > 1e-12 {
				t.Fatalf("%s: row %d of the constant feature standardizes to %g, want 0 to rounding", c.name, i, v)
			}
		}
	}
}

// TestStandardizationErrors: NaN and ±Inf wrap linalg.ErrNotFinite in
// every entry point; bad shapes and bad fields are errors, not panics, and
// leave the moments unchanged.
func TestStandardizationErrors(t *testing.T) {
	x := scaledRows(4, 20, 3)
	nan := x.Clone()
	nan.Set(7, 2, math.NaN())
	s, _ := StandardizationOf(x)
	var m Moments
	_ = m.Add(x)
	for _, c := range []struct {
		name     string
		call     func() error
		sentinel error
		finite   bool // the error wraps linalg.ErrNotFinite
	}{
		{"StandardizationOf NaN", func() error { _, err := StandardizationOf(nan); return err }, ErrData, true},
		{"StandardizationOf nil", func() error { _, err := StandardizationOf(nil); return err }, ErrData, false},
		{"StandardizationOf no rows", func() error { _, err := StandardizationOf(linalg.NewDense(0, 3, nil)); return err }, ErrData, false},
		{"Add NaN", func() error { c := m; return c.Add(nan) }, ErrData, true},
		{"Add width", func() error { c := m; return c.Add(linalg.NewDense(2, 4, nil)) }, ErrData, false},
		{"Apply NaN", func() error { _, err := s.Apply(nan); return err }, ErrData, true},
		{"Apply width", func() error { _, err := s.Apply(linalg.NewDense(2, 2, nil)); return err }, ErrData, false},
		{"Apply overflow", func() error {
			_, err := (&Standardization{Mean: []float64{0}, Scale: []float64{1e-10}}).Apply(linalg.NewDense(1, 1, []float64{1e308}))
			return err
		}, ErrData, false},
		{"Apply zero scale", func() error {
			_, err := (&Standardization{Mean: []float64{0}, Scale: []float64{0}}).Apply(x)
			return err
		}, ErrParameter, false},
		{"Validate NaN mean", func() error { return (&Standardization{Mean: []float64{math.NaN()}, Scale: []float64{1}}).Validate() }, ErrParameter, true},
		{"Validate Inf scale", func() error { return (&Standardization{Mean: []float64{0}, Scale: []float64{math.Inf(1)}}).Validate() }, ErrParameter, true},
		{"Validate subnormal scale", func() error { return (&Standardization{Mean: []float64{0}, Scale: []float64{1e-320}}).Validate() }, ErrParameter, false},
		{"Validate constant", func() error { return (&Standardization{Mean: []float64{1e308}, Scale: []float64{1}}).Validate() }, ErrParameter, false},
		{"Validate lengths", func() error { return (&Standardization{Mean: []float64{0, 1}, Scale: []float64{1}}).Validate() }, ErrParameter, false},
		{"Validate empty", func() error { return (&Standardization{}).Validate() }, ErrParameter, false},
		{"Merge NaN", func() error { c := m; return c.Merge(&Moments{N: 2, Mean: []float64{math.NaN()}, SumSq: []float64{0}}) }, ErrParameter, true},
		{"Merge negative", func() error {
			c := m
			return c.Merge(&Moments{N: 2, Mean: []float64{0, 0, 0}, SumSq: []float64{0, -1, 0}})
		}, ErrParameter, false},
		{"Merge width", func() error { c := m; return c.Merge(&Moments{N: 2, Mean: []float64{0}, SumSq: []float64{0}}) }, ErrData, false},
		{"Merge nil", func() error { c := m; return c.Merge(nil) }, ErrParameter, false},
		{"Standardization no rows", func() error { _, err := new(Moments).Standardization(); return err }, ErrData, false},
		{"Standardization bad N", func() error { _, err := (&Moments{N: -1}).Standardization(); return err }, ErrParameter, false},
	} {
		err := c.call()
		if !errors.Is(err, c.sentinel) || errors.Is(err, linalg.ErrNotFinite) != c.finite {
			t.Errorf("%s: %v, want %v (ErrNotFinite %v)", c.name, err, c.sentinel, c.finite)
		}
	}
	want, _ := StandardizationOf(x)
	if got, _ := m.Standardization(); !slices.Equal(got.Mean, want.Mean) || !slices.Equal(got.Scale, want.Scale) {
		t.Error("a failed Add or Merge changed the moments")
	}
}

// TestStandardizationValidateBounds: a scale below the smallest normal
// float64, or at most ConstantTol of its mean's magnitude, is refused,
// naming the field; the bounds are those of every standardization built
// from data (a scale just above them passes), and an Apply whose value
// overflows names the row and feature, 1-based.
func TestStandardizationValidateBounds(t *testing.T) {
	for _, tc := range []struct {
		mean, scale float64
		want        string // "" for valid
	}{
		{-0.825, 1e-320, "Scale[1]: 1e-320 is subnormal"},
		{0, 0x1p-1023, "Scale[1]: 1.1125369292536007e-308 is subnormal"},
		{0, 0x1p-1022, ""},
		{1e308, 1, "Mean[1]: 1e+308 with scale 1: a feature whose scale is at most 1e-12 of its mean is constant"},
		{1e308, 1e296, "Mean[1]: 1e+308 with scale 1e+296"},
		{1e308, 1.0000001e296, ""},
		{-5, 5e-12, "Mean[1]: -5 with scale 5e-12"},
		{-5, 5.0000001e-12, ""},
		{1e300, 1e299, ""},
	} {
		s := &Standardization{Mean: []float64{1, tc.mean}, Scale: []float64{2, tc.scale}}
		err := s.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("mean %g, scale %g: %v, want valid", tc.mean, tc.scale, err)
		case tc.want != "" && (!errors.Is(err, ErrParameter) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("mean %g, scale %g: %v, want ErrParameter containing %q", tc.mean, tc.scale, err, tc.want)
		}
	}
	// TrainingScale, when set, passes the tests of Scale, one per feature.
	for _, tc := range []struct {
		training []float64
		want     string
	}{
		{nil, ""},
		{[]float64{1, 0.5}, ""},
		{[]float64{1}, "TrainingScale: 1 values for 2 means"},
		{[]float64{1, -1}, "TrainingScale[1]: -1, must be positive"},
		{[]float64{1, 1e-320}, "TrainingScale[1]: 1e-320 is subnormal"},
		{[]float64{1, math.NaN()}, "TrainingScale"},
		{[]float64{1, 5e-12}, "Mean[1]: -5 with scale 5e-12"},
	} {
		s := &Standardization{Mean: []float64{1, -5}, Scale: []float64{2, 3}, TrainingScale: tc.training}
		err := s.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("training scale %v: %v, want valid", tc.training, err)
		case tc.want != "" && (!errors.Is(err, ErrParameter) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("training scale %v: %v, want ErrParameter containing %q", tc.training, err, tc.want)
		}
	}
	s := &Standardization{Mean: []float64{0, 0}, Scale: []float64{1, 1e-300}}
	_, err := s.Apply(linalg.NewDense(2, 2, []float64{0, 0, 0, 1e10}))
	if want := "Standardization.Apply: x: row 2, feature 2: 1e+10 standardizes to +Inf"; !errors.Is(err, ErrData) || !strings.Contains(err.Error(), want) {
		t.Errorf("Apply overflow: %v, want ErrData containing %q", err, want)
	}
}
