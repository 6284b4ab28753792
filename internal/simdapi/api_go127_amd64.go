//go:build goexperiment.simd && go1.27

package simdapi

import "simd/archsimd"

// The spellings of Go 1.27 for amd64's 256- and 512-bit vectors.

// Load8 loads s[0:8].
func Load8(s []float64) archsimd.Float64x8 { return archsimd.LoadFloat64x8(s) }

// Store8 stores v into s[0:8].
func Store8(v archsimd.Float64x8, s []float64) { v.Store(s) }

// Load8Array loads *p.
func Load8Array(p *[8]float64) archsimd.Float64x8 { return archsimd.LoadFloat64x8Array(p) }

// Load4 loads s[0:4].
func Load4(s []float64) archsimd.Float64x4 { return archsimd.LoadFloat64x4(s) }

// Store4 stores v into s[0:4].
func Store4(v archsimd.Float64x4, s []float64) { v.Store(s) }

// RoundEven8 rounds each lane to the nearest integer, ties to even.
func RoundEven8(v archsimd.Float64x8) archsimd.Float64x8 { return v.RoundScaled(0) }

// AddPairs returns [x0+x1, y0+y1].
func AddPairs(x, y archsimd.Float64x2) archsimd.Float64x2 { return x.ConcatAddPairs(y) }
