package regress

import (
	"fmt"

	"rkhs/internal/check"
	"rkhs/internal/memlimit"
	"rkhs/kernels"
	"rkhs/linalg"
)

// Spectral holds the eigendecomposition K = Q·diag(σ)·Qᵀ of the Gram
// matrix of n training points, with Qᵀy and Qᵀ1, so that any Filter, any λ
// or t, and each intercept mode costs O(nq) in eigen-coordinates plus one
// product with Q (O(n²q)) for the coefficients — or O(mnq) for predictions
// at m points once K_test·Q is formed (PredictPath). Building it costs the
// Gram matrix and one symmetric eigendecomposition with vectors (about
// 4n³/3 + 2n³ flops plus divide and conquer, see linalg.EigenSym).
//
// Intercepts, for a filter g (g(σ) = 1/(σ + nλ) for Tikhonov):
//
//   - NoIntercept: c = g(K)·y.
//   - FreeIntercept: c = g(K)·(y − b·1) with b = 1ᵀg(K)y / 1ᵀg(K)1, so
//     1ᵀc = 0 (b = mean of y when g(K)1 = 0, as for a truncated SVD that
//     keeps nothing); for Tikhonov this is exactly Prato and Zanni (2012), eq. (7), and for the other
//     filters the same construction with g(K) in place of (K + nλI)⁻¹.
//   - PenalizedIntercept: (K + 11ᵀ + nλI)c = y, b = 1ᵀc (their eq. (8)), for
//     Tikhonov only: the rank-one 11ᵀ is handled by Sherman–Morrison in the
//     eigenbasis, (G + 11ᵀ)⁻¹y = G⁻¹y − G⁻¹1·(1ᵀG⁻¹y)/(1 + 1ᵀG⁻¹1). Other
//     filters would need the eigendecomposition of K + 11ᵀ.
//
// A Spectral is read-only after NewSpectral and safe for concurrent use.
type Spectral struct {
	kernel kernels.Kernel
	x      *linalg.Dense // training points (a copy)
	y      *linalg.Dense // targets (a copy)
	sigma  []float64     // eigenvalues of K, ascending
	q      *linalg.Dense // eigenvectors, n×n, column i for sigma[i]
	qty    *linalg.Dense // Qᵀy, n×q
	qt1    []float64     // Qᵀ1
}

// spectralSquares bounds the n×n matrices NewSpectral holds at once.
const spectralSquares = 6

// NewSpectral builds the Gram matrix of the rows of x and its
// eigendecomposition, and projects y (n×q) onto the eigenvectors. x and y
// are not modified. Its peak memory is at most spectralSquares = 6 n×n
// matrices: K, the reduced matrix and the eigenvectors of
// linalg.EigenSym, and the work of its last divide-and-conquer merge (two
// k×k and one n×k matrix, k ≤ n the roots left after deflation); the
// Spectral keeps one. Errors are InputErrors wrapping ErrInput for invalid
// arguments, as RLS.Fit's, a *linalg.MemoryError (linalg.ErrTooLarge),
// before anything is allocated, when that peak exceeds the memory limit
// (see package rkhs), or wrap linalg.ErrNoConvergence.
func NewSpectral(k kernels.Kernel, x, y *linalg.Dense) (*Spectral, error) {
	const op = "NewSpectral"
	if err := checkFit(op, k, x, y); err != nil {
		return nil, err
	}
	n := x.Rows
	if err := memlimit.CheckSquares(op, n, spectralSquares, 2*x.Cols+2*y.Cols+3); err != nil {
		return nil, err
	}
	g, err := kernels.GramTo(nil, k, x, linalg.Lower)
	if err != nil {
		return nil, kernelError(op, "X", err)
	}
	var es linalg.EigenSym
	if err := es.Factorize(g, true); err != nil {
		return nil, fmt.Errorf("regress: eigendecomposition of K: %w", err)
	}
	s := &Spectral{kernel: k, x: x.Clone(), y: y.Clone(), sigma: es.Values(nil)}
	s.q = es.VectorsTo(g) // reuse the Gram matrix's storage
	s.qty = linalg.NewDense(n, y.Cols, nil)
	linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, s.q, y, 0, s.qty)
	ones := linalg.NewDense(n, 1, nil)
	for i := range ones.Data {
		ones.Data[i] = 1
	}
	qt1 := linalg.NewDense(n, 1, nil)
	linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, s.q, ones, 0, qt1)
	s.qt1 = qt1.Data
	return s, nil
}

// Values returns a copy of the eigenvalues of K in ascending order (nil
// for a nil or zero Spectral).
func (s *Spectral) Values() []float64 {
	if s == nil {
		return nil
	}
	return append([]float64(nil), s.sigma...)
}

