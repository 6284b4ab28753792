//go:build goexperiment.simd && amd64

package linalg

import "simd/archsimd"

// SIMD micro-kernels, written with Go's experimental simd/archsimd package
// (GOEXPERIMENT=simd, Go 1.26, amd64 only). This file exists only in such a
// build; in every other build gemm_choose.go picks the scalar kernel, which
// stays the test oracle of these.
//
// Both kernels hold an MR×NR tile of C in vector registers and, for each
// step of k, load NR values of B as one or two vectors, broadcast each of
// the MR values of A and issue MR·NR/width fused multiply-adds. The
// compiler's code for them must be checked in the disassembly (go tool
// objdump, or objdump -d on the test binary; BENCHMARKS.md shows the inner
// loop): with larger tiles (5×16, 6×16) or the k loop unrolled twice it
// spilled accumulators to the stack with legacy SSE moves and ran up to 80×
// slower while still computing the right numbers.

// avx512Kernel: 4×16, eight Float64x8 accumulators (of 32 registers), 49
// GFLOP/s on one core in cache where 5×16 and 6×16 spilled (36, 37) and 8×8
// reached 38 (BenchmarkMicroKernel; shapes compared while writing it).
// KC = 256 keeps a micro-panel of B, 256·16 doubles (32 KiB), in the 48 KiB
// L1 cache.
var avx512Kernel = gemmKernel{name: "AVX-512 4×16", mr: 4, nr: 16, kc: 256, mc: 96, micro: microKernelAVX512}

// avx2Kernel: 4×8, eight Float64x4 accumulators (of 16 registers); 31
// GFLOP/s on one core in cache.
var avx2Kernel = gemmKernel{name: "AVX2 4×8", mr: 4, nr: 8, kc: 256, mc: 96, micro: microKernelAVX2}

// chooseKernel picks the widest kernel the CPU supports: AVX-512, else AVX2
// with FMA, else the scalar kernel. The choice depends only on the CPU, so
// on one machine results stay bit-identical for any number of goroutines;
// between an AVX-512 and an AVX2 machine they can differ in the last bits.
func chooseKernel() gemmKernel {
	switch {
	case archsimd.X86.AVX512():
		return avx512Kernel
	case archsimd.X86.AVX2() && archsimd.X86.FMA():
		return avx2Kernel
	}
	return scalarKernel
}

// microKernelAVX512 computes the 4×16 tile C = β·C + α·A·B (see
// microKernelFunc): per step of k, two loads of B, four broadcasts of A,
// eight FMAs.
func microKernelAVX512(kc int, a, b []float64, alpha, beta float64, c []float64, ldc int) {
	var c00, c01, c10, c11, c20, c21, c30, c31 archsimd.Float64x8
	a = a[:kc*4]
	b = b[:kc*16]
	// Invariant: len(a) = 4·(steps left), len(b) = 16·(steps left).
	for len(a) >= 4 && len(b) >= 16 {
		b0 := archsimd.LoadFloat64x8Slice(b)
		b1 := archsimd.LoadFloat64x8Slice(b[8:])
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
	va := archsimd.BroadcastFloat64x8(alpha)
	if beta == 0 {
		c00.Mul(va).StoreSlice(c)
		c01.Mul(va).StoreSlice(c[8:])
		c10.Mul(va).StoreSlice(c[ldc:])
		c11.Mul(va).StoreSlice(c[ldc+8:])
		c20.Mul(va).StoreSlice(c[2*ldc:])
		c21.Mul(va).StoreSlice(c[2*ldc+8:])
		c30.Mul(va).StoreSlice(c[3*ldc:])
		c31.Mul(va).StoreSlice(c[3*ldc+8:])
	} else {
		// C = β·C + α·acc, one fused multiply-add per vector.
		vb := archsimd.BroadcastFloat64x8(beta)
		update8(c, vb, c00.Mul(va))
		update8(c[8:], vb, c01.Mul(va))
		update8(c[ldc:], vb, c10.Mul(va))
		update8(c[ldc+8:], vb, c11.Mul(va))
		update8(c[2*ldc:], vb, c20.Mul(va))
		update8(c[2*ldc+8:], vb, c21.Mul(va))
		update8(c[3*ldc:], vb, c30.Mul(va))
		update8(c[3*ldc+8:], vb, c31.Mul(va))
	}
	// The callers' scalar code may be legacy SSE (GOAMD64=v1): leave the
	// upper halves of the vector registers clean to avoid transition
	// penalties.
	archsimd.ClearAVXUpperBits()
}

// update8 stores β·c[0:8] + x into c[0:8].
func update8(c []float64, vb, x archsimd.Float64x8) {
	archsimd.LoadFloat64x8Slice(c).MulAdd(vb, x).StoreSlice(c)
}

// microKernelAVX2 computes the 4×8 tile C = β·C + α·A·B with Float64x4
// vectors: per step of k, two loads of B, four broadcasts, eight FMAs.
func microKernelAVX2(kc int, a, b []float64, alpha, beta float64, c []float64, ldc int) {
	var c00, c01, c10, c11, c20, c21, c30, c31 archsimd.Float64x4
	a = a[:kc*4]
	b = b[:kc*8]
	for len(a) >= 4 && len(b) >= 8 {
		b0 := archsimd.LoadFloat64x4Slice(b)
		b1 := archsimd.LoadFloat64x4Slice(b[4:])
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
		a = a[4:]
		b = b[8:]
	}
	va := archsimd.BroadcastFloat64x4(alpha)
	if beta == 0 {
		c00.Mul(va).StoreSlice(c)
		c01.Mul(va).StoreSlice(c[4:])
		c10.Mul(va).StoreSlice(c[ldc:])
		c11.Mul(va).StoreSlice(c[ldc+4:])
		c20.Mul(va).StoreSlice(c[2*ldc:])
		c21.Mul(va).StoreSlice(c[2*ldc+4:])
		c30.Mul(va).StoreSlice(c[3*ldc:])
		c31.Mul(va).StoreSlice(c[3*ldc+4:])
	} else {
		vb := archsimd.BroadcastFloat64x4(beta)
		update4(c, vb, c00.Mul(va))
		update4(c[4:], vb, c01.Mul(va))
		update4(c[ldc:], vb, c10.Mul(va))
		update4(c[ldc+4:], vb, c11.Mul(va))
		update4(c[2*ldc:], vb, c20.Mul(va))
		update4(c[2*ldc+4:], vb, c21.Mul(va))
		update4(c[3*ldc:], vb, c30.Mul(va))
		update4(c[3*ldc+4:], vb, c31.Mul(va))
	}
	archsimd.ClearAVXUpperBits()
}

// update4 stores β·c[0:4] + x into c[0:4].
func update4(c []float64, vb, x archsimd.Float64x4) {
	archsimd.LoadFloat64x4Slice(c).MulAdd(vb, x).StoreSlice(c)
}
