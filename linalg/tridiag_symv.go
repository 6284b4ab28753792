//go:build !(goexperiment.simd && amd64)

package linalg

// symvPair is symvPairScalar in this build; see tridiag_symv_simd.go for
// the AVX-512 version of a GOEXPERIMENT=simd build.
func symvPair(r0, r1, v, p []float64, vi0, vi1 float64) (float64, float64) {
	return symvPairScalar(r0, r1, v, p, vi0, vi1)
}

// symvQuad is symvQuadScalar in this build.
func symvQuad(r0, r1, r2, r3, v, src, p []float64, vi *[4]float64) [4]float64 {
	return symvQuadScalar(r0, r1, r2, r3, v, src, p, vi)
}
