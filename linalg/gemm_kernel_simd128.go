//go:build goexperiment.simd && go1.27 && (arm64 || wasm)

package linalg

import (
	"runtime"
	"simd/archsimd"

	"rkhs/internal/simdapi"
)

// vec128Kernel is the 128-bit micro-kernel of a GOEXPERIMENT=simd build on arm64 (NEON)
// and WebAssembly (SIMD128), Go 1.27 or later: Go 1.26's simd/archsimd
// has amd64 only. The scalar kernel stays its test oracle
// (TestSIMDKernels).
//
// vec128Kernel: 4×8, sixteen Float64x2 accumulators. On arm64, which has
// 32 vector registers and a fused multiply-add (FMLA) that accumulates in
// place, the tile, the four vectors of B and the broadcasts of A fit with
// room to spare; every arm64 CPU has NEON, so it is always chosen there.
// No arm64 machine was at hand: it is tested under emulation
// (qemu-aarch64), its speed was not measured, and its block sizes are the
// AVX2 kernel's, which has the same tile in bytes, scaled to the CPU's
// caches by blockingFor.
//
// SIMD128 has no fused multiply-add (archsimd computes MulAdd as a
// multiplication and an addition there), and under wazero 1.12 on the
// machine of BENCHMARKS.md this kernel ran no faster than the scalar one
// (2.8 GFLOP/s each in cache): WebAssembly builds keep the scalar kernel,
// and the tests run this one beside it.
var vec128Kernel = gemmKernel{name: vec128Name(), mr: 4, nr: 8, kc: 512, mc: 256, jb: 256, micro: microKernelVec128}

func vec128Name() string {
	if runtime.GOARCH == "arm64" {
		return "NEON 4×8"
	}
	return "SIMD128 4×8"
}

// chooseKernel returns vec128Kernel on arm64 and the scalar kernel on
// WebAssembly.
func chooseKernel() gemmKernel {
	if runtime.GOARCH == "arm64" {
		return vec128Kernel
	}
	return scalarKernel
}

// simdKernels lists the kernels this build can run, for the tests.
func simdKernels() []gemmKernel { return []gemmKernel{scalarKernel, vec128Kernel} }

// microKernelVec128 computes the 4×8 tile C = β·C + α·A·B (see
// microKernelFunc): per step of k, four loads of B (two values each),
// four broadcasts of A and sixteen FMAs.
func microKernelVec128(kc int, a, b []float64, alpha, beta float64, c []float64, ldc int) {
	var c00, c01, c02, c03, c10, c11, c12, c13 archsimd.Float64x2
	var c20, c21, c22, c23, c30, c31, c32, c33 archsimd.Float64x2
	a = a[:kc*4]
	b = b[:kc*8]
	for len(a) >= 4 && len(b) >= 8 {
		b0 := simdapi.Load2(b)
		b1 := simdapi.Load2(b[2:])
		b2 := simdapi.Load2(b[4:])
		b3 := simdapi.Load2(b[6:])
		a0 := archsimd.BroadcastFloat64x2(a[0])
		c00 = a0.MulAdd(b0, c00)
		c01 = a0.MulAdd(b1, c01)
		c02 = a0.MulAdd(b2, c02)
		c03 = a0.MulAdd(b3, c03)
		a1 := archsimd.BroadcastFloat64x2(a[1])
		c10 = a1.MulAdd(b0, c10)
		c11 = a1.MulAdd(b1, c11)
		c12 = a1.MulAdd(b2, c12)
		c13 = a1.MulAdd(b3, c13)
		a2 := archsimd.BroadcastFloat64x2(a[2])
		c20 = a2.MulAdd(b0, c20)
		c21 = a2.MulAdd(b1, c21)
		c22 = a2.MulAdd(b2, c22)
		c23 = a2.MulAdd(b3, c23)
		a3 := archsimd.BroadcastFloat64x2(a[3])
		c30 = a3.MulAdd(b0, c30)
		c31 = a3.MulAdd(b1, c31)
		c32 = a3.MulAdd(b2, c32)
		c33 = a3.MulAdd(b3, c33)
		a = a[4:]
		b = b[8:]
	}
	va := archsimd.BroadcastFloat64x2(alpha)
	rows := [4][4]archsimd.Float64x2{
		{c00, c01, c02, c03}, {c10, c11, c12, c13}, {c20, c21, c22, c23}, {c30, c31, c32, c33},
	}
	for i := range rows {
		row := c[i*ldc : i*ldc+8]
		for j, acc := range rows[i] {
			x := acc.Mul(va)
			if beta != 0 {
				x = simdapi.Load2(row[2*j:]).MulAdd(archsimd.BroadcastFloat64x2(beta), x)
			}
			simdapi.Store2(x, row[2*j:])
		}
	}
}
