package loo

import (
	"fmt"
	"math"

	"rkhs/internal/check"
	"rkhs/internal/memlimit"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// NystromPath is the λ path of the Nyström fit summarised by a
// regress.NystromStats, for data too large to hold K_nm: generalized
// cross-validation for every λ from the statistics alone, and exact
// leave-one-out residuals from one more streamed pass over the rows (Add),
// which can be split over goroutines, processes or machines and merged.
//
// # Method
//
// The Nyström fit is ridge regression on the features bᵢ = L⁻¹k(xᵢ, C),
// L·Lᵀ = K_mm (+ δI): ŷ = H·y with H = B(G + nλI)⁻¹Bᵀ, G = BᵀB, where for a
// free intercept B and y are centred (and H gains (1/n)·11ᵀ), and for a
// penalized one B is shifted by w = L⁻¹1 and the penalty is nλ(I + wwᵀ),
// which the change of variables a = Q⁻ᵀa', Q·Qᵀ = I + wwᵀ, turns into
// nλI (see regress.NystromStats.Solve). The statistics give G and R = BᵀY
// in that frame; one eigendecomposition G = V·diag(μ)·Vᵀ (m×m) then gives,
// for every λ at O(mq) cost, with Z = VᵀR and d_k = 1/(μ_k + nλ),
//
//	tr H = Σ_k μ_k·d_k (+ 1 free),  RSS = yᵀy − Σ_k Z_k²·(μ_k + 2nλ)·d_k²,
//
// and GCV = n·RSS/(n − tr H)² (Golub, Heath and Wahba, "Generalized
// cross-validation as a method for choosing a good ridge parameter",
// 1979). RSS is computed by that difference, so where the fit nearly
// interpolates (RSS below about ε·yᵀy) GCV has no correct digits; the
// second pass measures the training error directly (TrainMSE).
//
// Exact leave-one-out needs the hat diagonal. With fᵢ = Vᵀ(bᵢ − shift) in
// the same frame, Hᵢᵢ = Σ_k f_ik²·d_k (+ 1/n) and ŷᵢ = Σ_k f_ik·Z_k·d_k
// (+ ȳ), so the residual rᵢ = (yᵢ − ŷᵢ)/(1 − Hᵢᵢ) of every λ costs O(mq)
// once fᵢ is known (Rifkin and Lippert, "Notes on regularized least
// squares", 2007, carried over to the Nyström features). Add computes
// the rows fᵢ of a block as K_b·W − 1cᵀ, one m×m matrix W = L⁻ᵀV (with the
// frame's transformation) formed here, so a pass costs 2nm² flops for
// the products, 2nmd and nm kernel transforms for K_b, and 2nmL(q + 1)
// for L values of λ. The residuals are exact: they equal refitting
// without row i with the same centres and the same penalty nλ.
//
// A pass over a uniformly drawn subset of the rows gives an unbiased
// estimate of the leave-one-out error of all of them (each residual is
// still exact), at the cost of that subset: MSE and ErrorRate are means
// over the rows added.
//
// # Conventions
//
// λ is in the K + nλI convention with n the number of rows the statistics
// summarise. Results are bit-identical for any GOMAXPROCS: blocks are
// visited in order and linalg's products are deterministic. A
// NystromPath is not safe for concurrent use; use one per goroutine and
// Merge them.
type NystromPath struct {
	// Lambdas are the λ of the path, in the order given.
	Lambdas []float64
	// DF[j] is tr H at λ_j, the effective number of parameters.
	DF []float64
	// GCV[j] is n·RSS/(n − tr H)² at λ_j, the mean over the outputs, from
	// the statistics alone (see Method for its accuracy).
	GCV []float64

	frame   // W, c, μ, D, Z∘D and ȳ of the λ path
	kernel  kernels.Kernel
	centers *linalg.Dense
	jitter  float64 // the δ of K_mm's factor

	seen  int
	sse   []float64 // Σ over rows and outputs of the LOO residual squared, per λ
	sse2  []float64 // Σ over rows of (Σ over outputs of the LOO residual squared)², per λ
	rss   []float64 // Σ over rows and outputs of the training residual squared, per λ
	wrong []int     // rows whose leave-one-out prediction has the wrong class, per λ

}

// NewNystromPath prepares the λ path of the Nyström fit summarised by s
// with the intercept mode ic: it reads G and BᵀY in the frame of ic from s
// (regress.NystromStats.Gram; see Method), factors G = V·diag(μ)·Vᵀ, and
// computes DF and GCV for every λ. s is not modified and not kept.
//
// Cost: about 9m³ flops (the eigendecomposition with vectors, W, and for a
// penalized intercept the change of frame) and O(mL(q + 1)). Memory: four
// m×m matrices, 2mL(q + 1) doubles and a copy of the centres besides s; a
// *linalg.MemoryError (linalg.ErrTooLarge) is returned before allocating
// when they do not fit.
//
// Errors wrap ErrInput: an empty λ list or a λ not positive and finite, an
// unknown intercept mode, s nil, the zero value or statistics of no rows
// (these also wrap regress.ErrInput); linalg.ErrNotPositiveDefinite when
// K_mm of decoded statistics cannot be factored or a λ is so small that
// G + nλI is numerically singular (the error names it), or, with a
// penalized intercept, when w = L⁻¹1 is so large that I + wwᵀ overflows;
// linalg.ErrNoConvergence from the eigensolver.
func NewNystromPath(s *regress.NystromStats, ic regress.Intercept, lambdas []float64) (*NystromPath, error) {
	p, good, err := newNystromPath(s, ic, lambdas, new(linalg.EigenSym), false)
	if err != nil {
		return nil, err
	}
	for j, l := range lambdas {
		if j >= len(good) || good[j] != j {
			return nil, singularAt("NewNystromPath", l)
		}
	}
	return p, nil
}

// UsableNystromPath is NewNystromPath over the λ of lambdas at which the
// Nyström system is usable: those where tr H and GCV come out finite, the
// others being so small that G + nλI is numerically singular. It returns
// the path, whose Lambdas are the usable λ in the order given, and their
// indices in lambdas. A selection scores the λ left out +Inf. When no λ
// is usable the error names the first and wraps
// linalg.ErrNotPositiveDefinite; the other errors, cost and memory are
// NewNystromPath's.
func UsableNystromPath(s *regress.NystromStats, ic regress.Intercept, lambdas []float64) (p *NystromPath, usable []int, err error) {
	return newNystromPath(s, ic, lambdas, new(linalg.EigenSym), false)
}

// newNystromPath is NewNystromPath for the λ of the grid at which the
// system is not numerically singular, good (indices into lambdas, in
// order): the path holds those; an error wrapping
// linalg.ErrNotPositiveDefinite names the first λ when there are none. The
// eigensolver's workspace is given, so that a caller building the paths
// of several σ in turn reuses its m×m matrices instead of leaving them to
// the garbage collector. With spend, G is formed in the storage of the
// statistics' M (regress.NystromStats.GramInPlace), and W in the same
// storage after it: s is left the zero value, which a caller that lets go
// of the statistics once their path is built can afford, for one m×m
// matrix less a path.
func newNystromPath(s *regress.NystromStats, ic regress.Intercept, lambdas []float64, es *linalg.EigenSym, spend bool) (p *NystromPath, good []int, err error) {
	const op = "NewNystromPath"
	if err := checkParams(op, "lambdas", lambdas); err != nil {
		return nil, nil, err
	}
	if err := checkIntercept(op, ic); err != nil {
		return nil, nil, err
	}
	if s == nil {
		return nil, nil, inputError(op, "s", "nil *regress.NystromStats")
	}
	k, centers := s.Kernel(), s.Centers() // nil for the zero value, which Gram refuses
	if centers != nil && s.Rows() > 0 {
		m, q, nl := centers.Rows, s.Outputs(), len(lambdas)
		if err := memlimit.Check(op, memlimit.Sum(memlimit.Floats(4, m, m), memlimit.Floats(2*m, nl*(q+1)))); err != nil {
			return nil, nil, err
		}
	}
	var fr *regress.NystromGram
	if spend {
		fr, err = s.GramInPlace(ic)
	} else {
		fr, err = s.Gram(ic)
	}
	if err != nil {
		return nil, nil, regressError(op, "s", err)
	}
	m, q, nl := centers.Rows, fr.R.Cols, len(lambdas)
	p = &NystromPath{
		Lambdas: append([]float64(nil), lambdas...),
		frame:   frame{ic: ic, n: fr.N, q: q, m: m, ybar: make([]float64, q)},
		kernel:  k, centers: centers, jitter: fr.Jitter,
		sse: make([]float64, nl), sse2: make([]float64, nl), rss: make([]float64, nl), wrong: make([]int, nl),
	}
	qf, err := standardForm(fr)
	if err != nil {
		return nil, nil, fmt.Errorf("loo: %s: %w", op, err)
	}
	if ic == regress.FreeIntercept {
		copy(p.ybar, fr.YBar)
	}
	g, r, yy, shift := fr.G, fr.R, fr.YY, fr.Shift
	if err := es.Factorize(g, true); err != nil {
		return nil, nil, fmt.Errorf("loo: %s: Nyström BᵀB: %w", op, err)
	}
	p.mu = es.Values(nil)
	v := es.VectorsTo(g) // G is not needed any more
	z := linalg.NewDense(m, q, nil)
	linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, v, r, 0, z)
	// c = Vᵀ·T·shift and W = L⁻ᵀ·Tᵀ·V, T = Q⁻¹ (penalized) or I.
	if qf != nil {
		linalg.Trsv(linalg.Lower, linalg.NoTrans, qf, shift)
	}
	p.c = make([]float64, m)
	linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, v, linalg.NewDense(m, 1, shift), 0, linalg.NewDense(m, 1, p.c))
	p.w = v
	if qf != nil {
		linalg.Trsm(linalg.Lower, linalg.Trans, qf, p.w)
	}
	linalg.Trsm(linalg.Lower, linalg.Trans, fr.L, p.w)

	n := float64(p.n)
	// DF and GCV of every λ; the path keeps the λ where both are finite.
	d := resolvents(p.mu, p.n, lambdas, func(mk float64) float64 { return mk })
	var dfs, gcvs []float64
	for j, l := range lambdas {
		var df float64
		if ic == regress.FreeIntercept {
			df = 1
		}
		for k, mk := range p.mu {
			df += mk * d.At(k, j)
		}
		var gcv float64
		for out := 0; out < q; out++ {
			rss := yy[out]
			for k, mk := range p.mu {
				dk := d.At(k, j)
				zk := z.At(k, out)
				rss -= zk * zk * (mk + 2*n*l) * dk * dk
			}
			gcv += n * max(rss, 0) / ((n - df) * (n - df))
		}
		if gcv /= float64(q); !bad(df) && !bad(gcv) {
			good, dfs, gcvs = append(good, j), append(dfs, df), append(gcvs, gcv)
		}
	}
	if len(good) == 0 {
		return nil, nil, singularAt(op, lambdas[0])
	}
	if len(good) < nl {
		p.Lambdas, nl = p.Lambdas[:0], len(good)
		for _, j := range good {
			p.Lambdas = append(p.Lambdas, lambdas[j])
		}
		p.sse, p.sse2, p.rss, p.wrong = p.sse[:nl], p.sse2[:nl], p.rss[:nl], p.wrong[:nl]
		d = resolvents(p.mu, p.n, p.Lambdas, func(mk float64) float64 { return mk })
	}
	p.d, p.DF, p.GCV = d, dfs, gcvs
	p.zd = linalg.NewDense(m, q*nl, nil)
	for k := 0; k < m; k++ {
		row, dk := p.zd.Row(k), p.d.Row(k)
		for out, zk := range z.Row(k) {
			for j, dkj := range dk {
				row[out*nl+j] = zk * dkj
			}
		}
	}
	return p, good, nil
}

