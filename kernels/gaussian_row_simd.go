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
// version; exp8 then agrees with math.Exp to within 2 ulps
// (TestExp8), so entries can differ from the scalar build's in the last
// bits.
func gaussianRow(row, nz []float64, ni, s2 float64) {
	if !hasAVX512 {
		gaussianRowScalar(row, nz, ni, s2)
		return
	}
	n := len(row) / 8 * 8
	gaussianRow8(row[:n], nz[:n], ni, s2)
	gaussianRowScalar(row[n:], nz[n:len(row)], ni, s2)
}

//go:noinline
func gaussianRow8(row, nz []float64, ni, s2 float64) {
	vni := archsimd.BroadcastFloat64x8(ni)
	vs2 := archsimd.BroadcastFloat64x8(s2)
	var zero archsimd.Float64x8
	for len(row) >= 8 && len(nz) >= 8 {
		g := simdapi.Load8(row)
		t := vni.Add(simdapi.Load8(nz)).Sub(g.Add(g))
		e := exp8(zero.Sub(t.Max(zero)).Div(vs2))
		// max(NaN, 0) is NaN in Go; VMAXPD would give 0.
		simdapi.Store8(t.Merge(e, t.IsNaN()), row)
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

// exp8 returns e^x in each lane: x = k·ln2 + r with k an integer and
// |r| ≤ ln2/2 (Cody and Waite's two-part ln2), e^r by its Taylor polynomial
// of degree 13 in Horner's form, then VSCALEFPD multiplies by 2^k, which
// also gives the correct overflow to +Inf and gradual underflow to 0.
func exp8(x archsimd.Float64x8) archsimd.Float64x8 {
	x = x.Max(simdapi.Load8Array(&expMinArg)).Min(simdapi.Load8Array(&expMaxArg))
	k := simdapi.RoundEven8(x.Mul(simdapi.Load8Array(&expLog2e)))
	r := k.MulAdd(simdapi.Load8Array(&expNegLn2[0]), x)
	r = k.MulAdd(simdapi.Load8Array(&expNegLn2[1]), r)
	p := simdapi.Load8Array(&expTaylor[0])
	for i := 1; i < len(expTaylor); i++ {
		p = p.MulAdd(r, simdapi.Load8Array(&expTaylor[i]))
	}
	return p.Scale(k)
}
