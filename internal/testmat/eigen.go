package testmat

import (
	"math"
	"math/big"
)

// ExactEigenvalues returns the eigenvalues of the symmetric matrix whose
// lower triangle is in a, in ascending order, each rounded toward −∞ to a
// float64: the exact eigenvalue λₖ lies in [w[k], Nextafter(w[k], +∞)). It
// is an oracle for eigensolvers on small matrices (n up to about 20; the
// cost grows like 64·n⁴ operations on big floats).
//
// The answer is exact, with no error analysis to trust: the elements of a
// and every trial shift σ are float64 values, hence rationals, and the
// number of eigenvalues below σ is the number of negative pivots of a
// symmetric elimination of A − σI carried out in math/big.Rat (Sylvester's
// law of inertia). Bisection on the ordered float64 values pins each λₖ
// between two adjacent floats in at most 64 steps, whatever its magnitude,
// which is what tests of relative accuracy on graded matrices need. The
// bisection runs on counts in 1281-bit big.Float arithmetic, fast but not
// exact, and its answer x is accepted only if the exact counts at x and at
// the next float confirm it.
func ExactEigenvalues(a Matrix) []float64 {
	n := a.Rows
	w := make([]float64, n)
	if n == 0 {
		return w
	}
	// A bound on |λ|: the largest absolute row sum (of the symmetric
	// matrix), enlarged so that it is strict after rounding.
	var bound float64
	for i := 0; i < n; i++ {
		var s float64
		for j := 0; j < n; j++ {
			s += math.Abs(lowerAt(a, i, j))
		}
		bound = math.Max(bound, s)
	}
	bound = 2*bound + 1
	lo0, hi0 := orderedKey(-bound), orderedKey(bound)
	for k := range w {
		// Bisect with fast approximate counts first, then check the
		// answer with two exact counts; only if that fails (it is not
		// expected to) bisect again with exact counts alone.
		lo := bisect(lo0, hi0, k, func(s float64) int { return approxCountBelow(a, s) })
		if countBelow(a, fromOrderedKey(lo)) > k || countBelow(a, fromOrderedKey(lo+1)) <= k {
			lo = bisect(lo0, hi0, k, func(s float64) int { return countBelow(a, s) })
		}
		w[k] = fromOrderedKey(lo)
	}
	return w
}

