package kernels

import (
	"errors"
	"math"

	"rkhs/internal/check"
)

// Kernel is a positive definite kernel k(x, z) on vectors of equal length.
// It is the whole interface a user-supplied kernel needs; Gram, Cross and
// Rows evaluate it pair by pair (in parallel blocks). The kernels of this
// package are also recognised by Gram, Cross and Rows, which build their
// matrices from matrix products instead.
//
// Eval must be safe for concurrent use and must not modify x or z; it may
// assume len(x) == len(z).
type Kernel interface {
	Eval(x, z []float64) float64
}

// Validator is implemented by kernels whose parameters can be invalid.
// Gram, Cross and NewRows call Validate before using a kernel and return
// its error, wrapped. The Validate methods of this package return
// *linalg.InputError values wrapping ErrParameter (and
// linalg.ErrNotFinite for a NaN or ±Inf parameter).
type Validator interface {
	Validate() error
}

// Sentinel errors, wrapped with the details by every function that
// returns them.
var (
	// ErrParameter: a nil kernel, or a kernel parameter out of range (σ ≤ 0,
	// degree < 1, NaN, or a σ so small or so large that 1/(2σ²) is +Inf
	// or 0).
	ErrParameter = errors.New("kernels: invalid kernel parameter")
	// ErrData: a data matrix is nil or malformed, has NaN or ±Inf, two
	// data sets have different numbers of columns, the data is so large
	// that a kernel value computed from it overflows to ±Inf or NaN (see
	// GramTo), or its features cannot be standardized (a constant one, see
	// Moments.Standardization).
	ErrData = errors.New("kernels: invalid data")
)

// dotKernel is a kernel of the form k(x, z) = f(xᵀz); its matrices are f
// applied to a matrix product.
type dotKernel interface {
	fromDot(g float64) float64
	// dotFits reports whether fromDot(g) is certainly finite for every
	// inner product g of two rows whose squared norms, as computed, are
	// at most a and b: |g| ≤ √a·√b up to rounding. It may be
	// conservative (false although no value overflows), never the
	// reverse; it is false if a or b is NaN or +Inf.
	dotFits(a, b float64) bool
}

// distKernel is a kernel of the form k(x, z) = f(‖x − z‖²); its matrices
// are f applied to squared distances ‖x‖² + ‖z‖² − 2xᵀz formed from a
// matrix product (after centring the data, see Gram).
type distKernel interface {
	fromSqDist(d float64) float64
	// rowFromDots turns a row of inner products into the row of kernel
	// values through the squared distances: row[j] = f(max(ni + nz[j] −
	// 2·row[j], 0)) for every j, with row[j] = xᵢᵀzⱼ on entry, ni = ‖xᵢ‖²
	// and nz[j] = ‖zⱼ‖² (of centred points).
	rowFromDots(row, nz []float64, ni float64)
}

// Linear is the kernel k(x, z) = xᵀz.
type Linear struct{}

// Eval returns xᵀz.
func (Linear) Eval(x, z []float64) float64 {
	var s float64
	for i, v := range x {
		s += v * z[i]
	}
	return s
}

func (Linear) fromDot(g float64) float64 { return g }

func (Linear) dotFits(a, b float64) bool { return powFits(math.Sqrt(a)*math.Sqrt(b), 1) }

// Polynomial is the kernel k(x, z) = (xᵀz + Offset)^Degree, Degree ≥ 1.
// With Offset ≥ 0 it is positive semidefinite.
type Polynomial struct {
	Degree int
	Offset float64
}

// Eval returns (xᵀz + Offset)^Degree.
func (p Polynomial) Eval(x, z []float64) float64 { return p.fromDot(Linear{}.Eval(x, z)) }

func (p Polynomial) fromDot(g float64) float64 { return powInt(g+p.Offset, p.Degree) }

// dotFits bounds |g + Offset| by √a·√b + |Offset|.
func (p Polynomial) dotFits(a, b float64) bool {
	return powFits(math.Sqrt(a)*math.Sqrt(b)+math.Abs(p.Offset), p.Degree)
}

// powFits reports whether y^n, and so powInt(x, n) for every |x| ≤ t, is
// certainly finite: whether (t·(1 + 2⁻²⁰))ⁿ ≤ 2¹⁰²³, half the largest
// float64. The factor 1 + 2⁻²⁰ covers the rounding of the inner product
// behind x (a relative error below d·2⁻⁵³ for d features) and the halving
// covers that of powInt. False for a NaN or infinite t.
func powFits(t float64, n int) bool {
	t *= 1 + 0x1p-20
	if !(t <= math.MaxFloat64) {
		return false
	}
	return float64(n)*math.Log2(t) <= 1023 // log2(0) = −Inf fits
}

