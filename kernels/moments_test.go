package kernels

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"rkhs/internal/center"
	"rkhs/linalg"
)

// plainMoments is Add without units: each block of momentsBlockRows rows
// summarized by center.Means and the squares of the deviations, merged by
// center.Merge. The reference Add must match bit for bit on ordinary data.
func plainMoments(x *linalg.Dense) (mean, ss []float64) {
	for i0 := 0; i0 < x.Rows; i0 += momentsBlockRows {
		blk := x.Slice(i0, min(i0+momentsBlockRows, x.Rows), 0, x.Cols)
		bm, bs := center.Means(blk), make([]float64, x.Cols)
		for i := 0; i < blk.Rows; i++ {
			for j, v := range blk.Row(i) {
				d := v - bm[j]
				bs[j] += d * d
			}
		}
		if mean == nil {
			mean, ss = bm, bs
			continue
		}
		center.Merge(i0, mean, ss, blk.Rows, bm, bs)
	}
	return mean, ss
}

// TestMomentsOrdinaryBitIdentical: on data within 2^±400 the moments are
// the plain sums, bit for bit, without units, for shards that straddle
// Add's block and merge in any order.
func TestMomentsOrdinaryBitIdentical(t *testing.T) {
	for _, scale := range []float64{1, 1e-100, 1e100} {
		x := scaled(scaledRows(5, 700, 4), scale)
		mean, ss := plainMoments(x)
		var m Moments
		if err := m.Add(x); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(m.Mean, mean) || !slices.Equal(m.SumSq, ss) || m.Unit != nil {
			t.Errorf("×%g: mean %v, sum of squares %v, unit %v; want %v, %v and no unit", scale, m.Mean, m.SumSq, m.Unit, mean, ss)
		}
	}
}

// TestMomentsExtremeScales: features multiplied by 2^k, for k from −1010
// (values near the smallest normal float64) to 995 (near the largest),
// give the moments of the unscaled features times 2^k: the mean and the
// standard deviation bit for bit (a power of two scales every sum
// exactly, and the sums are those of the unscaled data); no feature is
// constant
// and no moment overflows. Shards merged in any grouping agree with the
// whole to 1e-12, and the moments survive a JSON round trip.
func TestMomentsExtremeScales(t *testing.T) {
	base := scaledRows(6, 600, 3) // magnitudes 0.1 to a few hundred
	var ref Moments
	if err := ref.Add(base); err != nil {
		t.Fatal(err)
	}
	want, err := ref.Standardization()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{-1010, -700, -500, 500, 700, 995} {
		x := scaled(base, math.Ldexp(1, k))
		var m Moments
		if err := m.Add(x); err != nil {
			t.Fatalf("2^%d: Add: %v", k, err)
		}
		if c := m.Constant(); c != nil {
			t.Errorf("2^%d: Constant = %v, want none", k, c)
		}
		s, err := m.Standardization()
		if err != nil {
			t.Fatalf("2^%d: Standardization: %v", k, err)
		}
		for j := range want.Mean {
			wm, ws := math.Ldexp(want.Mean[j], k), math.Ldexp(want.Scale[j], k)
			if s.Mean[j] != wm || s.Scale[j] != ws {
				t.Errorf("2^%d feature %d: mean %v, scale %v; want %v, %v", k, j, s.Mean[j], s.Scale[j], wm, ws)
			}
		}
		// Shards, merged left to right after a JSON round trip each.
		var merged Moments
		for _, cut := range [][2]int{{0, 100}, {100, 357}, {357, 600}} {
			var sh Moments
			if err := sh.Add(x.Slice(cut[0], cut[1], 0, x.Cols)); err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(&sh)
			if err != nil {
				t.Fatal(err)
			}
			var back Moments
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if err := merged.Merge(&back); err != nil {
				t.Fatalf("2^%d: Merge: %v", k, err)
			}
		}
		ms, err := merged.Standardization()
		if err != nil {
			t.Fatalf("2^%d: merged: %v", k, err)
		}
		for j := range s.Mean {
			if !closeRel(ms.Mean[j]/s.Mean[j], 1, 1e-12) || !closeRel(ms.Scale[j]/s.Scale[j], 1, 1e-12) {
				t.Errorf("2^%d feature %d merged: mean %v, scale %v; whole %v, %v", k, j, ms.Mean[j], ms.Scale[j], s.Mean[j], s.Scale[j])
			}
		}
	}
}