// first returns the frame of a path of one λ, and its tr H, GCV and the
// δ of K_mm's factor: the fit ScalePath stands on.
func (p *NystromPath) first() (f frame, df, gcv, jitter float64) {
	return p.frame, p.DF[0], p.GCV[0], p.jitter
}

// standardForm turns the problem fr of a penalized intercept, whose
// penalty is nλ(I + wwᵀ) (see regress.NystromGram), into the frame where
// it is nλI: with Q the Cholesky factor of I + wwᵀ and a = Q⁻ᵀa', G
// becomes Q⁻¹GQ⁻ᵀ and R becomes Q⁻¹R, in place; it returns Q. For the
// other modes, whose penalty is nλI already, it does nothing and returns
// nil.
func standardForm(fr *regress.NystromGram) (qf *linalg.Dense, err error) {
	w := fr.W
	if w == nil {
		return nil, nil
	}
	m := len(w)
	// Q·Qᵀ = I + wwᵀ; G ← Q⁻¹·G·Q⁻ᵀ (symmetric: two solves and a
	// transpose), R ← Q⁻¹·R.
	qf = linalg.NewDense(m, m, nil)
	for i := 0; i < m; i++ {
		row := qf.Row(i)[:i+1]
		for j := range row {
			row[j] = w[i] * w[j]
		}
		row[i]++
	}
	var ch linalg.Cholesky
	if err := ch.FactorizeInPlace(qf); err != nil { // I + wwᵀ ≥ I: only overflow of w fails
		return nil, fmt.Errorf("the penalized intercept's I + wwᵀ, w = L⁻¹1: %w", err)
	}
	qf = ch.LTo(nil)
	linalg.Trsm(linalg.Lower, linalg.NoTrans, qf, fr.G)
	fr.G.TransposeInPlace()
	linalg.Trsm(linalg.Lower, linalg.NoTrans, qf, fr.G)
	linalg.Trsm(linalg.Lower, linalg.NoTrans, qf, fr.R)
	return qf, nil
}

