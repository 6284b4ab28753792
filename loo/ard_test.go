package loo

// The checks of the dense reference of ard_reference_test.go: its
// leave-one-out residuals against refits and against loo.Nystrom and
// NystromPath, its adjoint against finite differences, its two passes and
// the frame of NystromPath against the dense matrices.

import (
	"math"
	"math/rand/v2"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// ardData returns n rows of d = 3 standard normal features and q outputs:
// the first depends on feature 0 quickly and on feature 1 slowly, the
// second on their product; feature 2 is noise only. With classes, the
// outputs are the signs (±1 codes).
func ardData(n, q int, classes bool) (x, y *linalg.Dense) {
	rnd := rand.New(rand.NewPCG(1, 2))
	x, y = linalg.NewDense(n, 3, nil), linalg.NewDense(n, q, nil)
	for i := range x.Data {
		x.Data[i] = rnd.NormFloat64()
	}
	for i := 0; i < n; i++ {
		x0, x1 := x.At(i, 0), x.At(i, 1)
		v := []float64{math.Sin(2*x0) + 0.5*x1, math.Cos(x0 * x1)}
		for out := 0; out < q; out++ {
			yv := v[out] + 0.1*rnd.NormFloat64()
			if classes {
				yv = math.Copysign(1, yv)
			}
			y.Set(i, out, yv)
		}
	}
	return x, y
}

// ardThirds is the subset of rows i ≡ 1 (mod 3), some of them centres.
func ardThirds(n int) []int {
	var s []int
	for i := 1; i < n; i += 3 {
		s = append(s, i)
	}
	return s
}

// ardTheta is the θ of the tests: σ = (0.8, 1.5, 3) and λ = 10⁻³.
var ardTheta = []float64{math.Log(0.8), math.Log(1.5), math.Log(3), math.Log(1e-3)}

// relDiff returns max_j |a_j − b_j| / max_j |b_j|.
func relDiff(a, b []float64) float64 {
	var num, den float64
	for j := range a {
		num = max(num, math.Abs(a[j]-b[j]))
		den = max(den, math.Abs(b[j]))
	}
	return num / den
}

// ardStep is the step in θ (log space: a relative step in σ_j and λ) of
// the finite differences, and ardFD the five-point central difference
// (f(−2h) − 8f(−h) + 8f(h) − f(2h))/(12h), whose truncation error is
// O(h⁴·f⁽⁵⁾) and rounding error about 1.5·ε_J/h, ε_J the absolute
// rounding error of J. Here ε_J is a few 10⁻¹² of J (M = ÃᵀÃ + nλK_mm
// has condition numbers up to 2·10⁵), so the three-point difference,
// O(h²) against ε_J/h, gets no closer than about 10⁻⁷ relative, at
// h ≈ 10⁻⁴; the five-point one at h = 2·10⁻³ gets 10⁻¹⁰ to 10⁻⁸
// (6·10⁻⁸ in the worst entry), far inside the tolerance of 10⁻⁶.
const ardStep = 2e-3

// ardFD returns the five-point central difference of f at 0 with step h.
func ardFD(f func(s float64) float64, h float64) float64 {
	return (f(-2*h) - 8*f(-h) + 8*f(h) - f(2*h)) / (12 * h)
}

// TestArdResiduals: the closed-form leave-one-out residuals of the
// reference equal n refits to 1e-9, and its J_LOO and GCV equal those of
// loo.Nystrom and of regress.NystromStats with NystromPath on the scaled
// features (the Gaussian kernel of width 1 on X/σ is k_θ) to 1e-9, in
// every intercept mode, over all rows and over a subset.
func TestArdResiduals(t *testing.T) {
	const n, m = 90, 15
	x, y := ardData(n, 2, false)
	c := x.Slice(0, m, 0, x.Cols).Clone()
	d := x.Cols
	lambda := math.Exp(ardTheta[d])
	for _, ic := range intercepts {
		for _, subset := range [][]int{nil, ardThirds(n)} {
			p := ardProblem{x: x, y: y, c: c, ic: ic, obj: ardObjective{subset: subset}}
			f, knm, kmm, xs, cs := p.fit(t, ardTheta)
			rows := p.obj.rows(n)
			name := func() string {
				if subset == nil {
					return ic.String() + ", all rows"
				}
				return ic.String() + ", a third of the rows"
			}()
			got := f.loo()
			rb := maxRel(got, ardBrute(t, knm, kmm, y, ic, lambda, 0))
			if r := rb; r > 1e-9 {
				t.Errorf("%s: closed-form residuals and refits differ by %.3g relative", name, r)
			}
			j := p.obj.value(f)

			// loo.Nystrom with the scaled centres given.
			cfg := regress.Nystrom{Kernel: kernels.Gaussian{Sigma: 1}, Given: cs, Intercept: ic}
			path, err := Nystrom(cfg, xs, y, []float64{lambda})
			if err != nil {
				t.Fatal(err)
			}
			if r := maxRel(path.Residuals[0], got); r > 1e-9 {
				t.Errorf("%s: loo.Nystrom's residuals differ from the reference's by %.3g relative", name, r)
			}
			var sse float64
			for _, i := range rows {
				for _, v := range path.Residuals[0].Row(i) {
					sse += v * v
				}
			}
			want := sse / float64(len(rows)*y.Cols)
			if subset == nil && math.Abs(path.MSE[0]-want) > 1e-12*want {
				t.Errorf("%s: loo.Nystrom's MSE %.15g, its residuals give %.15g", name, path.MSE[0], want)
			}
			if r := math.Abs(j-want) / want; r > 1e-9 {
				t.Errorf("%s: J_LOO %.15g, loo.Nystrom %.15g (rel %.2g)", name, j, want, r)
			}

			// NystromStats of every row, NystromPath over the rows of S.
			s, err := regress.NewNystromStats(kernels.Gaussian{Sigma: 1}, cs)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Add(xs, y); err != nil {
				t.Fatal(err)
			}
			np, err := NewNystromPath(s, ic, []float64{lambda})
			if err != nil {
				t.Fatal(err)
			}
			if np.jitter != 0 {
				t.Fatalf("%s: the statistics factored K_mm with the jitter %g; the reference assumes none", name, np.jitter)
			}
			xr, yr := linalg.NewDense(len(rows), d, nil), linalg.NewDense(len(rows), y.Cols, nil)
			for k, i := range rows {
				copy(xr.Row(k), xs.Row(i))
				copy(yr.Row(k), y.Row(i))
			}
			if err := np.Add(xr, yr); err != nil {
				t.Fatal(err)
			}
			mse, err := np.MSE()
			if err != nil {
				t.Fatal(err)
			}
			if r := math.Abs(j-mse[0]) / mse[0]; r > 1e-9 {
				t.Errorf("%s: J_LOO %.15g, NystromPath %.15g (rel %.2g)", name, j, mse[0], r)
			}
			gcv := ardObjective{gcv: true}.value(f)
			rg := math.Abs(gcv-np.GCV[0]) / np.GCV[0]
			if rg > 1e-9 {
				t.Errorf("%s: GCV %.15g, NystromPath %.15g (rel %.2g)", name, gcv, np.GCV[0], rg)
			}
			t.Logf("%s: J_LOO %.6g; relative differences: refits %.2g, loo.Nystrom %.2g, NystromPath %.2g, GCV %.2g",
				name, j, rb, math.Abs(j-want)/want, math.Abs(j-mse[0])/mse[0], rg)
		}
	}
}

// TestArdContraction: the per-feature sums Σ_ik E_ik·(x_ij − z_kj)² by
// (x∘x)ᵀ(E·1) − 2·diag(XᵀEZ) + (1ᵀE)(z∘z) equal the triple sum, for E of
// both signs and features away from 0.
func TestArdContraction(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	fill := func(r, c int, shift float64) *linalg.Dense {
		a := linalg.NewDense(r, c, nil)
		for i := range a.Data {
			a.Data[i] = rnd.NormFloat64() + shift
		}
		return a
	}
	for _, tc := range []struct {
		n, m, d int
		shift   float64
	}{{1, 1, 1, 0}, {37, 11, 4, 0}, {64, 23, 7, 1.5}} {
		e, x, z := fill(tc.n, tc.m, 0), fill(tc.n, tc.d, tc.shift), fill(tc.m, tc.d, tc.shift)
		got, want := ardContract(e, x, z), ardContractDirect(e, x, z)
		if r := relDiff(got, want); r > 1e-12 {
			t.Errorf("n=%d m=%d d=%d: contraction %v, triple sum %v (rel %.2g)", tc.n, tc.m, tc.d, got, want, r)
		}
	}
}

// TestArdAdjoint: N and P are the adjoint of the objective in K_nm and
// K_mm themselves, whatever the kernel: along random directions dK_nm and
// dK_mm (symmetric), ⟨N, dK_nm⟩ + ⟨P, dK_mm⟩ equals the finite difference
// of J to 1e-7; and the N, P and ∂J/∂log λ of the two passes equal the
// dense ones to 1e-9.
func TestArdAdjoint(t *testing.T) {
	const n, m = 80, 12
	x, y := ardData(n, 2, false)
	c := x.Slice(0, m, 0, x.Cols).Clone()
	knm, kmm, _, _ := ardKernels(t, x, c, ardTheta[:3])
	lambda := math.Exp(ardTheta[3])
	rnd := rand.New(rand.NewPCG(1, 2))
	dn, dm := linalg.NewDense(n, m, nil), linalg.NewDense(m, m, nil)
	for i := range dn.Data {
		dn.Data[i] = 0.025 * rnd.NormFloat64()
	}
	for i := 0; i < m; i++ {
		for j := 0; j <= i; j++ {
			v := 0.025 * rnd.NormFloat64()
			dm.Set(i, j, v)
			dm.Set(j, i, v)
		}
	}
	for _, ic := range intercepts {
		for _, obj := range []ardObjective{{}, {subset: ardThirds(n)}, {gcv: true}} {
			f := newArdModel(t, knm, kmm, y, ic, lambda, 0)
			alpha, beta := obj.weights(f)
			nd, pd, ld := f.adjointDense(alpha, beta)
			np, pp, lp, _ := f.adjointPasses(alpha, beta, obj.rows(n))
			if r := maxRel(np, nd); r > 1e-9 {
				t.Errorf("%v, %s: N of the passes and dense N differ by %.3g", ic, obj, r)
			}
			if r := maxRel(pp, pd); r > 1e-9 {
				t.Errorf("%v, %s: P of the passes and dense P differ by %.3g", ic, obj, r)
			}
			if r := math.Abs(lp-ld) / math.Abs(ld); r > 1e-9 {
				t.Errorf("%v, %s: ∂J/∂log λ of the passes %.12g, dense %.12g", ic, obj, lp, ld)
			}
			var got float64
			for i, v := range nd.Data {
				got += v * dn.Data[i]
			}
			for i, v := range pd.Data {
				got += v * dm.Data[i]
			}
			want := ardFD(func(s float64) float64 {
				a, k := knm.Clone(), kmm.Clone()
				for i := range a.Data {
					a.Data[i] += s * dn.Data[i]
				}
				for i := range k.Data {
					k.Data[i] += s * dm.Data[i]
				}
				return obj.value(newArdModel(t, a, k, y, ic, lambda, 0))
			}, ardStep)
			r := math.Abs(got-want) / math.Abs(want)
			t.Logf("%v, %s: directional derivative %.12g, relative error %.2g", ic, obj, got, r)
			if r > 1e-7 {
				t.Errorf("%v, %s: ⟨N, dK_nm⟩ + ⟨P, dK_mm⟩ = %.12g, finite difference %.12g (rel %.2g)", ic, obj, got, want, r)
			}
		}
	}
}

// TestArdGradient: the gradient in θ = (log σ₁, log σ₂, log σ₃, log λ) by
// the adjoint (dense, and by the two passes) equals the five-point
// central difference with step ardStep to 1e-6 relative to its largest
// entry, for J_LOO over all rows and over a subset, GCV, one and two
// outputs, every intercept mode, a fixed jitter δ, and ±1 codes of
// classes.
func TestArdGradient(t *testing.T) {
	const n, m = 80, 12
	x1, y1 := ardData(n, 1, false)
	x2, y2 := ardData(n, 2, false)
	xc, yc := ardData(n, 1, true)
	c1 := x1.Slice(0, m, 0, 3).Clone()
	c2 := x2.Slice(0, m, 0, 3).Clone()
	cc := xc.Slice(0, m, 0, 3).Clone()
	thirds := ardThirds(n)
	for _, tc := range []struct {
		name string
		p    ardProblem
	}{
		{"free, q=1, all rows", ardProblem{x: x1, y: y1, c: c1, ic: regress.FreeIntercept}},
		{"free, q=2, a subset", ardProblem{x: x2, y: y2, c: c2, ic: regress.FreeIntercept, obj: ardObjective{subset: thirds}}},
		{"none, q=1, all rows", ardProblem{x: x1, y: y1, c: c1, ic: regress.NoIntercept}},
		{"none, q=2, a subset", ardProblem{x: x2, y: y2, c: c2, ic: regress.NoIntercept, obj: ardObjective{subset: thirds}}},
		{"penalized, q=1, all rows", ardProblem{x: x1, y: y1, c: c1, ic: regress.PenalizedIntercept}},
		{"penalized, q=2, a subset", ardProblem{x: x2, y: y2, c: c2, ic: regress.PenalizedIntercept, obj: ardObjective{subset: thirds}}},
		{"free, q=2, GCV", ardProblem{x: x2, y: y2, c: c2, ic: regress.FreeIntercept, obj: ardObjective{gcv: true}}},
		{"none, q=1, GCV", ardProblem{x: x1, y: y1, c: c1, ic: regress.NoIntercept, obj: ardObjective{gcv: true}}},
		{"penalized, q=2, GCV", ardProblem{x: x2, y: y2, c: c2, ic: regress.PenalizedIntercept, obj: ardObjective{gcv: true}}},
		{"free, q=2, jitter 1e-4, a subset", ardProblem{x: x2, y: y2, c: c2, ic: regress.FreeIntercept, jitter: 1e-4, obj: ardObjective{subset: thirds}}},
		{"free, ±1 codes, all rows", ardProblem{x: xc, y: yc, c: cc, ic: regress.FreeIntercept}},
	} {
		dense, passes := tc.p.gradient(t, ardTheta)
		fd := make([]float64, len(ardTheta))
		for j := range fd {
			fd[j] = ardFD(func(s float64) float64 {
				th := append([]float64(nil), ardTheta...)
				th[j] += s
				return tc.p.value(t, th)
			}, ardStep)
		}
		var worst float64 // the largest error of one entry relative to that entry
		for j := range fd {
			worst = max(worst, math.Abs(dense[j]-fd[j])/math.Abs(fd[j]))
		}
		r := relDiff(dense, fd)
		t.Logf("%s: ∇J %.6g, relative error %.2g (worst entry %.2g)", tc.name, dense, r, worst)
		if r > 1e-6 {
			t.Errorf("%s: adjoint gradient %v, finite differences %v (rel %.2g)", tc.name, dense, fd, r)
		}
		if r := relDiff(passes, dense); r > 1e-9 {
			t.Errorf("%s: gradient by the passes %v, dense %v (rel %.2g)", tc.name, passes, dense, r)
		}
	}
}

// TestArdGCVSums: for GCV the sums of pass A follow from the fit, so that
// GCV's gradient needs no pass A: with κ = 2n/(qτ²) and b = 2n·RSS/(qτ³),
// Φ = κ·Ãᵀe = κ·nλ·K_mm·C (the normal equations), Ω = b·ÃᵀÃ, and for a
// free intercept s_β = b·Ãᵀ1 = 0 and s_α = κ·Σᵢeᵢ = 0.
func TestArdGCVSums(t *testing.T) {
	const n, m = 80, 12
	x, y := ardData(n, 2, false)
	c := x.Slice(0, m, 0, x.Cols).Clone()
	for _, ic := range intercepts {
		p := ardProblem{x: x, y: y, c: c, ic: ic, jitter: 1e-6, obj: ardObjective{gcv: true}}
		f, _, _, _, _ := p.fit(t, ardTheta)
		alpha, beta := p.obj.weights(f)
		_, _, _, sums := f.adjointPasses(alpha, beta, p.obj.rows(n))
		nl := float64(n) * f.lambda
		var tr float64
		for _, h := range f.h {
			tr += h
		}
		tau := float64(n) - tr
		kappa := 2 * float64(n) / (float64(f.q) * tau * tau)
		u := ardMul(linalg.NoTrans, linalg.NoTrans, f.kmm, f.coef)
		for i := range u.Data {
			u.Data[i] *= kappa * nl
		}
		// The normal equations hold to the rounding of their terms, not of
		// their result (which cancels): the difference is measured against
		// κ·(|Ã|ᵀ|Ỹ| + |Ã|ᵀ|Ã||C| + nλ|K_mm||C|), a backward-error scale.
		aa, ca := ardAbs(f.a), ardAbs(f.coef)
		terms := ardMul(linalg.Trans, linalg.NoTrans, aa, ardAbs(f.yc))
		ac := ardMul(linalg.Trans, linalg.NoTrans, aa, ardMul(linalg.NoTrans, linalg.NoTrans, aa, ca))
		kc := ardMul(linalg.NoTrans, linalg.NoTrans, ardAbs(f.kmm), ca)
		var diff, size float64
		for i := range u.Data {
			diff = max(diff, math.Abs(sums.phi.Data[i]-u.Data[i]))
			size = max(size, kappa*(terms.Data[i]+ac.Data[i]+nl*kc.Data[i]))
		}
		if r := diff / size; r > 1e-12 {
			t.Errorf("%v: Φ of the pass and κ·nλ·K_mm·C differ by %.3g of their terms' size", ic, r)
		}
		omega := ardMul(linalg.Trans, linalg.NoTrans, f.a, f.a)
		for i := range omega.Data {
			omega.Data[i] *= beta[0]
		}
		if r := maxRel(sums.omega, omega); r > 1e-12 {
			t.Errorf("%v: Ω of the pass and b·ÃᵀÃ differ by %.3g", ic, r)
		}
		if ic != regress.FreeIntercept {
			continue
		}
		var sb, sa, scale float64
		for _, v := range sums.sb {
			sb = max(sb, math.Abs(v))
		}
		for _, v := range sums.sa {
			sa = max(sa, math.Abs(v))
		}
		for _, v := range alpha.Data {
			scale = max(scale, math.Abs(v))
		}
		if sb > 1e-12*beta[0]*float64(n) || sa > 1e-12*scale*float64(n) {
			t.Errorf("free: s_β %.3g and s_α %.3g, want 0", sb, sa)
		}
	}
}

// TestArdFrame: the quantities of the adjoint in the frame of
// NystromPath, the one a streamed version works in: with W the path's
// L⁻ᵀV (m×m, with the penalized intercept's change of variables), the
// rows fᵢ = Wᵀk(xᵢ, C) − c of its passes, D = diag(1/(μ + nλ)) and
// Ĉ = Z∘D, the identities WᵀK_mmW = I, M⁻¹ = W·D·Wᵀ, C = W·Ĉ and
// Hᵢᵢ = fᵢᵀDfᵢ (+ 1/n) hold, and from the sums of pass A in that frame,
// Ω̂ = Σ βᵢfᵢfᵢᵀ and Φ̂ = Σ fᵢαᵢᵀ,
//
//	Q̂ = DΩ̂D − (DΦ̂Ĉᵀ + ĈΦ̂ᵀD)/2,  P = −nλ·W·Q̂·Wᵀ,  ∂J/∂log λ = −nλ·tr Q̂,
//
// equal the dense reference to 1e-9; so does GCV's ∂/∂log λ from the
// statistics alone.
func TestArdFrame(t *testing.T) {
	const n, m = 80, 12
	x, y := ardData(n, 2, false)
	c := x.Slice(0, m, 0, x.Cols).Clone()
	for _, ic := range intercepts {
		for _, obj := range []ardObjective{{}, {subset: ardThirds(n)}, {gcv: true}} {
			p := ardProblem{x: x, y: y, c: c, ic: ic, obj: obj}
			f, knm, _, xs, cs := p.fit(t, ardTheta)
			alpha, beta := obj.weights(f)
			rows := obj.rows(n)
			_, pd, ld, _ := f.adjointPasses(alpha, beta, rows)

			s, err := regress.NewNystromStats(kernels.Gaussian{Sigma: 1}, cs)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Add(xs, y); err != nil {
				t.Fatal(err)
			}
			np, err := NewNystromPath(s, ic, []float64{f.lambda})
			if err != nil {
				t.Fatal(err)
			}
			w := np.w
			dk := make([]float64, m)
			for k := range dk {
				dk[k] = np.d.At(k, 0)
			}
			chat := np.zd // m×q: one λ, column out
			var worst float64
			check := func(what string, got, want *linalg.Dense) {
				t.Helper()
				r := maxRel(got, want)
				worst = max(worst, r)
				if r > 1e-9 {
					t.Errorf("%v, %s: %s differ by %.3g", ic, obj, what, r)
				}
			}
			id := linalg.NewDense(m, m, nil)
			for k := 0; k < m; k++ {
				id.Set(k, k, 1)
			}
			check("WᵀK_mmW and I", ardMul(linalg.Trans, linalg.NoTrans, w, ardMul(linalg.NoTrans, linalg.NoTrans, f.kmm, w)), id)
			wd := w.Clone()
			for i := 0; i < m; i++ {
				for k, v := range dk {
					wd.Set(i, k, wd.At(i, k)*v)
				}
			}
			check("W·D·Wᵀ and M⁻¹", ardMul(linalg.NoTrans, linalg.Trans, wd, w), f.minv)
			check("W·Ĉ and C", ardMul(linalg.NoTrans, linalg.NoTrans, w, chat), f.coef)

			// The rows of the passes, fᵢ = Wᵀkᵢ − c, and the hat diagonal.
			fr := ardMul(linalg.NoTrans, linalg.NoTrans, knm, w)
			h := linalg.NewDense(n, 1, nil)
			for i := 0; i < n; i++ {
				row := fr.Row(i)
				for k := range row {
					row[k] -= np.c[k]
					h.Data[i] += row[k] * row[k] * dk[k]
				}
				if ic == regress.FreeIntercept {
					h.Data[i] += 1 / float64(n)
				}
			}
			check("fᵢᵀDfᵢ and Hᵢᵢ", h, linalg.NewDense(n, 1, f.h))

			// Pass A in the frame, then Q̂.
			omega, phi := linalg.NewDense(m, m, nil), linalg.NewDense(m, f.q, nil)
			for _, i := range rows {
				fi := fr.Row(i)
				for k, v := range fi {
					for l, v2 := range fi {
						omega.Set(k, l, omega.At(k, l)+beta[i]*v*v2)
					}
					for out, a := range alpha.Row(i) {
						phi.Set(k, out, phi.At(k, out)+v*a)
					}
				}
			}
			uc := ardMul(linalg.NoTrans, linalg.Trans, phi, chat) // Φ̂Ĉᵀ
			qh := linalg.NewDense(m, m, nil)
			var tr float64
			for k := 0; k < m; k++ {
				for l := 0; l < m; l++ {
					qh.Set(k, l, dk[k]*omega.At(k, l)*dk[l]-(dk[k]*uc.At(k, l)+uc.At(l, k)*dk[l])/2)
				}
				tr += qh.At(k, k)
			}
			nl := float64(n) * f.lambda
			pf := ardMul(linalg.NoTrans, linalg.Trans, ardMul(linalg.NoTrans, linalg.NoTrans, w, qh), w)
			for i := range pf.Data {
				pf.Data[i] *= -nl
			}
			check("−nλ·W·Q̂·Wᵀ and P", pf, pd)
			if r := math.Abs(-nl*tr-ld) / math.Abs(ld); r > 1e-9 {
				t.Errorf("%v, %s: −nλ·tr Q̂ = %.12g, ∂J/∂log λ = %.12g (rel %.2g)", ic, obj, -nl*tr, ld, r)
			}
			if obj.gcv {
				// From the statistics alone: Ω̂ = b·diag(μ) and Φ̂ = κ·nλ·Ĉ,
				// so ∂GCV/∂log λ = −nλ·(b·Σ_k μ_k·d_k² − κ·nλ·Σ_k d_k·‖Ĉ_k‖²).
				var rss, s1, s2 float64
				for _, v := range f.e.Data {
					rss += v * v
				}
				tau, qf := float64(n)-np.DF[0], float64(f.q)
				kappa, b := 2*float64(n)/(qf*tau*tau), 2*float64(n)*rss/(qf*tau*tau*tau)
				for k, mu := range np.mu {
					s1 += mu * dk[k] * dk[k]
					for _, v := range chat.Row(k) {
						s2 += dk[k] * v * v
					}
				}
				got := -nl * (b*s1 - kappa*nl*s2)
				r := math.Abs(got-ld) / math.Abs(ld)
				worst = max(worst, r)
				if r > 1e-9 {
					t.Errorf("%v: ∂GCV/∂log λ from the statistics %.12g, dense %.12g (rel %.2g)", ic, got, ld, r)
				}
			}
			t.Logf("%v, %s: the frame and the dense reference differ by %.2g at most", ic, obj, max(worst, math.Abs(-nl*tr-ld)/math.Abs(ld)))
		}
	}
}
