package linalg

import (
	"math"
	"math/rand/v2"
	"testing"
)

// naiveLauum is Lauum's oracle: the triangle ul of α·LᵀL or α·U·Uᵀ by
// the definition, one sum over the common support of two columns (Lower)
// or rows (Upper) an element, reading only the triangle ul of a; and the
// same sum of magnitudes, the scale of its rounding errors.
func naiveLauum(ul Uplo, alpha float64, a *Dense) (c, bound *Dense) {
	n := a.Rows
	c, bound = NewDense(n, n, nil), NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			var s, b float64
			switch {
			case ul == Lower && j <= i: // Σ_{k ≥ i} L[k,i]·L[k,j]
				for k := i; k < n; k++ {
					s += a.At(k, i) * a.At(k, j)
					b += math.Abs(a.At(k, i) * a.At(k, j))
				}
			case ul == Upper && j >= i: // Σ_{k ≥ j} U[i,k]·U[j,k]
				for k := j; k < n; k++ {
					s += a.At(i, k) * a.At(j, k)
					b += math.Abs(a.At(i, k) * a.At(j, k))
				}
			default:
				continue
			}
			c.Set(i, j, alpha*s)
			bound.Set(i, j, alpha*b)
		}
	}
	return c, bound
}

// TestLauum compares Lauum with its oracle for both triangles at sizes on
// both sides of the panel height, with elementwise error at most
// 30·n·ε·α·Σ|a||a| (a scaled residual below 30). The other triangle of A
// holds zeros inside the diagonal panels and NaN outside them, the other
// triangle of C NaN: neither may reach the result, and A is not modified.
func TestLauum(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, ul := range []Uplo{Lower, Upper} {
		for _, n := range []int{0, 1, 7, lauumPanel - 1, lauumPanel, lauumPanel + 1, 2*lauumPanel + 3} {
			a := NewDense(n, n, nil)
			for i := range n {
				for j := range n {
					inTri := (ul == Lower && j <= i) || (ul == Upper && j >= i)
					switch {
					case inTri:
						a.Set(i, j, 2*rnd.Float64()-1)
					case i/lauumPanel != j/lauumPanel:
						a.Set(i, j, math.NaN())
					}
				}
			}
			before := a.Clone()
			const alpha = 0.75
			c := NewDense(n, n, nil)
			for i := range c.Data {
				c.Data[i] = math.NaN()
			}
			Lauum(ul, alpha, a, c)
			want, bound := naiveLauum(ul, alpha, a)
			for i := range n {
				for j := range n {
					got := c.At(i, j)
					if (ul == Lower && j > i) || (ul == Upper && j < i) {
						if !math.IsNaN(got) {
							t.Fatalf("%v n=%d: C[%d,%d] = %v outside the triangle was written", ul, n, i, j, got)
						}
						continue
					}
					if e := math.Abs(got - want.At(i, j)); !(e <= 30*float64(n)*0x1p-52*bound.At(i, j)) {
						t.Fatalf("%v n=%d: C[%d,%d] = %v, want %v", ul, n, i, j, got, want.At(i, j))
					}
				}
			}
			for i, v := range a.Data {
				if math.Float64bits(v) != math.Float64bits(before.Data[i]) {
					t.Fatalf("%v n=%d: A modified at %d", ul, n, i)
				}
			}
		}
	}
}

// TestLauumPanics: shapes that do not match and All are programming
// errors.
func TestLauumPanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		ul   Uplo
		a, c *Dense
	}{
		{"A not square", Lower, NewDense(2, 3, nil), NewDense(2, 2, nil)},
		{"C of another size", Lower, NewDense(3, 3, nil), NewDense(2, 2, nil)},
		{"All", All, NewDense(2, 2, nil), NewDense(2, 2, nil)},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", tc.name)
				}
			}()
			Lauum(tc.ul, 1, tc.a, tc.c)
		}()
	}
}