// Add adds the exact leave-one-out residuals of the rows x (b×d) with the
// outputs y (b×q) to the path. The rows must be rows the statistics
// summarise (the residuals of other rows mean nothing; only a count above
// n is detected); a row added twice counts twice. Neither x nor y is
// modified. On error the path is unchanged.
//
// Errors wrap ErrInput: x or y nil, malformed, empty or not finite (also
// linalg.ErrNotFinite), of the wrong number of columns or rows, or more
// rows in all than the statistics summarise; kernel values that overflow
// (also kernels.ErrData); linalg.ErrNotPositiveDefinite, naming the λ,
// when a residual comes out NaN or ±Inf because the fit interpolates a
// row there (Hᵢᵢ = 1 to rounding).
func (p *NystromPath) Add(x, y *linalg.Dense) error {
	const op = "NystromPath.Add"
	if err := p.ready(op); err != nil {
		return err
	}
	if err := check.Data(ErrInput, op, "X", x, 1); err != nil {
		return err
	}
	if err := check.Data(ErrInput, op, "Y", y, 1); err != nil {
		return err
	}
	switch {
	case x.Cols != p.centers.Cols:
		return inputError(op, "X", "%d columns, the centres have %d", x.Cols, p.centers.Cols)
	case y.Rows != x.Rows:
		return inputError(op, "Y", "%d rows, X has %d", y.Rows, x.Rows)
	case y.Cols != p.q:
		return inputError(op, "Y", "%d columns, the statistics have %d outputs", y.Cols, p.q)
	case x.Rows > p.n-p.seen:
		return inputError(op, "X", "%d rows, but only %d of the %d rows summarised are left to add", x.Rows, p.n-p.seen, p.n)
	}
	a, err := p.pass(op, x, y)
	if err != nil {
		return err
	}
	return a.commit(op, x.Rows)
}

