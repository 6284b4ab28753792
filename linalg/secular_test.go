package linalg

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"testing"

	"rkhs/internal/testmat"
)

// secularRef returns the j-th smallest root λ of 1/ρ + Σ z_i²/(d_i − λ) = 0
// and the differences d_i − λ, found by bisection in 256-bit arithmetic
// (where neither cancellation nor the closeness of a root to a pole
// matters) and rounded to float64.
func secularRef(j int, d, z []float64, rho float64) (float64, []float64) {
	const prec = 256
	k := len(d)
	nf := func(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }
	f := func(lam *big.Float) int { // the sign of f(λ)
		s := new(big.Float).SetPrec(prec).Quo(nf(1), nf(rho))
		t := new(big.Float).SetPrec(prec)
		zz := new(big.Float).SetPrec(prec)
		for i := range k {
			t.Sub(nf(d[i]), lam)
			zz.Mul(nf(z[i]), nf(z[i]))
			t.Quo(zz, t)
			s.Add(s, t)
		}
		return s.Sign()
	}
	lo := nf(d[j])
	var hi *big.Float
	if j < k-1 {
		hi = nf(d[j+1])
	} else {
		var zz float64
		for _, v := range z {
			zz += v * v
		}
		hi = new(big.Float).SetPrec(prec).Add(nf(d[k-1]), nf(2*rho*zz))
	}
	mid := new(big.Float).SetPrec(prec)
	for range 240 {
		mid.Add(lo, hi)
		mid.Quo(mid, nf(2))
		if f(mid) > 0 {
			hi.Set(mid)
		} else {
			lo.Set(mid)
		}
	}
	delta := make([]float64, k)
	t := new(big.Float).SetPrec(prec)
	for i := range k {
		delta[i], _ = t.Sub(nf(d[i]), mid).Float64()
	}
	lam, _ := mid.Float64()
	return lam, delta
}

// TestSecularRoot compares secularRoot with the 256-bit bisection: every
// root to a few ulps of the largest |d_i|, and, what the eigenvectors depend
// on, every difference d_i − λ_j to a few ulps of itself — also for roots
// within 1e-20 of a pole.
func TestSecularRoot(t *testing.T) {
	rnd := testmat.NewRand(30)
	randZ := func(k int) []float64 {
		z := make([]float64, k)
		for i := range z {
			z[i] = rnd.NormFloat64() / math.Sqrt(float64(k))
		}
		return z
	}
	sortedD := func(k int) []float64 {
		d := make([]float64, k)
		for i := range d {
			d[i] = 2*rnd.Float64() - 1
		}
		slices.Sort(d)
		return d
	}
	type secCase struct {
		name string
		d, z []float64
		rho  float64
	}
	var cases []secCase
	cases = append(cases, secCase{"k=1", []float64{0.5}, []float64{0.75}, 2})
	cases = append(cases, secCase{"k=2", []float64{-1, 1}, []float64{0.5, -0.25}, 1})
	cases = append(cases, secCase{"random", sortedD(20), randZ(20), 1})
	cases = append(cases, secCase{"large rho", sortedD(20), randZ(20), 1e6})
	cases = append(cases, secCase{"tiny rho", sortedD(20), randZ(20), 1e-12})
	// Tiny z components pin roots to within about ρ·z_i² ≈ 1e-20 of
	// their poles.
	z := randZ(16)
	z[3], z[4], z[15] = 1e-10, -3e-9, 1e-9
	cases = append(cases, secCase{"tiny z", sortedD(16), z, 1})
	// A cluster of poles 1e-9 apart among spread ones.
	d := sortedD(16)
	for i := 5; i < 11; i++ {
		d[i] = 0.25 + float64(i)*1e-9
	}
	cases = append(cases, secCase{"cluster", d, randZ(16), 0.5})

	for _, tc := range cases {
		k := len(tc.d)
		dmax := math.Max(math.Abs(tc.d[0]), math.Abs(tc.d[k-1]))
		var worst float64
		delta := make([]float64, k)
		for j := range k {
			lam, err := secularRoot(j, tc.d, tc.z, tc.rho, delta)
			if err != nil {
				t.Fatalf("%s: root %d: %v", tc.name, j, err)
			}
			wantLam, wantDelta := secularRef(j, tc.d, tc.z, tc.rho)
			if e := math.Abs(lam - wantLam); e > 4*testmat.Eps*math.Max(dmax, math.Abs(wantLam)) {
				t.Errorf("%s: λ_%d = %v, want %v", tc.name, j, lam, wantLam)
			}
			// The condition of the root: a relative change ε in every
			// term of f moves it by ε·(1/ρ + Σ|z_i²/δ_i|)/f'(λ).
			sum, deriv := 1/tc.rho, 0.0
			for i, v := range wantDelta {
				sum += math.Abs(tc.z[i] * tc.z[i] / v)
				deriv += tc.z[i] * tc.z[i] / (v * v)
			}
			cond := sum / deriv
			for i := range k {
				r := math.Abs(delta[i]-wantDelta[i]) / (testmat.Eps * (math.Abs(wantDelta[i]) + cond))
				worst = math.Max(worst, r)
				if r > 8 {
					t.Errorf("%s: root %d: d_%d − λ = %v, want %v (error %.3g·ε·(|d_i − λ| + %.3g))", tc.name, j, i, delta[i], wantDelta[i], r, cond)
				}
			}
		}
		t.Logf("%s: worst error of d_i − λ_j: %.3g·ε·(|d_i − λ_j| + condition)", tc.name, worst)
	}
}

// TestSecularRootIterations guards the speed of the secular solver on the
// merges of stedc that are hardest for it: glued Wilkinson matrices (tiny ρ,
// clusters of nearly equal poles with weights of very different sizes),
// the tridiagonal form of a dense matrix, and repeated diagonal values with
// tiny couplings. The iterations are cubically convergent and bisection
// steps in on stalls, so no root needs more than about ten; with the limit
// at 12 every merge must still succeed. (A plain middle-way iteration needs
// up to ~70 on these, and without the bisection on stalls some roots need
// more than 12.)
func TestSecularRootIterations(t *testing.T) {
	defer func(m int) { secularMaxIter = m }(secularMaxIter)
	secularMaxIter = 12
	rnd := testmat.NewRand(33)
	type input struct {
		name string
		d, e []float64
	}
	var ins []input
	for _, glue := range []float64{1e-6, 1e-10, 1e-14} {
		d, e := testmat.GluedWilkinson(21, 15, glue)
		for i := range e {
			if e[i] != 1 {
				e[i] *= 1 + rnd.Float64()
			}
		}
		ins = append(ins, input{fmt.Sprintf("glued W21+/glue %g", glue), d, e})
	}
	d, e := denseTridiagonal(rnd, 300)
	ins = append(ins, input{"dense", d, e})
	d, e = testmat.RandomTridiagonal(rnd, 300)
	for i := range e {
		e[i] *= math.Pow(10, -16*rnd.Float64())
	}
	ins = append(ins, input{"graded couplings", d, e})
	d = make([]float64, 200)
	e = make([]float64, 199)
	for i := range d {
		d[i] = float64(i % 3)
	}
	for i := range e {
		e[i] = 1e-9 * rnd.Float64()
	}
	ins = append(ins, input{"repeated", d, e})
	for _, in := range ins {
		n := len(in.d)
		if err := stedc(slices.Clone(in.d), slices.Clone(in.e), *NewDense(n, n, nil)); err != nil {
			t.Errorf("%s: %v", in.name, err)
		}
	}
}
