//go:build goexperiment.simd && !go1.27

package simdapi

import "simd/archsimd"

// The spellings of Go 1.26 (amd64 only).

// Load8 loads s[0:8].
func Load8(s []float64) archsimd.Float64x8 { return archsimd.LoadFloat64x8Slice(s) }

// Store8 stores v into s[0:8].
func Store8(v archsimd.Float64x8, s []float64) { v.StoreSlice(s) }

// Load8Array loads *p.
func Load8Array(p *[8]float64) archsimd.Float64x8 { return archsimd.LoadFloat64x8(p) }

// Load4 loads s[0:4].
func Load4(s []float64) archsimd.Float64x4 { return archsimd.LoadFloat64x4Slice(s) }

// Store4 stores v into s[0:4].
func Store4(v archsimd.Float64x4, s []float64) { v.StoreSlice(s) }

// Load2 loads s[0:2].
func Load2(s []float64) archsimd.Float64x2 { return archsimd.LoadFloat64x2Slice(s) }

// Store2 stores v into s[0:2].
func Store2(v archsimd.Float64x2, s []float64) { v.StoreSlice(s) }

// RoundEven8 rounds each lane to the nearest integer, ties to even.
func RoundEven8(v archsimd.Float64x8) archsimd.Float64x8 { return v.RoundToEvenScaled(0) }

// AddPairs returns [x0+x1, y0+y1].
func AddPairs(x, y archsimd.Float64x2) archsimd.Float64x2 { return x.AddPairs(y) }