// pass runs a pass over the rows x with outputs y, checked by the caller,
// and returns its sums, not yet kept.
func (p *NystromPath) pass(op string, x, y *linalg.Dense) (*streamPass, error) {
	rows, err := kernels.NewRows(p.kernel, x, p.centers)
	if err != nil {
		return nil, check.Wrap(ErrInput, op, "X", err)
	}
	a := p.begin()
	var ws streamWork
	for i0, kb := range rows.Blocks(passRows(p.m)) {
		a.block(&ws, kb, y.Slice(i0, i0+kb.Rows, 0, p.q))
	}
	return a, nil
}

// passRows is the number of rows of K_nm (m columns) that a pass of Add
// (or of SelectNystrom over several widths) takes at a time: a block of
// about kernels.GemmBlockElems values, so that the products of each block
// (K_b·W, b×m by m×m) run near the speed of a large linalg.Gemm, split
// over the goroutines, and the cost of packing W once a block is small
// beside them. An entry of a product does not depend on the rows around
// it, and the residuals are summed row by row in order, so the results do
// not depend on it.
func passRows(m int) int { return kernels.BlockRows(m, passElems) }

// passElems is the target of passRows; a variable only so that tests can
// make blocks small.
var passElems = kernels.GemmBlockElems

// streamWork is the workspace of a pass: the products of block; it can
// serve every path of a pass in turn.
type streamWork struct {
	f, h, yhat linalg.Dense
}

