package testmat

import "math/big"

// ridgePrec is the precision, in bits, of Ridge's arithmetic: enough that
// the normal equations of a matrix whose squared condition number is far
// beyond 1/ε (up to about 2¹⁵⁰) are still solved to float64 precision.
const ridgePrec = 256

// Ridge is the regularized least-squares problem
//
//	minimize J(x) = ‖A·x − y‖² + μ‖x‖²,  μ > 0,
//
// for an m×n matrix A, with its minimiser x* = (AᵀA + μI)⁻¹Aᵀy computed
// from the normal equations by Cholesky in ridgePrec-bit floating point
// (math/big). Forming AᵀA squares the condition number, which no
// float64 solver may do, but at this precision it costs nothing: x* is
// exact for the A and y given to far below their rounding, so a float64
// method can be judged by how close it comes. Cost: mn²/2 + n³/6
// multiply-adds in big.Float, a fraction of a second for n up to 100.
type Ridge struct {
	a, y []*big.Float // A row-major, y
	mu   *big.Float
	m, n int
	min  *big.Float // J(x*)
}

// NewRidge returns the problem of a, y (length a.Rows) and mu > 0 with its
// minimiser solved. It panics on mismatched lengths or μ ≤ 0.
func NewRidge(a Matrix, y []float64, mu float64) *Ridge {
	if len(y) != a.Rows || !(mu > 0) {
		panic("testmat: NewRidge: want len(y) = a.Rows and μ > 0")
	}
	m, n := a.Rows, a.Cols
	r := &Ridge{m: m, n: n, mu: bigOf(mu), a: make([]*big.Float, m*n), y: make([]*big.Float, m)}
	for i := 0; i < m; i++ {
		r.y[i] = bigOf(y[i])
		for j := 0; j < n; j++ {
			r.a[i*n+j] = bigOf(a.At(i, j))
		}
	}
	// H = AᵀA + μI (lower triangle), b = Aᵀy.
	h := make([]*big.Float, n*n)
	b := make([]*big.Float, n)
	t := newBig()
	for j := 0; j < n; j++ {
		b[j] = newBig()
		for i := 0; i < m; i++ {
			b[j].Add(b[j], t.Mul(r.a[i*n+j], r.y[i]))
		}
		for k := 0; k <= j; k++ {
			s := newBig()
			for i := 0; i < m; i++ {
				s.Add(s, t.Mul(r.a[i*n+j], r.a[i*n+k]))
			}
			h[j*n+k] = s
		}
		h[j*n+j].Add(h[j*n+j], r.mu)
	}
	// H = LLᵀ in place (lower triangle), then L·Lᵀ·x = b.
	for j := 0; j < n; j++ {
		d := h[j*n+j]
		for k := 0; k < j; k++ {
			d.Sub(d, t.Mul(h[j*n+k], h[j*n+k]))
		}
		d.Sqrt(d)
		for i := j + 1; i < n; i++ {
			s := h[i*n+j]
			for k := 0; k < j; k++ {
				s.Sub(s, t.Mul(h[i*n+k], h[j*n+k]))
			}
			s.Quo(s, d)
		}
	}
	x := b
	for i := 0; i < n; i++ { // L·z = b
		for k := 0; k < i; k++ {
			x[i].Sub(x[i], t.Mul(h[i*n+k], x[k]))
		}
		x[i].Quo(x[i], h[i*n+i])
	}
	for i := n - 1; i >= 0; i-- { // Lᵀ·x = z
		for k := i + 1; k < n; k++ {
			x[i].Sub(x[i], t.Mul(h[k*n+i], x[k]))
		}
		x[i].Quo(x[i], h[i*n+i])
	}
	r.min = r.objective(x)
	return r
}

// Minimum returns J(x*), rounded to float64.
func (r *Ridge) Minimum() float64 {
	v, _ := r.min.Float64()
	return v
}

// Excess returns (J(x) − J(x*)) / J(x*) for x of length n, both objectives
// evaluated in ridgePrec-bit arithmetic: 0 for the minimiser rounded to
// float64 (up to about ε² times the squared condition number of the
// problem), and the relative amount by which x misses the minimum
// otherwise.
func (r *Ridge) Excess(x []float64) float64 {
	if len(x) != r.n {
		panic("testmat: Ridge.Excess: want len(x) = a.Cols")
	}
	xs := make([]*big.Float, r.n)
	for j, v := range x {
		xs[j] = bigOf(v)
	}
	d := r.objective(xs)
	d.Sub(d, r.min).Quo(d, r.min)
	v, _ := d.Float64()
	return v
}

// objective returns J(x) = ‖A·x − y‖² + μ‖x‖².
func (r *Ridge) objective(x []*big.Float) *big.Float {
	j, t := newBig(), newBig()
	for i := 0; i < r.m; i++ {
		s := newBig().Neg(r.y[i])
		for k := 0; k < r.n; k++ {
			s.Add(s, t.Mul(r.a[i*r.n+k], x[k]))
		}
		j.Add(j, t.Mul(s, s))
	}
	p := newBig()
	for _, v := range x {
		p.Add(p, t.Mul(v, v))
	}
	return j.Add(j, p.Mul(p, r.mu))
}

func newBig() *big.Float { return new(big.Float).SetPrec(ridgePrec) }

func bigOf(v float64) *big.Float { return newBig().SetFloat64(v) }
