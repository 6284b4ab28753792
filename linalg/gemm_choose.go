//go:build !(goexperiment.simd && (amd64 || (go1.27 && (arm64 || wasm))))

package linalg

// chooseKernel returns the micro-kernel of this build: the scalar one. With
// GOEXPERIMENT=simd, gemm_kernel_simd.go chooses instead on amd64 and
// gemm_kernel_simd128.go on arm64 and WebAssembly (Go 1.27 and later).
func chooseKernel() gemmKernel { return scalarKernel }