// streamPass is the accumulation of one pass of Add over a path: the sums
// of the rows added so far in this pass, on top of those before it, kept
// apart until commit so that a failed pass leaves the path unchanged.
type streamPass struct {
	p     *NystromPath
	sse   []float64
	sse2  []float64
	rss   []float64
	wrong []int
}

// begin starts a pass over p.
func (p *NystromPath) begin() *streamPass {
	return &streamPass{p: p,
		sse:   append([]float64(nil), p.sse...),
		sse2:  append([]float64(nil), p.sse2...),
		rss:   append([]float64(nil), p.rss...),
		wrong: append([]int(nil), p.wrong...),
	}
}

// commit ends a pass of rows rows: it keeps the sums, or returns the
// error of the first λ whose sums are not finite and keeps nothing.
func (a *streamPass) commit(op string, rows int) error {
	p := a.p
	for j := range p.Lambdas {
		if bad(a.sse[j]) || bad(a.rss[j]) {
			return singularAt(op, p.Lambdas[j])
		}
	}
	p.sse, p.sse2, p.rss, p.wrong = a.sse, a.sse2, a.rss, a.wrong
	p.seen += rows
	return nil
}

// keep ends a pass of rows rows for a selection: it keeps the sums of
// every λ, also those that are not finite (λ where the fit interpolates a
// row), which the selection scores +Inf, instead of failing the pass.
func (a *streamPass) keep(rows int) {
	p := a.p
	p.sse, p.sse2, p.rss, p.wrong = a.sse, a.sse2, a.rss, a.wrong
	p.seen += rows
}

// block adds the residuals of one block to the pass: kb holds k(xᵢ, C)
// for its rows, yb their outputs. The frame's products are split over
// the goroutines; the sums run row by row in order.
func (a *streamPass) block(ws *streamWork, kb, yb *linalg.Dense) {
	p := a.p
	nl := len(p.Lambdas)
	f := p.rows(&ws.f, kb)
	e := p.residuals(&ws.yhat, f, yb)
	h, h0 := p.hats(&ws.h, f), p.h0()
	sse, sse2, rss, wrong := a.sse, a.sse2, a.rss, a.wrong
	for i := 0; i < kb.Rows; i++ {
		yi, hi, ei := yb.Row(i), h.Row(i), e.Row(i)
		for j := 0; j < nl; j++ {
			g := 1 - (hi[j] + h0)
			var row float64
			for out := range yi {
				res := ei[out*nl+j]
				loo := res / g
				sse[j] += loo * loo
				row += loo * loo
				rss[j] += res * res
			}
			sse2[j] += row * row
			if wrongClass(yi, ei[j:], nl, g) {
				wrong[j]++
			}
		}
	}
}

