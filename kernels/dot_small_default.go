//go:build !(goexperiment.simd && amd64)

package kernels

import "rkhs/linalg"

// transposeForDot returns nil in this build: dotSmallTo is dotSmall. A
// GOEXPERIMENT=simd build on amd64 transposes Z for its AVX-512 tiles
// (dot_small_simd.go).
func transposeForDot(*linalg.Dense) []float64 { return nil }

// dotSmallTo sets dst = X·Zᵀ with dotSmall in this build.
func dotSmallTo(dst, x, z *linalg.Dense, _ []float64) { dotSmall(dst, x, z) }
