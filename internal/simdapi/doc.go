// Package simdapi spells, once, the parts of Go's experimental
// simd/archsimd package whose names changed between Go 1.26 and Go 1.27,
// so that every SIMD kernel of rkhs is written once and builds with both.
//
// Go 1.27 renamed the slice loads and stores (LoadFloat64x8Slice became
// LoadFloat64x8 and StoreSlice became Store; the array forms gained an
// Array suffix) and renamed RoundToEvenScaled to RoundScaled and AddPairs
// to ConcatAddPairs. Each function here is one call in either spelling,
// chosen by the go1.27 build tag, and is inlined away. (It also made
// Broadcast1To8 and its kin internal; the kernels broadcast float64 values
// with BroadcastFloat64x8, spelled the same in both.) Go 1.27 also brought archsimd to arm64 (NEON)
// and WebAssembly (SIMD128); their 128-bit loads and stores are here too.
//
// The package exists only in GOEXPERIMENT=simd builds on amd64 (Go 1.26
// and later), arm64 and wasm (Go 1.27 and later); in any other build it is
// empty.
package simdapi
