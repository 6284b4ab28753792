package regress

import (
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
)

// goldenStats returns statistics of the kernel k and m centres in d
// dimensions with every encoded value drawn from a fixed seed (uniform
// draws are exact on every architecture, where computed statistics depend
// on fused multiply-adds and the CPU's exponential): with q > 0 outputs,
// the sums of n rows; with q = 0, none.
func goldenStats(t *testing.T, seed uint64, k kernels.Kernel, m, d, q, n int) *NystromStats {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 2))
	draw := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = r.Float64()
		}
		return v
	}
	c := linalg.NewDense(m, d, nil)
	for i := range c.Data {
		c.Data[i] = 4 * r.Float64() // far apart: K_mm factors without jitter
	}
	s, err := NewNystromStats(k, c)
	if err != nil {
		t.Fatal(err)
	}
	if q == 0 {
		return s
	}
	s.n, s.q = n, q
	copy(s.mu, draw(m))
	s.ybar, s.syy = draw(q), draw(q)
	for i := 0; i < m; i++ {
		copy(s.mm.Row(i)[:i+1], draw(i+1))
	}
	s.cy = linalg.NewDense(m, q, draw(m*q))
	return s
}

// TestNystromStatsEncodingMatchesItsFirstRelease: the encoding of
// statistics is byte for byte that of its first release (SHA-256), and
// decodes into the zero value to the same bytes.
func TestNystromStatsEncodingMatchesItsFirstRelease(t *testing.T) {
	for _, c := range []struct {
		name string
		s    *NystromStats
		want string
	}{
		{"Gaussian, q=2", goldenStats(t, 1, kernels.Gaussian{Sigma: 0.7}, 5, 3, 2, 40),
			"9c432dbdf5395bc4b6992baa5b6887a357f0721f15df0c0149c2c4586b14f567"},
		{"Laplacian, q=1", goldenStats(t, 2, kernels.Laplacian{Sigma: 2}, 3, 2, 1, 7),
			"c6b9fc42ca78cd609ee88a8af6b92ef1317ce9e0950995eaf8d44c779546d7b8"},
		{"Gaussian, no rows", goldenStats(t, 3, kernels.Gaussian{Sigma: 1}, 4, 2, 0, 0),
			"89f8b93b2de74350dd7ac96b6162abb1657854951c1e04741b0584ec5493e454"},
	} {
		b, err := c.s.MarshalBinary()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		h := sha256.Sum256(b)
		if got := hex.EncodeToString(h[:]); got != c.want {
			t.Errorf("%s: the encoding (%d bytes) hashes to %s, want %s", c.name, len(b), got, c.want)
		}
		var into NystromStats
		if err := into.UnmarshalBinary(b); err != nil {
			t.Fatalf("%s: decoding: %v", c.name, err)
		}
		again, err := into.MarshalBinary()
		if err != nil || string(again) != string(b) {
			t.Errorf("%s: decoded and encoded again: %d bytes (%v), want the %d bytes decoded", c.name, len(again), err, len(b))
		}
	}
}
