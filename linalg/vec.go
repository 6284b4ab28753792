package linalg

// Level-1 kernels on contiguous vectors. Both keep a fixed order of
// operations (four interleaved partial sums for dot), so their results do not
// depend on where they are called from.

// dot returns Σ x[i]·y[i] over i < len(x); y must be at least as long as x.
// Four partial sums hide the latency of the adds; they are combined as
// (s0+s1)+(s2+s3) after the loop.
func dot(x, y []float64) float64 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i] * y[i]
		s1 += x[i+1] * y[i+1]
		s2 += x[i+2] * y[i+2]
		s3 += x[i+3] * y[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * y[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// axpy computes y[i] += α·x[i] for i < len(x); y must be at least as long
// as x.
func axpy(alpha float64, x, y []float64) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += alpha * v
	}
}