// N returns the number of training points (0 for a nil or zero Spectral).
func (s *Spectral) N() int {
	if s == nil {
		return 0
	}
	return len(s.sigma)
}

// check reports a Spectral that NewSpectral did not build: nil, or the
// zero value.
func (s *Spectral) check(op string) error {
	if s == nil || s.q == nil {
		return inputError(op, "Spectral", "nil or zero Spectral: build one with NewSpectral")
	}
	return nil
}

// RoundingLevel returns ε·‖K‖, ε = 2⁻⁵³ and ‖K‖ = max|σᵢ|: the accuracy of
// the eigenvalues, and the size of the perturbation of K that every fit of
// the Spectral is exact for (0 for a nil or zero Spectral). Eigenvalues
// below it are rounding noise, so a regularization nλ near or below it
// fits noise: the coefficients of a filter at λ are determined only to
// about RoundingLevel()/(nλ), relative, and FitAugmented's objective to
// RoundingMiss(λ).
func (s *Spectral) RoundingLevel() float64 {
	if s == nil || len(s.sigma) == 0 {
		return 0
	}
	return 0x1p-53 * max(s.sigma[len(s.sigma)-1], -s.sigma[0])
}

// RoundingMiss returns (ε‖K‖)²/(nλ) + ε, ε‖K‖ = RoundingLevel(): a bound,
// relative, on how far rounding alone leaves FitAugmented(λ) above the
// minimum of its objective J(c̃) = ‖[K 1]c̃ − y‖² + nλ‖c̃‖² for the K
// given. To first order, a fit exact for [K 1] + E is off the minimiser
// by δ = H⁻¹g, g = Eᵀr − [K 1]ᵀE·c, H = [K 1]ᵀ[K 1] + nλI and r the
// residual, which raises J by δᵀHδ = gᵀH⁻¹g ≤ 2‖E‖²(‖r‖²/(nλ) + ‖c‖²)
// ≤ 4(‖E‖²/(nλ))·J, since ‖r‖² and nλ‖c‖² are at most J; with ‖E‖ ≈ ε‖K‖
// the measured miss is below the bound without the 4. The ε is the
// rounding of J itself. 0 for a nil or zero Spectral or λ ≤ 0.
func (s *Spectral) RoundingMiss(lambda float64) float64 {
	if s == nil || len(s.sigma) == 0 || !(lambda > 0) {
		return 0
	}
	e := s.RoundingLevel()
	return e*e/(float64(len(s.sigma))*lambda) + 0x1p-53
}

// Kernel returns the kernel of the decomposition (nil for a nil or zero
// Spectral).
func (s *Spectral) Kernel() kernels.Kernel {
	if s == nil {
		return nil
	}
	return s.kernel
}

// FilterValues returns g(σᵢ) for filter f over the spectrum, in the order of
// Values, or an error (wrapping ErrInput) for a nil or invalid filter or a
// nil or zero Spectral.
func (s *Spectral) FilterValues(f Filter) ([]float64, error) {
	const op = "Spectral.FilterValues"
	if err := s.check(op); err != nil {
		return nil, err
	}
	return s.filterValues(op, f)
}

func (s *Spectral) filterValues(op string, f Filter) ([]float64, error) {
	if f == nil {
		return nil, inputError(op, "Filter", "nil filter")
	}
	n := len(s.sigma)
	g := make([]float64, n)
	if err := f.values(op, g, s.sigma, n, s.sigma[n-1]); err != nil {
		return nil, err
	}
	return g, nil
}

// Fit returns the model of filter f with intercept mode ic. The cost is
// O(nq) to apply the filter and 2n²q flops for c = Q·a.
func (s *Spectral) Fit(f Filter, ic Intercept) (*Model, error) {
	const op = "Spectral.Fit"
	if err := s.check(op); err != nil {
		return nil, err
	}
	a, b, err := s.eigenCoef(op, f, ic)
	if err != nil {
		return nil, err
	}
	return s.model(op, a, b)
}

// FitAugmented is Tikhonov regularization applied to the augmented system
// [K 1]·c̃ = y, c̃ = (c, b), of Prato and Zanni (2012): the minimiser of
// ‖[K 1]c̃ − y‖² + nλ‖c̃‖² (b penalized with c), which is
// Σᵢ σ̃ᵢ(ũᵢᵀy)/(σ̃ᵢ² + nλ)·ṽᵢ over the singular triplets of [K 1] with
// σ̃ᵢ ≠ 0. It comes from the same eigendecomposition of K, without an SVD
// and without forming K²: c̃ = [K 1]ᵀw with w = (K² + 11ᵀ + nλI)⁻¹y, where
// K² + nλI = Q·diag(σ² + nλ)·Qᵀ is diagonal in the eigenbasis and the
// rank-one 11ᵀ is eliminated in closed form (see augmentedCoef). So
// c = K·w and b = 1ᵀw, in O(nq) plus one product with Q.
//
// Accuracy: the eigendecomposition is backward stable, so the result is
// the exact minimiser for K + E with ‖E‖ about ε‖K‖, as an SVD or a QR of
// [K 1] would be; its objective exceeds the minimum for the K given by at
// most about RoundingMiss(λ), (ε‖K‖)²/(nλ) relative, which no float64
// method betters in general. On features of large magnitude (K reaching
// 10¹³ or more) with nλ near 0.05 that is 10⁻³ or worse: standardize the
// features, or raise λ.
func (s *Spectral) FitAugmented(lambda float64) (*Model, error) {
	const op = "Spectral.FitAugmented"
	if err := s.check(op); err != nil {
		return nil, err
	}
	a, b, err := s.augmentedCoef(op, "lambda", lambda)
	if err != nil {
		return nil, err
	}
	return s.model(op, a, b)
}

