package kernels

import (
	"math"

	"rkhs/internal/avx"
)

// clearEvery is how many elements a scalar row pass handles between calls
// of avx.ClearUpper (see package rkhs/internal/avx): after an asynchronous
// preemption in a GOEXPERIMENT=simd build, at most this many run slowly.
const clearEvery = 256

// gaussianRowScalar sets row[j] = exp(−max(ni + nz[j] − 2·row[j], 0) / s2)
// with math.Exp: the Gaussian kernel with s2 = 2σ², from inner products of
// centred points and their squared norms. It is the oracle of the vector
// version in a GOEXPERIMENT=simd build and the only version elsewhere.
func gaussianRowScalar(row, nz []float64, ni, s2 float64) {
	nz = nz[:len(row)]
	for lo := 0; lo < len(row); lo += clearEvery {
		avx.ClearUpper()
		hi := min(lo+clearEvery, len(row))
		for j := lo; j < hi; j++ {
			row[j] = math.Exp(-max(ni+nz[j]-2*row[j], 0) / s2)
		}
	}
}
