package loo

import (
	"slices"

	"rkhs/internal/wire"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// ScaleAdjoint is pass B of a ScaleObjective: over every row, the adjoint
// N (n×m) of the objective in K_nm, row by row, contracted with the
// derivatives of the kernel in every log σ_j, so that
//
//	∂J/∂log σ_j = Σ_ik E_ik·(x̃_ij − z̃_kj)² + Σ_kl (E_P)_kl·(z̃_kj − z̃_lj)²,
//	E = N∘K_nm,  E_P = P∘K_mm,  P = −nλ·Q,  ∂J/∂log λ = −nλ·tr Q̂
//
// with x̃ = x/σ and z̃ = c/σ (docs/notes/ard-gradient.md, eq. 6 and 11). NewAdjoint
// forms, from the path and the sums of pass A, the matrices of the
// frame every row needs, and the K_mm part. Each block of rows then costs
// three products: the frame's rows F_b = K_b·W − 1cᵀ, the adjoint in the
// frame G_b = −2F_b·Q̂′ + … (the rows of S add their own weights, from
// their residuals again), and N_b = G_b·Wᵀ; then the Hadamard product
// with K_b, and the contraction (x̃∘x̃)ᵀ(E·1) − 2·diag(X̃ᵀE·Z̃) +
// (1ᵀE)(z̃∘z̃) as one product E·[Z̃ | 1] and one Eᵀ·1, both sets shifted
// by the scaled centres' mean so that the expansion cancels no more than
// the distances do. Only the d sums of the first term and the m column
// sums of E are kept: they are sums over the rows, so shards on different
// workers, each with a ScaleAdjoint made the same way, merge (Merge,
// MarshalBinary and UnmarshalBinary). It is not safe for concurrent use.
//
// Accuracy. N has entries of the order of ‖Q̂‖/λ_min(K_mm + δI) that
// cancel in the contraction, so the entries ∂J/∂log σ_j lose digits as
// K_mm's condition number κ grows: measured against five-point finite
// differences, about 10⁻⁹ of the largest entry at κ ≈ 10⁸, 2·10⁻⁷ at
// κ ≈ 3·10⁹ and 10⁻⁴ at κ ≈ 5·10¹⁰ (a descent's optimum, where the
// gradient is small); ∂J/∂log λ, from the frame alone, keeps about 10⁻¹⁰.
type ScaleAdjoint struct {
	p     *ScalePath
	value *ScaleEval    // J and the rest, from pass A or the statistics
	kappa float64       // κ = 2/(|S|q) for the rows of S; 0 for GCV
	loo   int           // |S|; 0 for GCV
	all   bool          // every row is of S
	qhat  *linalg.Dense // Q̂′ (m×m): Q̂, or for GCV Q̂ − b·D − (κ_G/2)·ĈĈᵀ
	upsT  *linalg.Dense // Υ̂′ᵀ (q×m): (D·Φ̂ + κ_G·Ĉ)ᵀ, κ_G = 0 without GCV
	off   []float64     // ô = Υ̂′ȳ − ν̂, the offset of every row of G (m)
	fixed []float64     // the K_mm part of ∂J/∂log σ (d) and ∂J/∂log λ
	hash  uint64        // of the bits of Q̂′, Υ̂′, ô and the K_mm part

	rows, sRows int
	g           []float64 // Σ_i x̃_ij²(E·1)ᵢ − 2x̃_ij(E·Z̃)_ij (d)
	t           []float64 // 1ᵀE (m)
	err         error     // the error of a failed Add: the sums are unusable
	ws          scaleWork
}

// NewAdjoint returns empty pass-B sums of the path, forming what every row
// needs from the pass-A sums a (nil for the GCV criterion, whose sums
// follow from the fit): with κ = 2/(|S|q) the weights' scale,
// Ω̂, Φ̂, ŝ_β and s_α of a times κ (for GCV, Ω̂ = b·diag(μ) and
// Φ̂ = κ_G·nλ·Ĉ with κ_G = 2n/(qτ²), b = 2n·RSS/(qτ³), τ = n − tr H),
//
//	Q̂ = DΩ̂D − (DΦ̂Ĉᵀ + ĈΦ̂ᵀD)/2,  Υ̂ = D·Φ̂,  ν̂ = (1/n)·(2D·ŝ_β − Ĉ·s_α) (free intercept; 0 otherwise),
//
// in the frame (Q = W·Q̂·Wᵀ, Υ = W·Υ̂ = M⁻¹Φ and ν̄ = W·ν̂ in the centres'
// coordinates), ∂J/∂log λ = −nλ·tr Q̂, and the K_mm part of ∂J/∂log σ_j
// from P∘K_mm, P = −nλ·Q. a must be of this path (its fingerprint) and
// hold the rows of S: all n rows, or the subset; a is not modified.
//
// Cost: about 4m³ flops and O(m²(d + q)). Memory: four m×m matrices while
// it runs, one kept (Q̂′), and the workspace of Add, four blocks of about
// 2²⁰ values; a *linalg.MemoryError (linalg.ErrTooLarge) before
// allocating when they do not fit.
//
// Errors wrap ErrInput: a nil or zero path; a nil a with a leave-one-out
// criterion, or a non-nil one with GCV; a of another path or of no rows;
// or the error of a failed Add of a.
func (p *ScalePath) NewAdjoint(a *ScaleLOO) (*ScaleAdjoint, error) {
	const op = "ScalePath.NewAdjoint"
	if err := p.ready(op); err != nil {
		return nil, err
	}
	w, err := p.weights(op, a)
	if err != nil {
		return nil, err
	}
	m, q, d := p.m, p.q, len(p.sk.Sigma())
	nl := float64(p.n) * p.lambda
	ad := &ScaleAdjoint{p: p, value: w.value, kappa: w.kappa, loo: w.loo, all: w.all, g: make([]float64, d), t: make([]float64, m)}

	// Q̂ = DΩ̂D − (DΦ̂Ĉᵀ + ĈΦ̂ᵀD)/2 in Ω̂'s storage, and ∂J/∂log λ (eq. 15).
	chat, dk := p.zd, p.dk
	pc := linalg.NewDense(m, m, nil) // Φ̂Ĉᵀ, later W·Q̂ and P∘K_mm
	linalg.Gemm(linalg.NoTrans, linalg.Trans, 1, w.phi, chat, 0, pc)
	var tr float64
	for k := 0; k < m; k++ {
		row := w.omega.Row(k)
		for l := range row {
			row[l] = dk[k]*row[l]*dk[l] - (dk[k]*pc.At(k, l)+pc.At(l, k)*dk[l])/2
		}
		tr += row[k]
	}
	qhat := w.omega
	dlam := -nl * tr

	// Q = W·Q̂·Wᵀ; the K_mm part from P∘K_mm, P = −nλ·Q (eq. 6, the
	// second sum of eq. 11).
	qm := linalg.NewDense(m, m, nil)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, p.w, qhat, 0, pc)
	linalg.Gemm(linalg.NoTrans, linalg.Trans, 1, pc, p.w, 0, qm)
	for i := range qm.Data {
		qm.Data[i] *= -nl
	}
	if ad.fixed, err = p.sk.CentersGradient(qm, pc); err != nil {
		return nil, regressError(op, "Centers", err)
	}
	ad.fixed = append(ad.fixed, dlam)

	// Q̂′ = Q̂ − b·D − (κ_G/2)·ĈĈᵀ (eq. 14), so that the rows of G need no weights
	// of their own for GCV (b = κ_G = 0 otherwise), Υ̂′ = D·Φ̂ + κ_G·Ĉ,
	// and the offset ô = Υ̂′ȳ − ν̂ with ν̄ = W·ν̂
	// (−Ỹ_bΥ̂′ᵀ = −Y_bΥ̂′ᵀ + 1(Υ̂′ȳ)ᵀ).
	for k := 0; k < m; k++ {
		qhat.Row(k)[k] -= w.b * dk[k]
	}
	linalg.Gemm(linalg.NoTrans, linalg.Trans, -w.kappaG/2, chat, chat, 1, qhat)
	ad.qhat = qhat
	ad.upsT = linalg.NewDense(q, m, nil)
	ad.off = make([]float64, m)
	for k := 0; k < m; k++ {
		var s float64
		for out := 0; out < q; out++ {
			u := dk[k]*w.phi.At(k, out) + w.kappaG*chat.At(k, out)
			ad.upsT.Set(out, k, u)
			ad.off[k] += u * p.ybar[out]
			s += chat.At(k, out) * w.sa[out]
		}
		if p.ic == regress.FreeIntercept {
			ad.off[k] -= (2*dk[k]*w.sb[k] - s) / float64(p.n)
		}
	}
	ad.hash = ad.fingerprint()
	return ad, nil
}

