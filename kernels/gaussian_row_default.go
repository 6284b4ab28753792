//go:build !(goexperiment.simd && amd64)

package kernels

// gaussianRow is gaussianRowScalar in this build; a GOEXPERIMENT=simd build
// on amd64 uses AVX-512 when the CPU has it (gaussian_row_simd.go).
func gaussianRow(row, nz []float64, ni, c float64) { gaussianRowScalar(row, nz, ni, c) }
