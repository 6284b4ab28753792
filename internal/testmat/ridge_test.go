package testmat

import (
	"math"
	"testing"
)

// TestRidgeDiagonal: for a diagonal A the minimiser is xᵢ = aᵢyᵢ/(aᵢ² + μ)
// and the minimum Σ μyᵢ²/(aᵢ² + μ), also when a² spans 10⁴⁰ (normal
// equations with a condition number far beyond 1/ε); a point off the
// minimiser by δ in coordinate i misses it by (aᵢ² + μ)δ².
func TestRidgeDiagonal(t *testing.T) {
	d := []float64{1e20, 3, 1e-20, 0.5}
	y := []float64{1, -2, 3, 0.25}
	const mu = 0.125
	a := Diagonal(d)
	r := NewRidge(a, y, mu)
	x := make([]float64, len(d))
	var want float64
	for i, v := range d {
		x[i] = v * y[i] / (v*v + mu)
		want += mu * y[i] * y[i] / (v*v + mu)
	}
	if got := r.Minimum(); RelErr(got, want) > 1e-15 {
		t.Errorf("minimum %.17g, want %.17g", got, want)
	}
	if got := r.Excess(x); math.Abs(got) > 1e-15 {
		t.Errorf("excess of the closed-form minimiser %.3g, want 0 to rounding", got)
	}
	const delta = 1e-3
	x[1] += delta
	if got, want := r.Excess(x), (d[1]*d[1]+mu)*delta*delta/want; RelErr(got, want) > 1e-9 {
		t.Errorf("excess of a point off by %g: %.6g, want %.6g", delta, got, want)
	}
}
