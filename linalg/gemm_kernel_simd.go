//go:build goexperiment.simd && amd64

package linalg

import (
	"simd/archsimd"
	"unsafe"

	"rkhs/internal/simdapi"
)

// SIMD micro-kernels for amd64, written with Go's experimental
// simd/archsimd package (GOEXPERIMENT=simd, Go 1.26 or later; the calls
// Go 1.27 renamed go through internal/simdapi). This file exists only in
// such a build; in builds without the experiment gemm_choose.go picks the
// scalar kernel, which stays the test oracle of these.
//
// Both kernels hold an MR×NR tile of C in vector registers and, for each
// step of k, load NR values of B as one or two vectors, broadcast each of
// the MR values of A and issue MR·NR/width fused multiply-adds. The
// compiler's code for them must be checked in the disassembly (objdump -d
// on the test binary, or Go 1.27's go tool objdump, which decodes EVEX;
// docs/notes/avx512-kernel.md shows the inner loop and the command): larger tiles
// spilled accumulators to the stack, and float64 values live in vector
// registers were spilled or copied with legacy SSE moves, which after
// AVX-512 code ran 35–80× slower while still computing the right numbers.

// avx512Kernel: 4×16, eight Float64x8 accumulators. Go keeps vector values
// that live across a loop in X0–X14 only (the fp register mask of its
// register allocator, in 1.26 and 1.27), so with two vectors of B and the
// broadcasts of A, eight accumulators are all that fit: 5×16, 6×16, 4×24
// and 8×16 spilled with Go 1.26. A 3×24 tile, which needs fewer broadcasts
// per FMA, was 7% faster in GEMM with Go 1.27 and no faster with Go 1.26.
// KC, MC and JB are the best of TestCalibrate's sweep on the Intel Xeon of
// docs/notes/avx512-kernel.md (96 GFLOP/s at n=2048 on 2 cores): the packed block of A,
// MC·KC doubles (1 MiB), and a group of micro-panels of B, KC·JB doubles
// (1 MiB), share its 2 MiB L2 cache; blockingFor scales them to others.
var avx512Kernel = gemmKernel{name: "AVX-512 4×16", mr: 4, nr: 16, kc: 512, mc: 256, jb: 256, micro: microKernelAVX512}

// avx2Kernel: 4×8, eight Float64x4 accumulators (of 16 registers); 28
// GFLOP/s on one core in cache on the Intel Xeon of
// docs/notes/avx512-kernel.md.
// KC, MC and JB give the same L2 footprint as avx512Kernel's with half its
// columns; they were not calibrated on an AVX2-only machine.
var avx2Kernel = gemmKernel{name: "AVX2 4×8", mr: 4, nr: 8, kc: 512, mc: 256, jb: 256, micro: microKernelAVX2}

// chooseKernel picks the widest kernel the CPU supports: AVX-512, else AVX2
// with FMA, else the scalar kernel. The choice depends only on the CPU, so
// on one machine results stay bit-identical for any number of goroutines;
// between an AVX-512 and an AVX2 machine they can differ in the last bits.
func chooseKernel() gemmKernel {
	switch {
	case hasAVX512:
		return avx512Kernel
	case hasAVX2 && hasFMA:
		return avx2Kernel
	}
	return scalarKernel
}

// simdKernels lists the kernels this CPU can run, for the tests.
func simdKernels() []gemmKernel {
	ks := []gemmKernel{scalarKernel}
	if hasAVX2 && hasFMA {
		ks = append(ks, avx2Kernel)
	}
	if hasAVX512 {
		ks = append(ks, avx512Kernel)
	}
	return ks
}

// aligned8 returns the eight vectors of buf that start on a 64-byte
// boundary, and aligned4 likewise on a 32-byte one: the loops below store
// their first accumulator on every pass (the fence), and that store must
// not straddle two 4 KiB pages. Go aligns a stack variable to 8 bytes
// only, so the vector crossed a page boundary for 7 of every 512 positions
// (6 on Zen 4, which stores its two 32-byte halves apart), and where a
// caller's frame put it there every fence was a page-split store: that
// goroutine's products ran at a quarter of their speed (measured in
// docs/notes/avx512-kernel.md, "The fence's address"). A stack moved to
// grow keeps its addresses modulo 2 KiB, so the alignment holds.
func aligned8(buf *[9]archsimd.Float64x8) *[8]archsimd.Float64x8 {
	off := -uintptr(unsafe.Pointer(buf)) & 63
	return (*[8]archsimd.Float64x8)(unsafe.Add(unsafe.Pointer(buf), off))
}