// Fit returns the Nyström fit at λ_j, Lambdas[j], read from the path: the
// model whose fitted values and leave-one-out residuals the path scores,
// with coefficients W·(Z∘D)_j (W = L⁻ᵀV in the frame of the intercept
// mode, see Method) and intercept ȳ − cᵀ(Z∘D)_j, in O(m²q) flops and no
// pass over the rows. It is the fit regress.NystromStats.Solve computes
// through a Cholesky factor of G + nλI, to rounding: the two differ by
// about ε·‖G‖/(nλ) relative. The model holds a copy of the centres. It
// panics if j is not an index of Lambdas.
func (p *NystromPath) Fit(j int) *regress.NystromFit {
	if err := p.ready("NystromPath.Fit"); err != nil {
		panic(err)
	}
	nl := len(p.Lambdas)
	if j < 0 || j >= nl {
		panic(fmt.Sprintf("loo: NystromPath.Fit: index %d of a path of %d λ", j, nl))
	}
	coef, b := p.fit(j)
	return &regress.NystromFit{
		Model:  &regress.Model{Kernel: p.kernel, Centers: p.centers.Clone(), Coef: coef, Intercept: b},
		Jitter: p.jitter,
	}
}

// Merge adds the residuals that o has collected to p; o is not modified.
// Both must have been made from the same statistics, intercept mode and λ
// (checked by the shape, the λ and the bits of W). Errors wrap ErrInput.
// On error p is unchanged.
func (p *NystromPath) Merge(o *NystromPath) error {
	const op = "NystromPath.Merge"
	if err := p.ready(op); err != nil {
		return err
	}
	if o == nil || o.w == nil {
		return inputError(op, "o", "nil or zero NystromPath: make it with NewNystromPath")
	}
	same := p.n == o.n && p.q == o.q && p.m == o.m && p.ic == o.ic && len(p.Lambdas) == len(o.Lambdas)
	for j := 0; same && j < len(p.Lambdas); j++ {
		same = p.Lambdas[j] == o.Lambdas[j]
	}
	for i := 0; same && i < p.m; i++ {
		a, b := p.w.Row(i), o.w.Row(i)
		for k := range a {
			if math.Float64bits(a[k]) != math.Float64bits(b[k]) {
				same = false
				break
			}
		}
	}
	if !same {
		return inputError(op, "o", "a path of other statistics, intercept mode or λ")
	}
	if o.seen > p.n-p.seen {
		return inputError(op, "o", "%d rows added, but only %d of the %d rows summarised are left", o.seen, p.n-p.seen, p.n)
	}
	for j := range p.sse {
		p.sse[j] += o.sse[j]
		p.sse2[j] += o.sse2[j]
		p.rss[j] += o.rss[j]
		p.wrong[j] += o.wrong[j]
	}
	p.seen += o.seen
	return nil
}

// Rows returns the number of rows added so far (by Add and Merge).
func (p *NystromPath) Rows() int { return p.seen }

// MSE returns the mean squared leave-one-out residual at every λ, over the
// rows added and the outputs. An error wraps ErrInput if no row was added.
func (p *NystromPath) MSE() ([]float64, error) {
	return p.mean("NystromPath.MSE", p.sse, float64(p.q))
}

// MSEStdErr returns, at every λ, the standard error of MSE as an estimate
// of the mean squared leave-one-out residual over all n rows the
// statistics summarise, for rows added that are a uniform random sample of
// them drawn without replacement (as SelectNystrom's Subset draws them).
// With eᵢ the mean over the outputs of row i's squared leave-one-out
// residuals, r the rows added and s² the sample variance of their eᵢ,
//
//	SE = √((1 − r/n)·s²/r)
//
// (Cochran, "Sampling Techniques", 1977, §2.5; 1 − r/n is the finite
// population correction). It is 0 when every row was added: MSE is then
// the mean itself, not an estimate of it. SE says how far the estimate of
// one λ may lie from its every-row value; two λ scored on the same rows
// can differ by less than their standard errors suggest, the rows' errors
// being correlated from one λ to the next. An error wraps
// ErrInput if fewer than 2 rows were added.
func (p *NystromPath) MSEStdErr() ([]float64, error) {
	q := float64(p.q)
	return p.stdErr("NystromPath.MSEStdErr", p.sse, p.sse2, q, q*q)
}