// model forms c = Q·a; coefficients that overflow are an error.
func (s *Spectral) model(op string, a *linalg.Dense, b []float64) (*Model, error) {
	c := linalg.NewDense(s.q.Rows, a.Cols, nil)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, s.q, a, 0, c)
	if err := checkModel(op, c, b); err != nil {
		return nil, err
	}
	return &Model{Kernel: s.kernel, Centers: s.x.Clone(), Coef: c, Intercept: b}, nil
}

// eigenCoef returns the coefficients in eigen-coordinates, a = Qᵀc (n×q),
// and the intercepts of filter f with intercept mode ic (see Spectral).
func (s *Spectral) eigenCoef(op string, f Filter, ic Intercept) (*linalg.Dense, []float64, error) {
	if err := ic.check(op); err != nil {
		return nil, nil, err
	}
	n, q := s.qty.Rows, s.qty.Cols
	g, err := s.filterValues(op, f)
	if err != nil {
		return nil, nil, err
	}
	if _, ok := f.(TikhonovFilter); ic == PenalizedIntercept && !ok {
		return nil, nil, inputError(op, "Intercept", "the penalized intercept is available for the Tikhonov filter only, not %v", f)
	}
	a := linalg.NewDense(n, q, nil)
	b := make([]float64, q)
	for i := 0; i < n; i++ { // u = g∘Qᵀy
		for k, v := range s.qty.Row(i) {
			a.Set(i, k, g[i]*v)
		}
	}
	o := s.qt1
	var ow float64 // 1ᵀg(K)1 = Σ oᵢ²gᵢ
	for i := range o {
		ow += o[i] * o[i] * g[i]
	}
	switch ic {
	case FreeIntercept:
		// b = oᵀu / oᵀ(g∘o); a = u − b·(g∘o). When g∘o = 0 (a filter that
		// keeps no component along 1, such as a truncated SVD that keeps
		// none), c = g(K)y whatever b and 1ᵀKc = 0, so the least-squares
		// intercept is the mean of y, 1ᵀy/n = oᵀQᵀy/n.
		for k := 0; k < q; k++ {
			if ow == 0 {
				var oy float64
				for i := 0; i < n; i++ {
					oy += o[i] * s.qty.At(i, k)
				}
				b[k] = oy / float64(n)
				continue
			}
			var ou float64
			for i := 0; i < n; i++ {
				ou += o[i] * a.At(i, k)
			}
			b[k] = ou / ow
			for i := 0; i < n; i++ {
				a.Set(i, k, a.At(i, k)-b[k]*g[i]*o[i])
			}
		}
	case PenalizedIntercept:
		// a = u − (g∘o)·f with f = oᵀu/(1 + oᵀ(g∘o)); b = 1ᵀc = oᵀa,
		// which is f itself (oᵀu − f·oᵀ(g∘o) = f): summing oᵀa would add
		// terms of size g that cancel when λ is tiny (see augmentedCoef).
		for k := 0; k < q; k++ {
			var ou float64
			for i := 0; i < n; i++ {
				ou += o[i] * a.At(i, k)
			}
			f := ou / (1 + ow)
			for i := 0; i < n; i++ {
				a.Set(i, k, a.At(i, k)-f*g[i]*o[i])
			}
			b[k] = f
		}
	}
	return a, b, nil
}