func aligned4(buf *[9]archsimd.Float64x4) *[8]archsimd.Float64x4 {
	off := -uintptr(unsafe.Pointer(buf)) & 31
	return (*[8]archsimd.Float64x4)(unsafe.Add(unsafe.Pointer(buf), off))
}

// microKernelAVX512 computes the 4×16 tile C = β·C + α·A·B (see
// microKernelFunc). The k loop is a function of its own, with no
// floating-point arguments: with α and β live across it the compiler kept
// β in X1, reused that register for B and spilled β with a legacy SSE
// move on every step, which with dirty upper halves ran 50× slower.
// The test of β comes first for the same reason: it compiles to legacy SSE
// too, and here the upper halves are still clean.
func microKernelAVX512(kc int, a, b []float64, alpha, beta float64, c []float64, ldc int) {
	var buf [9]archsimd.Float64x8
	acc := aligned8(&buf)
	if beta == 0 {
		loopAVX512(kc, a, b, acc)
		va := archsimd.BroadcastFloat64x8(alpha)
		for i := range 4 {
			simdapi.Store8(acc[2*i].Mul(va), c[i*ldc:])
			simdapi.Store8(acc[2*i+1].Mul(va), c[i*ldc+8:])
		}
	} else {
		loopAVX512(kc, a, b, acc)
		// C = β·C + α·acc, one fused multiply-add per vector.
		va := archsimd.BroadcastFloat64x8(alpha)
		vb := archsimd.BroadcastFloat64x8(beta)
		for i := range 4 {
			update8(c[i*ldc:], vb, acc[2*i].Mul(va))
			update8(c[i*ldc+8:], vb, acc[2*i+1].Mul(va))
		}
	}
	// The callers' scalar code may be legacy SSE (GOAMD64=v1): leave the
	// upper halves of the vector registers clean to avoid transition
	// penalties.
	archsimd.ClearAVXUpperBits()
}

