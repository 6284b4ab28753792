package kernels

import (
	"math"

	"rkhs/internal/avx"
)

// clearEvery is how many elements a scalar row pass handles between calls
// of avx.ClearUpper (see package rkhs/internal/avx): after an asynchronous
// preemption in a GOEXPERIMENT=simd build, at most this many run slowly.
const clearEvery = 256

// gaussianRowScalar sets row[j] = exp(−max(ni + nz[j] − 2·row[j], 0)·c):
// the Gaussian kernel with c = 1/(2σ²), from inner products of centred
// points and their squared norms. The argument of exp is rounded exactly
// as in gaussianRowRef, formed as t·(−c) and raised to 0 where it is
// positive (t < 0 from rounding) by a compare rather than by max, which
// costs more at GOAMD64=v1 (a NaN t stays NaN either way); exp is expNeg,
// within 0.512 ulp of the exact value where math.Exp is within 1.4 (amd64),
// so entries differ from gaussianRowRef's by at most 2 ulps (exactly 1
// stays exactly 1). It is the row pass of the default build, and of a
// GOEXPERIMENT=simd build on a CPU without AVX-512.
func gaussianRowScalar(row, nz []float64, ni, c float64) {
	nz = nz[:len(row)]
	nc := -c
	for lo := 0; lo < len(row); lo += clearEvery {
		avx.ClearUpper()
		hi := min(lo+clearEvery, len(row))
		chunk, nzc := row[lo:hi], nz[lo:hi]
		nzc = nzc[:len(chunk)]
		for j, g := range chunk {
			x := (ni + nzc[j] - 2*g) * nc
			if x > 0 {
				x = 0
			}
			chunk[j] = x
		}
		expNeg(chunk)
	}
}

// gaussianRowRef is gaussianRowScalar with math.Exp, one element at a time:
// the test oracle of the row passes.
func gaussianRowRef(row, nz []float64, ni, c float64) {
	nz = nz[:len(row)]
	for j := range row {
		row[j] = math.Exp(-max(ni+nz[j]-2*row[j], 0) * c)
	}
}