// TestMomentsMixedScales: one feature of each extreme beside an ordinary
// one, in shards of very different magnitudes merged in both orders: each
// feature gets its own standard deviation (against the two-pass
// reference computed on values scaled back to ordinary magnitudes).
func TestMomentsMixedScales(t *testing.T) {
	const n = 400
	x := linalg.NewDense(n, 3, nil)
	for i := range n {
		v := math.Sin(float64(i)) + 2
		x.Set(i, 0, v*1e300)
		x.Set(i, 1, v)
		x.Set(i, 2, v*1e-300)
	}
	ord := linalg.NewDense(n, 1, nil)
	for i := range n {
		ord.Set(i, 0, x.At(i, 1))
	}
	mean, ss := twoPass(ord)
	sd := math.Sqrt(ss[0] / n)
	for _, order := range [][2]int{{0, 1}, {1, 0}} {
		halves := []*linalg.Dense{x.Slice(0, 150, 0, 3), x.Slice(150, n, 0, 3)}
		var m Moments
		for _, h := range order {
			var part Moments
			if err := part.Add(halves[h]); err != nil {
				t.Fatal(err)
			}
			if err := m.Merge(&part); err != nil {
				t.Fatal(err)
			}
		}
		s, err := m.Standardization()
		if err != nil {
			t.Fatalf("order %v: %v", order, err)
		}
		for j, f := range []float64{1e300, 1, 1e-300} {
			if !closeRel(s.Mean[j]/(mean[0]*f), 1, 1e-12) || !closeRel(s.Scale[j]/(sd*f), 1, 1e-12) {
				t.Errorf("order %v feature %d: mean %v, scale %v; want %v, %v", order, j, s.Mean[j], s.Scale[j], mean[0]*f, sd*f)
			}
		}
	}
}

// TestMomentsExtremeConstant: the constant rule holds at every magnitude,
// compared without underflow: values agreeing to 14 digits are constant
// at 1e-300 and at 1e300 (and Standardization keeps them, scaled by
// their magnitude), values that differ are not; a feature whose standard
// deviation is subnormal is an ErrData error naming it; and NearlyConstant
// lists the features that vary below its threshold.
func TestMomentsExtremeConstant(t *testing.T) {
	const n = 300
	for _, tc := range []struct {
		name    string
		value   func(i int) float64
		want    []int  // Constant
		nearly  []int  // NearlyConstant(NearlyConstantTol)
		message string // of Standardization, "" for none
	}{
		{"1e-300 varying", func(i int) float64 { return 1e-300 * float64(1+i%7) }, nil, nil, ""},
		{"1e-300 to 14 digits", func(i int) float64 { return 1e-300 * (1 + 1e-14*float64(i%2)) }, []int{1}, []int{1}, ""},
		{"1e300 to 14 digits", func(i int) float64 { return 1e300 * (1 + 1e-14*float64(i%2)) }, []int{1}, []int{1}, ""},
		{"1e300 varying", func(i int) float64 { return 1e300 * float64(1+i%7) }, nil, nil, ""},
		{"5 but one", func(i int) float64 { return 5 + 1e-6*float64(max(0, i-298)) }, nil, []int{1}, ""},
		{"subnormal", func(i int) float64 { return 1e-310 * float64(i%2) }, nil, nil, "feature 2 (mean 5e-311): standard deviation 5e-311 is below the smallest normal"},
	} {
		x := scaledRows(7, n, 3)
		for i := range n {
			x.Set(i, 1, tc.value(i))
		}
		var m Moments
		if err := m.Add(x); err != nil {
			t.Fatal(err)
		}
		if got := m.Constant(); !slices.Equal(got, tc.want) {
			t.Errorf("%s: Constant = %v, want %v", tc.name, got, tc.want)
		}
		if got := m.NearlyConstant(NearlyConstantTol); !slices.Equal(got, tc.nearly) {
			t.Errorf("%s: NearlyConstant = %v, want %v", tc.name, got, tc.nearly)
		}
		st, err := m.Standardization()
		var ie *linalg.InputError
		switch {
		case tc.message == "" && err != nil:
			t.Errorf("%s: %v, want a standardization", tc.name, err)
		case tc.message == "" && tc.want != nil && st.Scale[1] != math.Abs(m.Mean[1]):
			t.Errorf("%s: constant feature scaled by %g, want its magnitude %g", tc.name, st.Scale[1], math.Abs(m.Mean[1]))
		case tc.message != "" && (!errors.Is(err, ErrData) || errors.Is(err, ErrParameter) || !errors.As(err, &ie) || !strings.Contains(ie.Reason, tc.message)):
			t.Errorf("%s: %v, want ErrData containing %q", tc.name, err, tc.message)
		}
	}
}

// TestMomentsUnitErrors: units that are not positive normal float64
// values, or not one per feature, are ErrParameter errors of Merge.
func TestMomentsUnitErrors(t *testing.T) {
	for _, tc := range []struct {
		unit []float64
		want string
	}{
		{[]float64{1, 0}, "o.Unit[1]: 0, must be a positive normal float64"},
		{[]float64{1e-310, 1}, "o.Unit[0]: 1e-310, must be a positive normal float64"},
		{[]float64{math.Inf(1), 1}, "o.Unit[0]: is +Inf"},
		{[]float64{1}, "o.Unit: 1 units for 2 means"},
	} {
		var m Moments
		o := Moments{N: 2, Mean: []float64{1, 2}, SumSq: []float64{1, 1}, Unit: tc.unit}
		if err := m.Merge(&o); !errors.Is(err, ErrParameter) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("unit %v: %v, want ErrParameter containing %q", tc.unit, err, tc.want)
		}
	}
}