// fingerprint hashes the bits of Q̂′, Υ̂′, ô and the K_mm part: two
// ScaleAdjoints of the same path and the same pass-A sums hold the same
// ones.
func (ad *ScaleAdjoint) fingerprint() uint64 {
	return wire.HashFloats(ad.qhat.Data, ad.upsT.Data, ad.off, ad.fixed)
}

// Add adds the rows x (b×d) with the outputs y (b×q) to the sums; loo
// marks the rows of S among them. With a leave-one-out criterion whose
// pass A ran on every row, every row is of S: loo must be nil or all
// true. With a subset, loo[i] says whether row i is of S (nil: none of
// these rows) — ScaleObjective.SubsetRows gives them. With GCV there is
// no S: loo must be nil or all false. Every one of the n rows the
// statistics summarise must be added once in all (Gradient checks the
// counts). Neither x, y nor loo is modified.
//
// Each block of about 2²⁰ kernel values: the block divided by σ, its
// kernel block K_b, F_b = K_b·W − 1cᵀ, G_b = −2F_b·Q̂′ − Y_b·Υ̂′ᵀ + 1ôᵀ
// plus on the rows of S 2βᵢ·D·fᵢ − Ĉ·αᵢ (their residuals again, as in
// pass A), N_b = G_b·Wᵀ, E_b = N_b∘K_b in place, then E_b·[Z̃ − 1z̄ᵀ | 1]
// and E_bᵀ·1 by linalg.Gemm and the d sums in row order.
//
// Cost: 4md + 6m² + O(m(q + d)) flops and m exponentials a row, O(mq)
// more on a row of S. Memory: the workspace, four blocks of about 2²⁰
// values.
//
// Errors wrap ErrInput: a nil or zero ScaleAdjoint; x or y nil,
// malformed, without rows or not finite (also linalg.ErrNotFinite), x
// not of d columns, y not of x's rows or q columns, loo not of x's rows
// or marking rows that cannot be of S, more rows (or rows of S) in all
// than the statistics (or pass A) summarise; linalg.ErrNotPositiveDefinite
// when the fit interpolates a row of S (as ScaleLOO.Add). After an error
// of the second kind the sums are unusable, and Gradient, Merge and
// MarshalBinary return it.
func (ad *ScaleAdjoint) Add(x, y *linalg.Dense, loo []bool) error {
	const op = "ScaleAdjoint.Add"
	if err := ad.ready(op); err != nil {
		return err
	}
	p := ad.p
	if err := checkScaleRows(op, x, y, len(p.sk.Sigma()), p.q); err != nil {
		return err
	}
	if x.Rows > p.n-ad.rows {
		return inputError(op, "X", "%d rows, but only %d of the %d rows summarised are left to add", x.Rows, p.n-ad.rows, p.n)
	}
	var srows []int
	all := ad.all
	if loo != nil {
		if len(loo) != x.Rows {
			return inputError(op, "loo", "%d marks for %d rows", len(loo), x.Rows)
		}
		for i, in := range loo {
			switch {
			case in && ad.loo == 0:
				return inputError(op, "loo", "row %d marked, but the GCV criterion has no leave-one-out rows", i)
			case !in && ad.all:
				return inputError(op, "loo", "row %d not marked, but the leave-one-out pass ran on every row", i)
			case in && !ad.all:
				srows = append(srows, i)
			}
		}
	}
	if len(srows) > ad.loo-ad.sRows {
		return inputError(op, "loo", "%d rows of S, but only %d of the %d leave-one-out rows are left", len(srows), ad.loo-ad.sRows, ad.loo)
	}
	return ad.add(op, x, y, srows, all)
}

