//go:build goexperiment.simd && amd64

package kernels

import (
	"simd/archsimd"

	"rkhs/internal/avx"
	"rkhs/internal/simdapi"
)

// The Gaussian row pass with AVX-512 (GOEXPERIMENT=simd on amd64): eight
// entries at a time, with exp computed in vector registers. Besides being
// faster than math.Exp, it keeps the pass out of legacy SSE code, which an
// asynchronous preemption can slow down 150 times (see rkhs/internal/avx).
// CPUs without AVX-512 use gaussianRowScalar.

var hasAVX512 = archsimd.X86.AVX512()

// gaussianRow is gaussianRowScalar, eight entries at a time with AVX-512.
// The distance and the argument of exp are rounded exactly as in the scalar
// version; exp8 then agrees with math.Exp to within 2 ulps (TestExp8), so
// entries can differ from the scalar build's in the last bits.
func gaussianRow(row, nz []float64, ni, s2 float64) {
	if !hasAVX512 {
		gaussianRowScalar(row, nz, ni, s2)
		return
	}
	n := len(row) / 8 * 8
	gaussianArgs8(row[:n], nz[:n], ni, s2)
	exp8(row[:n])
	gaussianRowScalar(row[n:], nz[n:len(row)], ni, s2)
}

// gaussianArgs8 sets row[j] = −max(ni + nz[j] − 2·row[j], 0)/s2, eight
// entries at a time, for len(row) a multiple of 8 (NaN stays NaN).
//
// It divides without VDIVPD, whose throughput (16 cycles for eight
// quotients) weighed on the pass: with y = 1/s2 rounded once per row,
// q = t·y and the exact residual ρ = t − q·s2 (a fused multiply-add),
// q + ρ·y rounded is the correctly rounded t/s2 (Markstein, "IA-64 and
// elementary functions", 2000), the quotient the scalar pass computes;
// 2·10⁷ random pairs in a check of this identity gave no exception. t is
// first capped at 746·s2, so that the quotient cannot overflow (exp8 gives
// 0 from −746 on).
//
//go:noinline
func gaussianArgs8(row, nz []float64, ni, s2 float64) {
	vni := archsimd.BroadcastFloat64x8(ni)
	vs2 := archsimd.BroadcastFloat64x8(s2)
	vinv := archsimd.BroadcastFloat64x8(1 / s2)
	vcap := archsimd.BroadcastFloat64x8(746 * s2)
	var zero archsimd.Float64x8
	for len(row) >= 8 && len(nz) >= 8 {
		g := simdapi.Load8(row)
		t := vni.Add(simdapi.Load8(nz)).Sub(g.Add(g))
		tc := t.Max(zero).Min(vcap)
		q := tc.Mul(vinv)
		q = zero.Sub(q).MulAdd(vs2, tc).MulAdd(vinv, q)
		// max(NaN, 0) is NaN in Go; VMAXPD would give 0.
		simdapi.Store8(t.Merge(zero.Sub(q), t.IsNaN()), row)
		row, nz = row[8:], nz[8:]
	}
	avx.ClearUpper()
}

// Constants of exp8, each repeated in the eight lanes so that it is a
// memory operand of the instruction that uses it rather than a register
// (there are not enough registers for all of them).
var (
	expMinArg = splat(-746) // exp(−746) rounds to 0
	expMaxArg = splat(710)  // exp(710) rounds to +Inf
	expLog2e  = splat(1.44269504088896338700e+00)
	expNegLn2 = [2][8]float64{
		splat(-6.93147180369123816490e-01), // −ln 2, high part: k·it is exact
		splat(-1.90821492927058770002e-10), // −ln 2, low part
	}
	// 1/k! for k = 13 … 0: the Taylor polynomial of exp, whose remainder
	// on |r| ≤ ln2/2 is below 5e-18 relative.
	expTaylor = func() (c [14][8]float64) {
		for i := range c {
			f := 1.0 // (13 − i)!
			for k := 2; k <= 13-i; k++ {
				f *= float64(k)
			}
			c[i] = splat(1 / f)
		}
		return c
	}()
)

func splat(v float64) (a [8]float64) {
	for i := range a {
		a[i] = v
	}
	return a
}

// exp8 sets x[i] = e^x[i], eight lanes at a time, for len(x) a multiple
// of 8: x = k·ln2 + r with k an integer and |r| ≤ ln2/2 (Cody and Waite's
// two-part ln2), e^r by its Taylor polynomial of degree 13 in Estrin's
// form (pairs of terms, then pairs of pairs with r², r⁴ and r⁸: a chain of
// five multiply-adds instead of Horner's thirteen), then VSCALEFPD
// multiplies by 2^k, which also gives the correct overflow to +Inf and
// gradual underflow to 0. NaN stays NaN. The whole computation is in the
// loop, not in a function per vector: a call made the compiler spill and
// reload the loop's vectors around it.
//
//go:noinline
func exp8(x []float64) {
	// c(n) is 1/n!, the coefficient of rⁿ (expTaylor runs from 1/13! down).
	c := func(n int) archsimd.Float64x8 { return simdapi.Load8Array(&expTaylor[13-n]) }
	for len(x) >= 8 {
		v := simdapi.Load8(x)
		a := v.Max(simdapi.Load8Array(&expMinArg)).Min(simdapi.Load8Array(&expMaxArg))
		k := simdapi.RoundEven8(a.Mul(simdapi.Load8Array(&expLog2e)))
		r := k.MulAdd(simdapi.Load8Array(&expNegLn2[0]), a)
		r = k.MulAdd(simdapi.Load8Array(&expNegLn2[1]), r)
		r2 := r.Mul(r)
		r4 := r2.Mul(r2)
		r8 := r4.Mul(r4)
		q0 := c(1).MulAdd(r, c(0))
		q1 := c(3).MulAdd(r, c(2))
		q2 := c(5).MulAdd(r, c(4))
		q3 := c(7).MulAdd(r, c(6))
		q4 := c(9).MulAdd(r, c(8))
		q5 := c(11).MulAdd(r, c(10))
		q6 := c(13).MulAdd(r, c(12))
		u0 := q1.MulAdd(r2, q0)
		u1 := q3.MulAdd(r2, q2)
		u2 := q5.MulAdd(r2, q4)
		v0 := u1.MulAdd(r4, u0)
		v1 := q6.MulAdd(r4, u2)
		e := v1.MulAdd(r8, v0).Scale(k)
		simdapi.Store8(v.Merge(e, v.IsNaN()), x)
		x = x[8:]
	}
	avx.ClearUpper()
}
