package linalg

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestDot(t *testing.T) {
	for _, tc := range []struct {
		x, y []float64
		want float64
	}{
		{nil, nil, 0},
		{[]float64{3}, []float64{-2}, -6},
		{[]float64{1, 2, 3, 4, 5}, []float64{5, 4, 3, 2, 1}, 35},
		// Four partial sums: s0 = 1e16 + 1 rounds to 1e16, then
		// (s0 + s1) + (s2 + s3) = 1e16 + 2, where a plain left-to-right
		// sum would stay at 1e16.
		{[]float64{1e16, 1, 1, 1, 1}, []float64{1, 1, 1, 1, 1}, 1e16 + 2},
	} {
		if got := Dot(tc.x, tc.y); got != tc.want {
			t.Errorf("Dot(%v, %v) = %v, want %v", tc.x, tc.y, got, tc.want)
		}
	}
	defer func() {
		if r := recover(); r == nil {
			t.Error("Dot of lengths 2 and 1 did not panic")
		}
	}()
	Dot([]float64{1, 2}, []float64{1})
}

func TestNrm2(t *testing.T) {
	for _, tc := range []struct {
		name string
		x    []float64
		want float64
	}{
		{"empty", nil, 0},
		{"zero", []float64{0, 0}, 0},
		{"3-4-5", []float64{3, -4}, 5},
		{"overflow of the squares", []float64{3e200, 4e200}, 5e200},
		{"underflow of the squares", []float64{3e-200, 4e-200}, 5e-200},
		{"subnormal", []float64{3 * 0x1p-1070, 4 * 0x1p-1070}, 5 * 0x1p-1070},
		{"largest", []float64{math.MaxFloat64, 0}, math.MaxFloat64},
	} {
		if got := Nrm2(tc.x); math.Abs(got-tc.want) > 2e-16*tc.want {
			t.Errorf("%s: Nrm2 = %v, want %v", tc.name, got, tc.want)
		}
	}
	// Scaling by a power of two commutes with Nrm2, across its two paths.
	y := []float64{0.3, -0.7, 1.1, 0.2, 0.9, -0.4, 0.5}
	for _, e := range []int{-1000, -600, 0, 600, 1000} {
		z := make([]float64, len(y))
		for i, v := range y {
			z[i] = math.Ldexp(v, e)
		}
		if got, want := Nrm2(z), math.Ldexp(Nrm2(y), e); got != want {
			t.Errorf("Nrm2(y·2^%d) = %v, want Nrm2(y)·2^%d = %v", e, got, e, want)
		}
	}
	// Inside the safe range Nrm2 is √Dot(x, x), bit for bit.
	x := []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7}
	if got, want := Nrm2(x), math.Sqrt(Dot(x, x)); got != want {
		t.Errorf("Nrm2 = %v, √Dot = %v", got, want)
	}
}

// TestNrm2ScaleExact: scaling x by a power of two scales Nrm2 by it exactly
// when one side takes the plain path and the other the scaled one (sums of
// squares above 2⁹⁰⁰ or below 2⁻⁹⁰⁰). Both paths round every product before
// adding it; with a fused multiply-add in one of them (GOAMD64=v3, arm64)
// about one vector in nine differed in the last bit.
func TestNrm2ScaleExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, e := range []int{990, -990} {
		for trial := range 2000 {
			n := 1 + rng.IntN(70)
			x, h := make([]float64, n), make([]float64, n)
			for i := range x {
				x[i] = rng.NormFloat64()
				h[i] = math.Ldexp(x[i], e)
			}
			if got, want := Nrm2(h), math.Ldexp(Nrm2(x), e); got != want {
				t.Fatalf("2^%d, trial %d (n=%d): Nrm2(x·2^%d) = %v, Nrm2(x)·2^%d = %v", e, trial, n, e, got, e, want)
			}
		}
	}
}

func TestInputError(t *testing.T) {
	kind := errors.New("pkg: invalid input")
	cause := &NotFiniteError{Row: 3, Col: 1, Value: math.NaN()}
	err := error(&InputError{Op: "RLS.Fit", Arg: "X[3][1]", Reason: "is NaN", Kind: kind, Err: cause})
	if got, want := err.Error(), "pkg: invalid input: RLS.Fit: X[3][1]: is NaN"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(err, kind) || !errors.Is(err, ErrNotFinite) {
		t.Errorf("errors.Is(kind) = %v, errors.Is(ErrNotFinite) = %v, want both true", errors.Is(err, kind), errors.Is(err, ErrNotFinite))
	}
	var nf *NotFiniteError
	if !errors.As(err, &nf) || nf.Row != 3 || nf.Col != 1 {
		t.Errorf("errors.As NotFiniteError = %v, want row 3, column 1", nf)
	}
	bare := &InputError{Op: "Op", Arg: "a", Reason: "r"}
	if got := bare.Error(); got != "Op: a: r" {
		t.Errorf("Error() without Kind = %q", got)
	}
	if got := bare.Unwrap(); len(got) != 0 {
		t.Errorf("Unwrap() without Kind and Err = %v, want none", got)
	}
}