// loopAVX512 accumulates the 4×16 product of the packed panels a (kc×4)
// and b (kc×16) into acc, row by row (acc[2i], acc[2i+1] hold row i): per
// step of k, two loads of B, four broadcasts of A, eight FMAs.
//
// The loop does four steps per pass, which cuts the register moves the
// compiler adds at the loop's end (every FMA leaves its sum in a new
// register) and the loop's integer bookkeeping: against two steps, GEMM
// n=2048 went from 85–95 to 95–97 GFLOP/s with Go 1.27 and stayed at 93–95
// with Go 1.26. Between the steps it stores c00 to acc: a store is a fence
// for the compiler's scheduler, which cannot move the loads of the next
// step above it. Without it, Go 1.26 and Go 1.27 hoisted the scalar loads
// of A of several steps to the top of the pass, ran out of the fifteen
// registers that hold them and the accumulators, and spilled them with
// legacy SSE moves: 35–70× slower (Go 1.26 avoided this only while A was
// broadcast from a two-element vector load, which Go 1.27 cannot spell).
//
//go:noinline
func loopAVX512(kc int, a, b []float64, acc *[8]archsimd.Float64x8) {
	var c00, c01, c10, c11, c20, c21, c30, c31 archsimd.Float64x8
	a = a[:kc*4]
	b = b[:kc*16]
	for len(a) >= 16 && len(b) >= 64 { // four steps of k per pass
		{
			b0 := simdapi.Load8(b)
			b1 := simdapi.Load8(b[8:])
			a0 := archsimd.BroadcastFloat64x8(a[0])
			c00 = a0.MulAdd(b0, c00)
			c01 = a0.MulAdd(b1, c01)
			a1 := archsimd.BroadcastFloat64x8(a[1])
			c10 = a1.MulAdd(b0, c10)
			c11 = a1.MulAdd(b1, c11)
			a2 := archsimd.BroadcastFloat64x8(a[2])
			c20 = a2.MulAdd(b0, c20)
			c21 = a2.MulAdd(b1, c21)
			a3 := archsimd.BroadcastFloat64x8(a[3])
			c30 = a3.MulAdd(b0, c30)
			c31 = a3.MulAdd(b1, c31)
		}
		acc[0] = c00 // the fence (see above); overwritten at the end
		{
			b0 := simdapi.Load8(b[16:])
			b1 := simdapi.Load8(b[24:])
			a0 := archsimd.BroadcastFloat64x8(a[4])
			c00 = a0.MulAdd(b0, c00)
			c01 = a0.MulAdd(b1, c01)
			a1 := archsimd.BroadcastFloat64x8(a[5])
			c10 = a1.MulAdd(b0, c10)
			c11 = a1.MulAdd(b1, c11)
			a2 := archsimd.BroadcastFloat64x8(a[6])
			c20 = a2.MulAdd(b0, c20)
			c21 = a2.MulAdd(b1, c21)
			a3 := archsimd.BroadcastFloat64x8(a[7])
			c30 = a3.MulAdd(b0, c30)
			c31 = a3.MulAdd(b1, c31)
		}
		acc[0] = c00 // the fence (see above); overwritten at the end
		{
			b0 := simdapi.Load8(b[32:])
			b1 := simdapi.Load8(b[40:])
			a0 := archsimd.BroadcastFloat64x8(a[8])
			c00 = a0.MulAdd(b0, c00)
			c01 = a0.MulAdd(b1, c01)
			a1 := archsimd.BroadcastFloat64x8(a[9])
			c10 = a1.MulAdd(b0, c10)
			c11 = a1.MulAdd(b1, c11)
			a2 := archsimd.BroadcastFloat64x8(a[10])
			c20 = a2.MulAdd(b0, c20)
			c21 = a2.MulAdd(b1, c21)
			a3 := archsimd.BroadcastFloat64x8(a[11])
			c30 = a3.MulAdd(b0, c30)
			c31 = a3.MulAdd(b1, c31)
		}
		acc[0] = c00 // the fence (see above); overwritten at the end
		{
			b0 := simdapi.Load8(b[48:])
			b1 := simdapi.Load8(b[56:])
			a0 := archsimd.BroadcastFloat64x8(a[12])
			c00 = a0.MulAdd(b0, c00)
			c01 = a0.MulAdd(b1, c01)
			a1 := archsimd.BroadcastFloat64x8(a[13])
			c10 = a1.MulAdd(b0, c10)
			c11 = a1.MulAdd(b1, c11)
			a2 := archsimd.BroadcastFloat64x8(a[14])
			c20 = a2.MulAdd(b0, c20)
			c21 = a2.MulAdd(b1, c21)
			a3 := archsimd.BroadcastFloat64x8(a[15])
			c30 = a3.MulAdd(b0, c30)
			c31 = a3.MulAdd(b1, c31)
		}
		a = a[16:]
		b = b[64:]
	}
	for len(a) >= 4 && len(b) >= 16 { // the last one to three steps
		b0 := simdapi.Load8(b)
		b1 := simdapi.Load8(b[8:])
		a0 := archsimd.BroadcastFloat64x8(a[0])
		c00 = a0.MulAdd(b0, c00)
		c01 = a0.MulAdd(b1, c01)
		a1 := archsimd.BroadcastFloat64x8(a[1])
		c10 = a1.MulAdd(b0, c10)
		c11 = a1.MulAdd(b1, c11)
		a2 := archsimd.BroadcastFloat64x8(a[2])
		c20 = a2.MulAdd(b0, c20)
		c21 = a2.MulAdd(b1, c21)
		a3 := archsimd.BroadcastFloat64x8(a[3])
		c30 = a3.MulAdd(b0, c30)
		c31 = a3.MulAdd(b1, c31)
		a = a[4:]
		b = b[16:]
	}
	// One vector store each (a composite literal is copied through the
	// stack with legacy SSE moves).
	acc[0], acc[1], acc[2], acc[3] = c00, c01, c10, c11
	acc[4], acc[5], acc[6], acc[7] = c20, c21, c30, c31
	// The caller reloads α and β with legacy SSE moves.
	archsimd.ClearAVXUpperBits()
}

// update8 stores β·c[0:8] + x into c[0:8].
func update8(c []float64, vb, x archsimd.Float64x8) {
	simdapi.Store8(simdapi.Load8(c).MulAdd(vb, x), c)
}