// add runs pass B over the rows x, y (checked), srows the rows of S among
// them in ascending order, or every row when all.
func (ad *ScaleAdjoint) add(op string, x, y *linalg.Dense, srows []int, all bool) error {
	p := ad.p
	for blk, err := range p.sk.Blocks(x, passRows(p.m), &ad.ws.blk) {
		if err != nil {
			return scaledError(op, err)
		}
		i0, i1 := blk.I0, blk.I0+blk.K.Rows
		var in []int // the rows of S in this block, from i0
		for len(srows) > 0 && srows[0] < i1 {
			in = append(in, srows[0]-i0)
			srows = srows[1:]
		}
		if !ad.block(blk, y.Slice(i0, i1, 0, y.Cols), in, all) {
			ad.err = singularScale(op, p.lambda)
			return ad.err
		}
	}
	return nil
}

// block adds the rows of one block to the sums: blk their scaled rows
// and kernel rows (kernels.Scaled.Blocks), yb their outputs, in the rows of S among them (from
// 0, ascending), or every row when all. It reports false, adding nothing,
// when the fit interpolates a row of S.
//
// N_b is formed in the frame and brought to the centres by one product:
// N_b = G_b·Wᵀ with G_b = −2F_b·Q̂′ − Y_b·Υ̂′ᵀ + 1ôᵀ, plus
// 2βᵢ·D·fᵢ − Ĉ·αᵢ on the rows of S. Forming Q = W·Q̂·Wᵀ once instead
// (and N_b = −2Ã_b·Q + …, a third of the flops) rounds Q's entries, of
// the order of ‖W‖²‖Q̂‖ ≈ ‖Q̂‖/λ_min(K_mm), once for every row, and that
// error adds up over the rows instead of averaging out: where K_mm is
// ill-conditioned the gradient lost every digit of its entries near an
// optimum (see docs/notes/ard-gradient.md, "Pass B in the frame", eq. 14).
func (ad *ScaleAdjoint) block(blk *kernels.ScaledBlock, yb *linalg.Dense, in []int, all bool) bool {
	p, ws := ad.p, &ad.ws
	kb := &blk.K
	b, m, q := kb.Rows, p.m, p.q
	f := p.rows(&ws.f, kb)
	// The rows of S first, which may fail.
	var fs *linalg.Dense
	if all || len(in) > 0 {
		ys := yb
		fs = f
		if !all {
			fs, ys = ws.fs.Reuse(len(in), m), ws.ys.Reuse(len(in), q)
			for r, i := range in {
				copy(fs.Row(r), f.Row(i))
				copy(ys.Row(r), yb.Row(i))
			}
		}
		if !p.rowWeights(ws, fs, ys) {
			return false
		}
		ad.sRows += fs.Rows
	}
	// G_b in the frame (eq. 14).
	gf := ws.gf.Reuse(b, m)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, -2, f, ad.qhat, 0, gf)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, -1, yb, ad.upsT, 1, gf)
	eachRow(b, m, func(i int) {
		row := gf.Row(i)
		for k, v := range ad.off {
			row[k] += v
		}
	})
	if fs != nil {
		ab, kappa := &ws.ab, ad.kappa
		eachRow(fs.Rows, m*(q+1), func(r int) {
			i := r
			if !all {
				i = in[r]
			}
			row, fr, wr := gf.Row(i), fs.Row(r), ab.Row(r)
			beta, alpha := 2*kappa*wr[q], wr[:q]
			for k, v := range fr {
				v *= beta * p.dk[k]
				for out, c := range p.zd.Row(k) {
					v -= kappa * alpha[out] * c
				}
				row[k] += v
			}
		})
	}
	// N_b = G_b·Wᵀ, then its contraction with K_b's derivatives in every
	// log σ_j (the first sum of eq. 11, expanded as eq. 12).
	nb := ws.n.Reuse(b, m)
	linalg.Gemm(linalg.NoTrans, linalg.Trans, 1, gf, p.w, 0, nb)
	p.sk.AddGradient(ad.g, ad.t, blk, nb, &ws.grad)
	ad.rows += b
	return true
}

