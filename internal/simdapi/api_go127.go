//go:build goexperiment.simd && go1.27 && (amd64 || arm64 || wasm)

package simdapi

import "simd/archsimd"

// The 128-bit spellings of Go 1.27, the same on amd64, arm64 and wasm.

// Load2 loads s[0:2].
func Load2(s []float64) archsimd.Float64x2 { return archsimd.LoadFloat64x2(s) }

// Store2 stores v into s[0:2].
func Store2(v archsimd.Float64x2, s []float64) { v.Store(s) }