// ErrorRateStdErr is MSEStdErr for ErrorRate: the standard error of the
// share of wrong rows as an estimate of that share over all n rows, for
// rows added that are a uniform random sample of them (s² the sample
// variance of the 0/1 outcomes); 0 when every row was added. An error wraps
// ErrInput if fewer than 2 rows were added.
func (p *NystromPath) ErrorRateStdErr() ([]float64, error) {
	w := p.wrongCounts()
	return p.stdErr("NystromPath.ErrorRateStdErr", w, w, 1, 1)
}

// stdErr returns √((1 − r/n)·s²/r) for every λ, s² the sample variance of
// values whose sum is sum/per and sum of squares sum2/per2.
func (p *NystromPath) stdErr(op string, sum, sum2 []float64, per, per2 float64) ([]float64, error) {
	if err := p.ready(op); err != nil {
		return nil, err
	}
	if p.seen < 2 {
		return nil, inputError(op, "NystromPath", "%d rows added, want at least 2 for a variance", p.seen)
	}
	r, n := float64(p.seen), float64(p.n)
	out := make([]float64, len(sum))
	for j := range sum {
		out[j] = sampleStdErr(sum[j]/per, sum2[j]/per2, r, n)
	}
	return out, nil
}

// sampleStdErr returns √((1 − r/n)·s²/r), the standard error of the mean
// of r values drawn without replacement from n, s² their sample variance,
// from the sum s1 of the values and the sum s2 of their squares (r ≥ 2).
func sampleStdErr(s1, s2, r, n float64) float64 {
	v := max(s2-s1*s1/r, 0) / (r - 1)
	return math.Sqrt(max(1-r/n, 0) * v / r)
}

// TrainMSE returns the mean squared training residual yᵢ − ŷᵢ at every λ,
// over the rows added and the outputs, measured directly (without the
// cancellation of GCV's RSS). An error wraps ErrInput if no row was added.
func (p *NystromPath) TrainMSE() ([]float64, error) {
	return p.mean("NystromPath.TrainMSE", p.rss, float64(p.q))
}

// ErrorRate returns, at every λ, the share of the rows added whose
// leave-one-out prediction has the wrong class, for outputs that code
// classes: with one output, its sign (labels ±1); with several (one
// against all), the index of the largest. An error wraps ErrInput if no
// row was added.
func (p *NystromPath) ErrorRate() ([]float64, error) {
	return p.mean("NystromPath.ErrorRate", p.wrongCounts(), 1)
}

// wrongCounts returns the counts of wrong rows per λ as float64.
func (p *NystromPath) wrongCounts() []float64 {
	w := make([]float64, len(p.wrong))
	for j, v := range p.wrong {
		w[j] = float64(v)
	}
	return w
}

// mean returns sum/(rows added·per).
func (p *NystromPath) mean(op string, sum []float64, per float64) ([]float64, error) {
	if err := p.ready(op); err != nil {
		return nil, err
	}
	if p.seen == 0 {
		return nil, inputError(op, "NystromPath", "no rows added: call Add with the rows the statistics summarise")
	}
	out := make([]float64, len(sum))
	for j, s := range sum {
		out[j] = s / (float64(p.seen) * per)
	}
	return out, nil
}

// ready reports a nil or zero NystromPath.
func (p *NystromPath) ready(op string) error {
	if p == nil || p.w == nil {
		return inputError(op, "NystromPath", "nil or zero value: make it with NewNystromPath")
	}
	return nil
}

// bad reports NaN or ±Inf.
func bad(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }

// singularAt is the error of a λ at which the Nyström system is
// numerically singular.
func singularAt(op string, lambda float64) error {
	return fmt.Errorf("loo: %s: a score is not finite at λ = %g: the Nyström system G + nλI is numerically singular there, try a larger λ: %w",
		op, lambda, linalg.ErrNotPositiveDefinite)
}