// Merge adds the sums o has collected to ad; o is not modified. Both must
// be of the same path and pass-A sums (checked by the fingerprints of W
// and of the matrices NewAdjoint formed). Errors wrap ErrInput, or are the
// error of a failed Add of either; on error ad is unchanged.
func (ad *ScaleAdjoint) Merge(o *ScaleAdjoint) error {
	const op = "ScaleAdjoint.Merge"
	if err := ad.ready(op); err != nil {
		return err
	}
	if o == nil || o.p == nil {
		return inputError(op, "o", "nil or zero ScaleAdjoint: make it with ScalePath.NewAdjoint")
	}
	if o.err != nil {
		return o.err
	}
	if o.hash != ad.hash || (o.p != ad.p && !slices.Equal(o.p.header(), ad.p.header())) {
		return inputError(op, "o", "the sums of another path or other leave-one-out sums")
	}
	if o.rows > ad.p.n-ad.rows || o.sRows > ad.loo-ad.sRows {
		return inputError(op, "o", "%d rows (%d of S) added, but only %d of the %d rows (%d of S) are left", o.rows, o.sRows, ad.p.n-ad.rows, ad.p.n, ad.loo-ad.sRows)
	}
	ad.rows += o.rows
	ad.sRows += o.sRows
	for j := range ad.g {
		ad.g[j] += o.g[j]
	}
	for k := range ad.t {
		ad.t[k] += o.t[k]
	}
	return nil
}