// augmentedCoef returns the eigen-coordinates and intercepts of
// FitAugmented.
func (s *Spectral) augmentedCoef(op, arg string, lambda float64) (*linalg.Dense, []float64, error) {
	if err := checkLambda(op, arg, lambda); err != nil {
		return nil, nil, err
	}
	n, q := s.qty.Rows, s.qty.Cols
	h := make([]float64, n) // 1/(σ² + nλ)
	for i, v := range s.sigma {
		h[i] = 1 / (v*v + float64(n)*lambda)
	}
	o := s.qt1
	var ow float64
	for i := range o {
		ow += o[i] * o[i] * h[i]
	}
	a := linalg.NewDense(n, q, nil)
	b := make([]float64, q)
	for k := 0; k < q; k++ {
		// ŵ = h∘(z − f·o) with f = oᵀ(h∘z)/(1 + oᵀ(h∘o)); c = K·w ↔ σ∘ŵ.
		// b = oᵀŵ equals f: eliminating a from the arrowhead system
		// [diag(σ²) + nλI, σ∘o; (σ∘o)ᵀ, n + nλ]·(a, b) = (σ∘z, oᵀz) in
		// the eigenbasis gives b = f. Summing oᵀŵ instead adds terms of
		// size h ≈ 1/(σ² + nλ) that cancel, catastrophically once nλ is
		// below the rounding of the small σ²; f's denominator has only
		// positive terms.
		var ou float64
		for i := 0; i < n; i++ {
			ou += o[i] * h[i] * s.qty.At(i, k)
		}
		f := ou / (1 + ow)
		for i := 0; i < n; i++ {
			a.Set(i, k, s.sigma[i]*h[i]*(s.qty.At(i, k)-f*o[i]))
		}
		b[k] = f
	}
	return a, b, nil
}

// FitPath returns the model of every point of the path (intercept mode ic,
// ignored for the points of Tikhonov on [K 1]), forming all the coefficients with one product
// Q·[a₁ … a_L] (2n²Lq flops at Gemm speed) instead of one matrix-vector
// product per point. Errors as Fit.
func (s *Spectral) FitPath(path []PathPoint, ic Intercept) ([]*Model, error) {
	const op = "Spectral.FitPath"
	if err := s.check(op); err != nil {
		return nil, err
	}
	n := s.q.Rows
	q := s.qty.Cols
	all := linalg.NewDense(n, len(path)*q, nil)
	bs := make([][]float64, len(path))
	for j, pt := range path {
		var a *linalg.Dense
		var err error
		a, bs[j], err = s.pathCoef(op, j, pt, ic)
		if err != nil {
			return nil, err
		}
		all.Slice(0, n, j*q, (j+1)*q).Copy(a)
	}
	c := linalg.NewDense(n, all.Cols, nil)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, s.q, all, 0, c)
	out := make([]*Model, len(path))
	for j := range path {
		out[j] = &Model{Kernel: s.kernel, Centers: s.x.Clone(), Coef: c.Slice(0, n, j*q, (j+1)*q).Clone(), Intercept: bs[j]}
	}
	return out, nil
}

// pathCoef returns the eigen-coordinates and intercepts of point j of a
// path.
func (s *Spectral) pathCoef(op string, j int, pt PathPoint, ic Intercept) (*linalg.Dense, []float64, error) {
	if pt.Filter == nil {
		return s.augmentedCoef(op, fmt.Sprintf("path[%d].Augmented", j), pt.Augmented)
	}
	return s.eigenCoef(op, pt.Filter, ic)
}

// PathPoint is one parameter value of a regularization path: a Filter, or
// (when Filter is nil) Tikhonov on the augmented matrix [K 1] (see
// FitAugmented) with λ = Augmented.
type PathPoint struct {
	Filter    Filter
	Augmented float64 // λ of Tikhonov on [K 1], used when Filter is nil
}

// PredictPath returns, for each point of the path, the predictions
// (m×q) at the rows of xt with intercept mode ic (ignored for Tikhonov on
// [K 1], which has its own b). It forms P = K(xt, X)·Q once (2mn² flops) and then costs
// 2mnq per point: a 100-value path at n = 4000 is a small multiple of one
// eigendecomposition, not 100 fits. Errors as Fit.
func (s *Spectral) PredictPath(path []PathPoint, ic Intercept, xt *linalg.Dense) ([]*linalg.Dense, error) {
	const op = "Spectral.PredictPath"
	if err := s.check(op); err != nil {
		return nil, err
	}
	if err := checkPoints(op, xt, s.x.Cols); err != nil {
		return nil, err
	}
	kt, err := kernels.Cross(s.kernel, xt, s.x)
	if err != nil {
		return nil, kernelError(op, "X", err)
	}
	p := linalg.NewDense(xt.Rows, s.q.Rows, nil)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, kt, s.q, 0, p)
	out := make([]*linalg.Dense, len(path))
	for j, pt := range path {
		var a *linalg.Dense
		var b []float64
		a, b, err = s.pathCoef(op, j, pt, ic)
		if err != nil {
			return nil, err
		}
		pr := linalg.NewDense(xt.Rows, a.Cols, nil)
		linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, p, a, 0, pr)
		addIntercept(pr, b)
		if err := check.Result(ErrInput, op, fmt.Sprintf("prediction of path[%d]", j), pr, predictionOverflow); err != nil {
			return nil, err
		}
		out[j] = pr
	}
	return out, nil
}
