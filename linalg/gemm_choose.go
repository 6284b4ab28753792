//go:build !(goexperiment.simd && amd64)

package linalg

// chooseKernel returns the micro-kernel of this build: the scalar one. With
// GOEXPERIMENT=simd on amd64, gemm_kernel_simd.go chooses instead.
func chooseKernel() gemmKernel { return scalarKernel }
