//go:build goexperiment.simd && amd64

package kernels

import (
	"math"
	"simd/archsimd"

	"rkhs/internal/avx"
	"rkhs/internal/simdapi"
)

// The Gaussian row pass with AVX-512 (GOEXPERIMENT=simd on amd64): eight
// entries at a time, argument and exp in one sweep of vector registers.
// Besides being faster than math.Exp, it keeps the pass out of legacy SSE
// code, which an asynchronous preemption can slow down 150 times (see
// rkhs/internal/avx). CPUs without AVX-512 (hasAVX512, cpu_simd.go) use
// gaussianRowScalar.

// gaussianRow is gaussianRowScalar, eight entries at a time with AVX-512
// (gaussianRow8), the last len(row) mod 8 with gaussianRowScalar. The
// distance and the argument of exp are rounded exactly as in the scalar
// version, and the exp is the same method with a smaller table (see
// gaussianRow8), within 0.53 ulp of e^x, so entries agree with the scalar
// build's to within an ulp and with math.Exp's to within 2.
func gaussianRow(row, nz []float64, ni, c float64) {
	if !hasAVX512 {
		gaussianRowScalar(row, nz, ni, c)
		return
	}
	n := len(row) / 8 * 8
	gaussianRow8(row[:n], nz[:n], ni, c)
	gaussianRowScalar(row[n:], nz[n:len(row)], ni, c)
}

// exp8Bits is the number of bits of the table of gaussianRow8: 2^(j/16)
// for j < 16, two vectors, permuted into place by VPERMI2PD.
const (
	exp8Bits = 4
	exp8N    = 1 << exp8Bits
)

// Constants of gaussianRow8, each repeated in the eight lanes so that it
// is a memory operand of the instruction that uses it rather than a
// register (there are not enough registers for all of them). The table
// and its tails are every 32nd entry of expTable (2^(32j/512) =
// 2^(j/16)), so TestExpTable checks them too.
var (
	exp8Shift   = splat(expShift)
	exp8InvLn2N = splat(exp8N / math.Ln2)
	// −ln2/16 in two parts; the high one has 32 significant bits, so that
	// k times it is exact for |k| < 2²¹ (q ≤ 746 gives |k| ≤ 17,220).
	exp8Ln2HiN = splat(-0x1.62e42feep-1 / exp8N)
	exp8Ln2LoN = splat(-0x1.a39ef35793c76p-33 / exp8N)
	exp8Unit   = splat(1.0 / exp8N)
	// 1/n! for n = 2 … 7: the Taylor polynomial of e^ρ − 1 of degree 7,
	// whose remainder on |ρ| ≤ ln2/32 is below 1.3e-18 relative.
	exp8C = [6][8]float64{splat(1.0 / 2), splat(1.0 / 6), splat(1.0 / 24),
		splat(1.0 / 120), splat(1.0 / 720), splat(1.0 / 5040)}
	exp8Table, exp8Tail = func() (t, tail [2][8]float64) {
		for j := range exp8N {
			e := expTable[j*(expN/exp8N)]
			t[j/8][j%8], tail[j/8][j%8] = math.Float64frombits(e.hi), e.tail
		}
		return t, tail
	}()
)

func splat(v float64) (a [8]float64) {
	for i := range a {
		a[i] = v
	}
	return a
}

// gaussianRow8 sets row[j] = exp(−max(ni + nz[j] − 2·row[j], 0)·c), eight
// entries at a time, for len(row) a multiple of 8 (NaN stays NaN): the
// argument as gaussianRowScalar rounds it, then e^x by the table method
// of expNeg (exp.go) with N = 16.
//
// Argument. x = −min(max(t, 0), 746/c)·c, one multiplication as in the
// scalar pass: the cap keeps the product finite and x in [−746, 0]; where
// it applies, x is within an ulp of −746 and e^x is 0, as the scalar
// pass's e^(−t·c) is.
//
// Exp. k = round(x·16/ln2) comes from adding 1.5·2⁵² in the same fused
// multiply-add, which leaves k in the low bits (the table index) and k as
// a float64 after subtracting it again; r = x − k·ln2/16 (two-part ln2,
// |r| ≤ ln2/32), ρ = r + t_j with T_j = 2^(j/16) and its relative error t_j
// from the table (j = k mod 16, the low four bits, picked from two
// registers by VPERMI2PD), e^ρ − 1 by its Taylor polynomial of degree 7 in
// Estrin's form, and the result T_j + T_j·p, one rounding, multiplied by
// 2^⌊k/16⌋ by VSCALEFPD, which also gives gradual underflow to 0. As for
// expNeg, the error is 0.5 ulp for the final rounding plus what the
// rounding errors of p add, more than in expNeg since |ρ| is eight times
// larger: at most 0.53 ulp where the result is normal (TestGaussianRow8
// measures 0.526 against a 200-bit reference), and a second rounding where
// it is subnormal.
//
//go:noinline
func gaussianRow8(row, nz []float64, ni, c float64) {
	// The per-row constants, kept in memory like the others.
	vni, vnc, vcap := splat(ni), splat(-c), splat(746/c)
	ld := simdapi.Load8Array
	taylor := func(n int) archsimd.Float64x8 { return ld(&exp8C[n-2]) }
	var zero archsimd.Float64x8
	for len(row) >= 8 && len(nz) >= 8 {
		g := simdapi.Load8(row)
		t := ld(&vni).Add(simdapi.Load8(nz)).Sub(g.Add(g))
		x := t.Max(zero).Min(ld(&vcap)).Mul(ld(&vnc))
		shift := ld(&exp8Shift)
		kd := x.MulAdd(ld(&exp8InvLn2N), shift)
		idx := kd.AsUint64x8()
		k := kd.Sub(shift)
		r := k.MulAdd(ld(&exp8Ln2HiN), x)
		r = k.MulAdd(ld(&exp8Ln2LoN), r)
		r = r.Add(ld(&exp8Tail[0]).ConcatPermute(ld(&exp8Tail[1]), idx))
		tj := ld(&exp8Table[0]).ConcatPermute(ld(&exp8Table[1]), idx)
		r2 := r.Mul(r)
		a := taylor(3).MulAdd(r, taylor(2))
		b := taylor(5).MulAdd(r, taylor(4))
		h := taylor(7).MulAdd(r, taylor(6))
		h = h.MulAdd(r2, b)
		h = h.MulAdd(r2, a)
		p := h.MulAdd(r2, r)
		e := tj.MulAdd(p, tj).Scale(k.Mul(ld(&exp8Unit)))
		// max(NaN, 0) is NaN in Go; VMAXPD would give 0.
		simdapi.Store8(t.Merge(e, t.IsNaN()), row)
		row, nz = row[8:], nz[8:]
	}
	avx.ClearUpper()
}