// microKernelAVX2 computes the 4×8 tile C = β·C + α·A·B with Float64x4
// vectors, built like microKernelAVX512.
func microKernelAVX2(kc int, a, b []float64, alpha, beta float64, c []float64, ldc int) {
	var buf [9]archsimd.Float64x4
	acc := aligned4(&buf)
	if beta == 0 {
		loopAVX2(kc, a, b, acc)
		va := archsimd.BroadcastFloat64x4(alpha)
		for i := range 4 {
			simdapi.Store4(acc[2*i].Mul(va), c[i*ldc:])
			simdapi.Store4(acc[2*i+1].Mul(va), c[i*ldc+4:])
		}
	} else {
		loopAVX2(kc, a, b, acc)
		va := archsimd.BroadcastFloat64x4(alpha)
		vb := archsimd.BroadcastFloat64x4(beta)
		for i := range 4 {
			update4(c[i*ldc:], vb, acc[2*i].Mul(va))
			update4(c[i*ldc+4:], vb, acc[2*i+1].Mul(va))
		}
	}
	archsimd.ClearAVXUpperBits()
}

// loopAVX2 accumulates the 4×8 product of the packed panels a (kc×4) and
// b (kc×8) into acc, row by row: per step of k, two loads of B, four
// broadcasts, eight FMAs, two steps per pass with a fence between them as
// in loopAVX512.
//
//go:noinline
func loopAVX2(kc int, a, b []float64, acc *[8]archsimd.Float64x4) {
	var c00, c01, c10, c11, c20, c21, c30, c31 archsimd.Float64x4
	a = a[:kc*4]
	b = b[:kc*8]
	for len(a) >= 8 && len(b) >= 16 {
		{
			b0 := simdapi.Load4(b)
			b1 := simdapi.Load4(b[4:])
			a0 := archsimd.BroadcastFloat64x4(a[0])
			c00 = a0.MulAdd(b0, c00)
			c01 = a0.MulAdd(b1, c01)
			a1 := archsimd.BroadcastFloat64x4(a[1])
			c10 = a1.MulAdd(b0, c10)
			c11 = a1.MulAdd(b1, c11)
			a2 := archsimd.BroadcastFloat64x4(a[2])
			c20 = a2.MulAdd(b0, c20)
			c21 = a2.MulAdd(b1, c21)
			a3 := archsimd.BroadcastFloat64x4(a[3])
			c30 = a3.MulAdd(b0, c30)
			c31 = a3.MulAdd(b1, c31)
		}
		acc[0] = c00 // the fence (see loopAVX512); overwritten at the end
		{
			b0 := simdapi.Load4(b[8:])
			b1 := simdapi.Load4(b[12:])
			a0 := archsimd.BroadcastFloat64x4(a[4])
			c00 = a0.MulAdd(b0, c00)
			c01 = a0.MulAdd(b1, c01)
			a1 := archsimd.BroadcastFloat64x4(a[5])
			c10 = a1.MulAdd(b0, c10)
			c11 = a1.MulAdd(b1, c11)
			a2 := archsimd.BroadcastFloat64x4(a[6])
			c20 = a2.MulAdd(b0, c20)
			c21 = a2.MulAdd(b1, c21)
			a3 := archsimd.BroadcastFloat64x4(a[7])
			c30 = a3.MulAdd(b0, c30)
			c31 = a3.MulAdd(b1, c31)
		}
		a = a[8:]
		b = b[16:]
	}
	if len(a) >= 4 && len(b) >= 8 { // the last step when kc is odd
		b0 := simdapi.Load4(b)
		b1 := simdapi.Load4(b[4:])
		a0 := archsimd.BroadcastFloat64x4(a[0])
		c00 = a0.MulAdd(b0, c00)
		c01 = a0.MulAdd(b1, c01)
		a1 := archsimd.BroadcastFloat64x4(a[1])
		c10 = a1.MulAdd(b0, c10)
		c11 = a1.MulAdd(b1, c11)
		a2 := archsimd.BroadcastFloat64x4(a[2])
		c20 = a2.MulAdd(b0, c20)
		c21 = a2.MulAdd(b1, c21)
		a3 := archsimd.BroadcastFloat64x4(a[3])
		c30 = a3.MulAdd(b0, c30)
		c31 = a3.MulAdd(b1, c31)
	}
	// One vector store each (a composite literal is copied through the
	// stack with legacy SSE moves).
	acc[0], acc[1], acc[2], acc[3] = c00, c01, c10, c11
	acc[4], acc[5], acc[6], acc[7] = c20, c21, c30, c31
	// The caller reloads α and β with legacy SSE moves.
	archsimd.ClearAVXUpperBits()
}

// update4 stores β·c[0:4] + x into c[0:4].
func update4(c []float64, vb, x archsimd.Float64x4) {
	simdapi.Store4(simdapi.Load4(c).MulAdd(vb, x), c)
}