// bisect returns the key of the largest float64 x in [lo, hi) with
// below(x) ≤ k, given below(lo) ≤ k < below(hi), where below(σ) counts the
// eigenvalues smaller than σ. Each step halves the number of floats between
// lo and hi, so it takes at most 64 steps.
func bisect(lo, hi uint64, k int, below func(float64) int) uint64 {
	// Invariant: below(lo) ≤ k < below(hi), that is lo ≤ λₖ < hi.
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if below(fromOrderedKey(mid)) <= k {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// approxPrec is the precision, in bits, of approxCountBelow: enough for the
// elimination to resolve the sign of pivots near an eigenvalue as small as
// 2⁻¹⁰⁷⁴·‖A‖ (the whole float64 range) with 2⁶⁴-fold element growth to
// spare. The result is only a guess that ExactEigenvalues checks exactly.
const approxPrec = 53 + 1100 + 128

// approxCountBelow is countBelow in big.Float arithmetic of approxPrec bits,
// with an exactly zero pivot replaced by a tiny positive one: much faster
// than rationals, and right except in cases that the exact check catches.
func approxCountBelow(a Matrix, sigma float64) int {
	n := a.Rows
	m := make([]big.Float, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			m[i*n+j].SetPrec(approxPrec).SetFloat64(a.At(i, j))
		}
		m[i*n+i].Sub(&m[i*n+i], new(big.Float).SetFloat64(sigma))
	}
	neg := 0
	var l, p big.Float
	l.SetPrec(approxPrec)
	p.SetPrec(approxPrec)
	tiny := new(big.Float).SetMantExp(big.NewFloat(1), -4000)
	// Lower triangle only: row i of the Schur complement is
	// m_ij −= (m_ik/d)·m_jk for k < j ≤ i.
	for k := 0; k < n; k++ {
		d := &m[k*n+k]
		if d.Sign() == 0 {
			d.Set(tiny)
		}
		if d.Sign() < 0 {
			neg++
		}
		for i := k + 1; i < n; i++ {
			mik := &m[i*n+k]
			if mik.Sign() == 0 {
				continue
			}
			l.Quo(mik, d)
			for j := k + 1; j <= i; j++ {
				p.Mul(&l, &m[j*n+k])
				m[i*n+j].Sub(&m[i*n+j], &p)
			}
		}
	}
	return neg
}

// lowerAt returns element (i, j) of the symmetric matrix whose lower
// triangle is in a.
func lowerAt(a Matrix, i, j int) float64 {
	if j > i {
		i, j = j, i
	}
	return a.At(i, j)
}

// orderedKey maps float64 values to uint64 keys in the same order (−0 and +0
// apart, which does not matter here); consecutive floats have consecutive
// keys.
func orderedKey(x float64) uint64 {
	b := math.Float64bits(x)
	if b>>63 != 0 {
		return ^b
	}
	return b | 1<<63
}

func fromOrderedKey(k uint64) float64 {
	if k>>63 != 0 {
		return math.Float64frombits(k &^ (1 << 63))
	}
	return math.Float64frombits(^k)
}

// countBelow returns the number of eigenvalues of the symmetric matrix in
// the lower triangle of a that are smaller than sigma, exactly: it is the
// number of negative pivots D of a congruence A − σI = X·D·Xᵀ computed in
// rational arithmetic.
//
// The elimination takes pivots on the diagonal. When the next diagonal
// element is zero it swaps in a later nonzero diagonal element; when all
// remaining diagonal elements are zero but some m_jk is not, it adds row and
// column j to row and column k, a congruence that makes m_kk = 2·m_jk ≠ 0; a
// zero row contributes a zero eigenvalue. Every step is a congruence, so the
// inertia is preserved.
func countBelow(a Matrix, sigma float64) int {
	n := a.Rows
	m := make([][]*big.Rat, n)
	for i := range m {
		m[i] = make([]*big.Rat, n)
		for j := range m[i] {
			v := lowerAt(a, i, j)
			if i == j {
				v = 0 // σ is subtracted exactly below
			}
			m[i][j] = new(big.Rat).SetFloat64(v)
		}
		d := new(big.Rat).SetFloat64(lowerAt(a, i, i))
		m[i][i].Sub(d, new(big.Rat).SetFloat64(sigma))
	}
	neg := 0
	l, p := new(big.Rat), new(big.Rat)
	for k := 0; k < n; k++ {
		if m[k][k].Sign() == 0 {
			if j := nonzeroDiagonal(m, k); j >= 0 {
				swapSym(m, k, j)
			} else if j := nonzeroInColumn(m, k); j >= 0 {
				for i := k; i < n; i++ { // row k += row j
					m[k][i].Add(m[k][i], m[j][i])
				}
				for i := k; i < n; i++ { // column k += column j
					m[i][k].Add(m[i][k], m[i][j])
				}
			} else {
				continue // a zero eigenvalue: neither below nor above
			}
		}
		d := m[k][k]
		if d.Sign() < 0 {
			neg++
		}
		// Schur complement: m_ij −= m_ik·m_kj/d for i, j > k.
		for i := k + 1; i < n; i++ {
			if m[i][k].Sign() == 0 {
				continue
			}
			l.Quo(m[i][k], d)
			for j := k + 1; j < n; j++ {
				p.Mul(l, m[k][j])
				m[i][j].Sub(m[i][j], p)
			}
		}
	}
	return neg
}

func nonzeroDiagonal(m [][]*big.Rat, k int) int {
	for j := k + 1; j < len(m); j++ {
		if m[j][j].Sign() != 0 {
			return j
		}
	}
	return -1
}

func nonzeroInColumn(m [][]*big.Rat, k int) int {
	for j := k + 1; j < len(m); j++ {
		if m[j][k].Sign() != 0 {
			return j
		}
	}
	return -1
}

// swapSym swaps rows and columns k and j of the full symmetric m.
func swapSym(m [][]*big.Rat, k, j int) {
	m[k], m[j] = m[j], m[k]
	for _, row := range m {
		row[k], row[j] = row[j], row[k]
	}
}
