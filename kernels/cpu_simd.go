//go:build goexperiment.simd && amd64

package kernels

import "simd/archsimd"

// The CPU features that choose, in a GOEXPERIMENT=simd build on amd64,
// between the vector kernels of this package and their scalar twins, read
// once when the program starts. Other builds have only the scalar kernels
// and no flags.

// hasAVX512 reports AVX-512 (F, CD, BW, DQ and VL, as archsimd.X86.AVX512
// defines it, which implies AVX2 and FMA). It guards every 8-lane kernel:
// the tiles of dotSmallTo (dot_small_simd.go), rowDot and axpy4
// (block_products_simd.go) and the Gaussian row pass
// (gaussian_row_simd.go).
var hasAVX512 = archsimd.X86.AVX512()
