package kernels

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"rkhs/linalg"
)

// TestOutlying: training rows whose second feature is 5 on 79 rows and
// 5.000001 on one standardize it by σ ≈ 1.1e-7; test rows at 6 there lie
// about 9·10⁶ standard deviations out and are counted, those at 5 are
// not, the worst element is named with its z-score (the brute-force
// maximum), and x is not modified.
func TestOutlying(t *testing.T) {
	const n = 80
	train := linalg.NewDense(n, 2, nil)
	for i := range n {
		train.Set(i, 0, math.Sin(float64(i)))
		train.Set(i, 1, 5)
	}
	train.Set(n-1, 1, 5.000001)
	var m Moments
	if err := m.Add(train); err != nil {
		t.Fatal(err)
	}
	if got := m.NearlyConstant(NearlyConstantTol); !slices.Equal(got, []int{1}) {
		t.Errorf("NearlyConstant = %v, want [1]", got)
	}
	s, err := m.Standardization()
	if err != nil {
		t.Fatal(err)
	}
	test := linalg.NewDense(6, 2, []float64{
		0.5, 5,
		0.1, 6,
		-0.3, 5,
		40, 5, // 57 sd out on feature 0 only
		0.2, 6,
		0.9, 4.999,
	})
	orig := slices.Clone(test.Data)
	// The worst element by brute force.
	wantZ, wantRow, wantFeature := 0.0, -1, -1
	for i := range test.Rows {
		for j := range 2 {
			if z := (test.At(i, j) - s.Mean[j]) / s.Scale[j]; math.Abs(z) > math.Abs(wantZ) {
				wantZ, wantRow, wantFeature = z, i, j
			}
		}
	}
	for _, tc := range []struct {
		limit float64
		rows  int
	}{
		{DefaultOutlyingLimit, 3}, // rows 1 and 4 (6, about 9·10⁶ sd out) and 5 (4.999, about 9000)
		{50, 4},                   // and row 3
		{1e4, 2},                  // rows 1 and 4
		{1e7, 0},
	} {
		got, err := s.Outlying(test, tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		want := Outliers{Rows: tc.rows, Row: wantRow, Feature: wantFeature, Z: wantZ}
		if got != want {
			t.Errorf("limit %g: %+v, want %+v", tc.limit, got, want)
		}
	}
	if wantFeature != 1 || !(math.Abs(wantZ) > 8e6 && math.Abs(wantZ) < 1e7) {
		t.Errorf("worst element: feature %d, z %g; want feature 1 about 9e6 out", wantFeature, wantZ)
	}
	if !slices.Equal(test.Data, orig) {
		t.Error("Outlying modified x")
	}

	// A standardization that composes the training scale with length
	// scales (TrainingScale set) counts in the training standard
	// deviations: the same report, and the same off-constant rows, as s.
	composed := &Standardization{Mean: s.Mean, Scale: []float64{s.Scale[0] * 3, s.Scale[1] * 40}, TrainingScale: s.Scale, Constant: []int{1}}
	withConst := &Standardization{Mean: s.Mean, Scale: s.Scale, Constant: []int{1}}
	for _, limit := range []float64{50, DefaultOutlyingLimit} {
		got, err1 := composed.Outlying(test, limit)
		want, err2 := s.Outlying(test, limit)
		if err1 != nil || err2 != nil || got != want {
			t.Errorf("limit %g: composed %+v (%v), training %+v (%v); want equal", limit, got, err1, want, err2)
		}
	}
	got, err1 := composed.OffConstant(test)
	want, err2 := withConst.OffConstant(test)
	if err1 != nil || err2 != nil || got != want || got.Rows != 6 {
		t.Errorf("OffConstant: composed %+v (%v), training %+v (%v); want equal, 6 rows (the mean is not 5 exactly)", got, err1, want, err2)
	}
	// A quotient that overflows is ±Inf, and counted.
	tiny := &Standardization{Mean: []float64{0}, Scale: []float64{1e-300}}
	got, err = tiny.Outlying(linalg.NewDense(2, 1, []float64{1, -1e10}), DefaultOutlyingLimit)
	if err != nil || got != (Outliers{Rows: 2, Row: 1, Feature: 0, Z: math.Inf(-1)}) {
		t.Errorf("overflow: %+v, %v; want 2 rows, the worst -Inf at row 1", got, err)
	}
	// No rows, and no standardization.
	var none *Standardization
	for name, s := range map[string]*Standardization{"no rows": s, "nil": none} {
		got, err := s.Outlying(linalg.NewDense(0, 2, nil), 10)
		if err != nil || got != (Outliers{Row: -1, Feature: -1}) {
			t.Errorf("%s: %+v, %v; want none", name, got, err)
		}
	}
}

// TestOutlyingErrors: an invalid standardization or limit is ErrParameter,
// bad data ErrData, NaN and ±Inf also linalg.ErrNotFinite.
func TestOutlyingErrors(t *testing.T) {
	s := &Standardization{Mean: []float64{0, 0}, Scale: []float64{1, 1}}
	x := linalg.NewDense(2, 2, []float64{1, 2, 3, 4})
	nan := linalg.NewDense(1, 2, []float64{0, math.NaN()})
	for _, tc := range []struct {
		name     string
		s        *Standardization
		x        *linalg.Dense
		limit    float64
		sentinel error
		finite   bool
	}{
		{"zero scale", &Standardization{Mean: []float64{0}, Scale: []float64{0}}, x, 1, ErrParameter, false},
		{"limit 0", s, x, 0, ErrParameter, false},
		{"limit NaN", s, x, math.NaN(), ErrParameter, true},
		{"limit Inf", s, x, math.Inf(1), ErrParameter, true},
		{"x nil", s, nil, 1, ErrData, false},
		{"x NaN", s, nan, 1, ErrData, true},
		{"x width", s, linalg.NewDense(1, 3, nil), 1, ErrData, false},
	} {
		_, err := tc.s.Outlying(tc.x, tc.limit)
		if !errors.Is(err, tc.sentinel) || errors.Is(err, linalg.ErrNotFinite) != tc.finite {
			t.Errorf("%s: %v, want %v (ErrNotFinite %v)", tc.name, err, tc.sentinel, tc.finite)
		}
	}
}

// TestFarRowsBlocks: FarRows over blocks of every size reports what
// OffConstant and Outlying report on the whole matrix, with ties (equal
// |z| in several rows) kept at the first, as one call keeps them.
func TestFarRowsBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	train := linalg.NewDense(50, 3, nil)
	for i := range train.Rows {
		train.Set(i, 0, rng.NormFloat64())
		train.Set(i, 1, 2) // constant
		train.Set(i, 2, rng.NormFloat64()*1e-3)
	}
	var m Moments
	if err := m.Add(train); err != nil {
		t.Fatal(err)
	}
	s, err := m.Standardization()
	if err != nil {
		t.Fatal(err)
	}
	x := linalg.NewDense(23, 3, nil)
	for i := range x.Rows {
		x.Set(i, 0, rng.NormFloat64())
		x.Set(i, 1, 2+float64(i%3-1)) // off the constant on 2 rows of 3, ties of |z| = 1
		x.Set(i, 2, rng.NormFloat64()*float64(1+i%5)*10)
	}
	off, err := s.OffConstant(x)
	if err != nil {
		t.Fatal(err)
	}
	far, err := s.Outlying(x, DefaultOutlyingLimit)
	if err != nil {
		t.Fatal(err)
	}
	if off.Rows == 0 || far.Rows == 0 {
		t.Fatalf("the test needs rows of both kinds: off %+v, far %+v", off, far)
	}
	for _, size := range []int{1, 2, 3, 5, 22, 23} {
		var f FarRows
		for i := 0; i < x.Rows; i += size {
			if err := f.Add(s, x.Slice(i, min(i+size, x.Rows), 0, 3)); err != nil {
				t.Fatal(err)
			}
		}
		if f.Rows != x.Rows || f.Off != off || f.Far != far || f.OffValue != x.At(off.Row, off.Feature) {
			t.Errorf("blocks of %d: %+v; whole: off %+v (value %g), far %+v", size, f, off, x.At(off.Row, off.Feature), far)
		}
	}
	var f FarRows
	if err := f.Add(s, linalg.NewDense(2, 2, nil)); err == nil || f != (FarRows{}) {
		t.Errorf("another width: %v, %+v; want an error and f unchanged", err, f)
	}
}
