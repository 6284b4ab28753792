//go:build goexperiment.simd && amd64

package linalg

import "simd/archsimd"

// The CPU features that the SIMD kernels of a GOEXPERIMENT=simd build on
// amd64 need, read once at start-up. Each flag is named "has" and the
// archsimd.X86 method that reports it, as in rkhs/internal/avx (hasAVX);
// every kernel that needs a feature tests the flag here, never archsimd.X86
// directly. Builds without the experiment have no SIMD kernels and no flags.
var (
	hasAVX512 = archsimd.X86.AVX512() // the 8-wide kernels: GEMM, symv, bidiagonal passes
	hasAVX2   = archsimd.X86.AVX2()   // with hasFMA, the 4-wide GEMM kernel
	hasFMA    = archsimd.X86.FMA()
)