// Rows returns the number of rows added so far (by Add and Merge).
func (ad *ScaleAdjoint) Rows() int {
	if ad == nil {
		return 0
	}
	return ad.rows
}

// Result returns J at the path's θ and its gradient once every row has
// been added: the value as ScaleLOO.Result gives it (or GCV and DF), and
//
//	∂J/∂log σ_j = g_j + Σ_k t_k·z′_kj² + (the K_mm part),  ∂J/∂log λ = −nλ·tr Q̂,
//
// g and t the sums of the rows (docs/notes/ard-gradient.md, eq. 12 and
// 15). Errors wrap ErrInput: a nil or zero
// ScaleAdjoint, fewer rows added than the statistics summarise, or fewer
// rows of S than pass A had; or the error of a failed Add.
func (ad *ScaleAdjoint) Result() (*ScaleEval, error) {
	const op = "ScaleAdjoint.Result"
	if err := ad.ready(op); err != nil {
		return nil, err
	}
	p := ad.p
	if ad.rows != p.n {
		return nil, inputError(op, "ScaleAdjoint", "%d rows added, the statistics summarise %d: add every row once", ad.rows, p.n)
	}
	if ad.sRows != ad.loo && !ad.all {
		return nil, inputError(op, "ScaleAdjoint", "%d rows of S marked, the leave-one-out pass had %d: mark every row of S once", ad.sRows, ad.loo)
	}
	d := len(p.sk.Sigma())
	ev := *ad.value
	ev.Gradient = make([]float64, d+1)
	copy(ev.Gradient, ad.fixed)
	for j := 0; j < d; j++ {
		ev.Gradient[j] += ad.g[j]
	}
	p.sk.EndGradient(ev.Gradient, ad.t)
	return &ev, nil
}

// ready reports a nil or zero ScaleAdjoint, or one whose Add failed.
func (ad *ScaleAdjoint) ready(op string) error {
	if ad == nil || ad.p == nil {
		return inputError(op, "ScaleAdjoint", "nil or zero value: make it with ScalePath.NewAdjoint")
	}
	return ad.err
}