// Validate reports a Degree below 1 (the zero value included: the degree
// has no default) or an Offset that is not finite.
func (p Polynomial) Validate() error {
	if err := check.Count(ErrParameter, "Polynomial.Validate", "Degree", p.Degree, 1); err != nil {
		return err
	}
	return check.Finite1(ErrParameter, "Polynomial.Validate", "Offset", p.Offset)
}

// powInt returns x^n for n ≥ 1 by repeated squaring.
func powInt(x float64, n int) float64 {
	r := 1.0
	for ; n > 0; n >>= 1 {
		if n&1 == 1 {
			r *= x
		}
		x *= x
	}
	return r
}

// Gaussian is the kernel k(x, z) = exp(−‖x − z‖² / (2σ²)), σ = Sigma > 0.
//
// Eval and the matrices of Gram, Cross and Rows compute it alike, as
// exp(−d·c) with d the squared distance and c = 1/(2σ²) rounded once per
// kernel (Eval with math.Exp, the matrices with a table-driven exp within
// 2 ulps of it): a product per entry where the quotient d/(2σ²) would be a
// division, whose throughput weighs on the elementwise pass. c is within
// 2⁻⁵² of 1/(2σ²) relative, so the argument is within about 1.5·2⁻⁵²
// relative of −d/(2σ²) (a quotient would be within 2⁻⁵²), and its
// exponential within |d/(2σ²)|·1.5·2⁻⁵² relative of exp(−d/(2σ²)), below
// 4e-15 where the value is above e⁻¹⁰, before the rounding of exp itself.
type Gaussian struct {
	Sigma float64
}

// Eval returns exp(−‖x − z‖²·c), c = 1/(2σ²).
func (g Gaussian) Eval(x, z []float64) float64 {
	var s float64
	for i, v := range x {
		d := v - z[i]
		s += d * d
	}
	return g.fromSqDist(s)
}

func (g Gaussian) fromSqDist(d float64) float64 { return math.Exp(-d * g.coef()) }

func (g Gaussian) rowFromDots(row, nz []float64, ni float64) {
	gaussianRow(row, nz, ni, g.coef())
}

// coef returns c = 1/(2σ²), the factor of the squared distance, rounded
// as every evaluation rounds it (2σ² is rounded first).
func (g Gaussian) coef() float64 { return 1 / (2 * g.Sigma * g.Sigma) }

// Validate reports a Sigma that is not positive and finite, or one for
// which c = 1/(2σ²), the factor the kernel uses, is not a positive finite
// float64: σ below about 5.3e-155 (1/(2σ²) overflows to +Inf, and k(x, x)
// would be exp(−0·∞), NaN) or above about 9.5e153 (2σ² overflows to +Inf
// and c is 0).
func (g Gaussian) Validate() error {
	const op = "Gaussian.Validate"
	if err := check.Positive(ErrParameter, op, "Sigma", g.Sigma); err != nil {
		return err
	}
	switch c := g.coef(); {
	case math.IsInf(c, 0):
		return check.Input(ErrParameter, op, "Sigma", "%v is too small: 1/(2σ²) overflows", g.Sigma)
	case c == 0:
		return check.Input(ErrParameter, op, "Sigma", "%v is too large: 2σ² overflows", g.Sigma)
	}
	return nil
}

// Laplacian is the kernel k(x, z) = exp(−‖x − z‖₁ / σ), σ = Sigma > 0, with
// the 1-norm (sum of absolute differences).
type Laplacian struct {
	Sigma float64
}

// Eval returns exp(−‖x − z‖₁ / σ).
func (l Laplacian) Eval(x, z []float64) float64 {
	return math.Exp(-l1Dist(x, z) / l.Sigma)
}

// l1Dist returns ‖x − z‖₁, summed in order: the distance of Laplacian,
// and of Widths, which must give Eval's values bit for bit.
func l1Dist(x, z []float64) float64 {
	var s float64
	for i, v := range x {
		s += math.Abs(v - z[i])
	}
	return s
}

// Validate reports a Sigma that is not positive and finite. Every such σ
// is usable as it is: Eval divides by σ itself, and s/σ for a distance
// s ≥ 0 is 0, finite or +Inf, never NaN, so that k is 1, in (0, 1] or 0.
// A distance that overflows to +Inf (data near the largest float64) gives
// 0, which is the kernel value correctly rounded.
func (l Laplacian) Validate() error {
	return check.Positive(ErrParameter, "Laplacian.Validate", "Sigma", l.Sigma)
}

var (
	_ Kernel     = Linear{}
	_ Kernel     = Polynomial{}
	_ Kernel     = Gaussian{}
	_ Kernel     = Laplacian{}
	_ dotKernel  = Linear{}
	_ dotKernel  = Polynomial{}
	_ distKernel = Gaussian{}
	_ Validator  = Polynomial{}
	_ Validator  = Gaussian{}
	_ Validator  = Laplacian{}
)
