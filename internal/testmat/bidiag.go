package testmat

import (
	"math"
	"math/big"
)

// Bidiagonal returns the full n×n upper bidiagonal matrix with diagonal d
// and superdiagonal e (len(e) = n−1, B[i][i+1] = e[i]), or the n×(n+1)
// matrix with one more column when len(e) = n (B[n−1][n] = e[n−1]).
func Bidiagonal(d, e []float64) Matrix {
	n := len(d)
	b := New(n, max(n, len(e)+1), 0)
	if n == 0 {
		return b
	}
	for i := 0; i < n; i++ {
		b.Set(i, i, d[i])
		if i < len(e) {
			b.Set(i, i+1, e[i])
		}
	}
	return b
}

// BidiagonalSingularValues returns the singular values of the n×n upper
// bidiagonal matrix B with diagonal d and superdiagonal e (length n−1), in
// descending order, each rounded toward −∞ to a float64: the exact σₖ lies
// in [s[k], Nextafter(s[k], +∞)). It is the oracle for tests of relative
// accuracy; n up to about 40 is cheap.
//
// The singular values of B are the nonnegative eigenvalues of the Golub–
// Kahan matrix T, the 2n×2n symmetric tridiagonal matrix with zero diagonal
// and off-diagonal (d₀, e₀, d₁, e₁, …, d_{n−1}), whose eigenvalues are ±σᵢ.
// The number of σᵢ below a trial σ > 0 is the number of negative pivots of
// the LDLᵀ factorization of T − σI, minus n (Sylvester's law of inertia),
// and T's entries are B's, not their squares, so tiny singular values are
// counted as exactly as large ones. Bisection on the ordered float64 values
// runs on counts in big.Float arithmetic (approxPrec bits) and each answer
// is confirmed by exact counts in big.Rat arithmetic, as in
// ExactEigenvalues.
func BidiagonalSingularValues(d, e []float64) []float64 {
	n := len(d)
	s := make([]float64, n)
	if n == 0 {
		return s
	}
	b := make([]float64, 0, 2*n-1) // the off-diagonal of T
	var bound float64
	for i := range d {
		b = append(b, d[i])
		bound = math.Max(bound, math.Abs(d[i]))
		if i < n-1 {
			b = append(b, e[i])
			bound = math.Max(bound, math.Abs(e[i]))
		}
	}
	bound = 2*bound + 1 // ‖T‖ ≤ 2·max|entry|, made strict after rounding
	lo0, hi0 := orderedKey(0), orderedKey(bound)
	for k := 0; k < n; k++ {
		// σ in ascending order k; s is descending.
		lo := bisect(lo0, hi0, k, func(x float64) int { return golubKahanBelow(b, x, false) - n })
		x := fromOrderedKey(lo)
		if golubKahanBelow(b, x, true)-n > k || golubKahanBelow(b, fromOrderedKey(lo+1), true)-n <= k {
			lo = bisect(lo0, hi0, k, func(x float64) int { return golubKahanBelow(b, x, true) - n })
		}
		s[n-1-k] = fromOrderedKey(lo)
	}
	return s
}

// golubKahanBelow returns the number of eigenvalues below sigma of the
// symmetric tridiagonal matrix with zero diagonal and off-diagonal b, from
// the pivots q₀ = −σ, q_{k+1} = −σ − b_k²/q_k: in big.Rat arithmetic if exact
// is set (an exactly zero pivot then falls back to the dense elimination of
// countBelow, which handles it), otherwise in big.Float with a zero pivot
// replaced by a tiny positive one.
func golubKahanBelow(b []float64, sigma float64, exact bool) int {
	if sigma <= 0 {
		// The eigenvalues are ±σᵢ: below 0 are exactly the n negatives
		// of the nonzero σᵢ, and the zeros are not below 0.
		return countBelow(golubKahanDense(b), 0)
	}
	neg := 0
	if exact {
		s := new(big.Rat).SetFloat64(sigma)
		q := new(big.Rat).Neg(s)
		t := new(big.Rat)
		for k := 0; ; k++ {
			if q.Sign() == 0 {
				return countBelow(golubKahanDense(b), sigma)
			}
			if q.Sign() < 0 {
				neg++
			}
			if k == len(b) {
				return neg
			}
			bk := new(big.Rat).SetFloat64(b[k])
			t.Mul(bk, bk)
			t.Quo(t, q)
			q.Sub(new(big.Rat).Neg(s), t)
		}
	}
	s := new(big.Float).SetPrec(approxPrec).SetFloat64(sigma)
	q := new(big.Float).SetPrec(approxPrec).Neg(s)
	t := new(big.Float).SetPrec(approxPrec)
	tiny := new(big.Float).SetMantExp(big.NewFloat(1), -4000)
	for k := 0; ; k++ {
		if q.Sign() == 0 {
			q.Set(tiny)
		}
		if q.Sign() < 0 {
			neg++
		}
		if k == len(b) {
			return neg
		}
		bk := new(big.Float).SetPrec(approxPrec).SetFloat64(b[k])
		t.Mul(bk, bk)
		t.Quo(t, q)
		q.Sub(new(big.Float).SetPrec(approxPrec).Neg(s), t)
	}
}

// golubKahanDense returns the Golub–Kahan matrix with off-diagonal b as a
// full matrix.
func golubKahanDense(b []float64) Matrix {
	d := make([]float64, len(b)+1)
	return Tridiagonal(d, b)
}
