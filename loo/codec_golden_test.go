package loo

import (
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// The binary encodings of the mergeable sums are a wire format: workers
// of one release must read what workers of another wrote. The tests
// below encode sums whose every encoded value is drawn from a fixed seed
// (uniform draws are exact on every architecture, where computed sums
// depend on fused multiply-adds and the CPU's exponential) and compare the
// SHA-256 of the bytes with the hash of the encoding as first released;
// decoding the bytes into sums made the same way and encoding again gives
// the same bytes.

// goldenFloats returns n uniform draws in [0, 1).
func goldenFloats(r *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = r.Float64()
	}
	return v
}

// goldenPath returns a NystromPath with the fields its encodings read
// drawn from r: n rows summarised, q outputs, m centres, L = nl values of
// λ; with sums, half the rows added and their sums.
func goldenPath(seed uint64, n, q, m, nl int, ic regress.Intercept, sums bool) *NystromPath {
	r := rand.New(rand.NewPCG(seed, 2))
	p := &NystromPath{Lambdas: goldenFloats(r, nl)}
	p.n, p.q, p.m, p.ic = n, q, m, ic
	p.w = linalg.NewDense(m, m, goldenFloats(r, m*m))
	p.sse, p.rss, p.sse2, p.wrong = make([]float64, nl), make([]float64, nl), make([]float64, nl), make([]int, nl)
	if sums {
		p.seen = n / 2
		p.sse, p.rss, p.sse2 = goldenFloats(r, nl), goldenFloats(r, nl), goldenFloats(r, nl)
		for j := range p.wrong {
			p.wrong[j] = r.IntN(p.seen + 1)
		}
	}
	return p
}

// goldenScalePath returns a ScalePath at the θ drawn from r (d + 1
// values) on the path goldenPath(seed, …) of q outputs and m centres.
func goldenScalePath(seed uint64, d, q, m int, obj ScaleObjective) *ScalePath {
	r := rand.New(rand.NewPCG(seed, 3))
	ones := make([]float64, d)
	for j := range ones {
		ones[j] = 1
	}
	sk, err := kernels.NewScaled(kernels.Gaussian{Sigma: 1}, linalg.NewDense(1, d, nil), ones)
	if err != nil {
		panic(err)
	}
	return &ScalePath{obj: obj, theta: goldenFloats(r, d+1), sk: sk,
		frame: goldenPath(seed, 40, q, m, 1, obj.Intercept, false).frame}
}

// goldenLOO returns pass-A sums of the path p with their values drawn
// from r.
func goldenLOO(p *ScalePath, seed uint64, sums bool) *ScaleLOO {
	r := rand.New(rand.NewPCG(seed, 4))
	m, q := p.m, p.q
	a := &ScaleLOO{p: p, omega: linalg.NewDense(m, m, nil), phi: linalg.NewDense(m, q+1, nil), salpha: make([]float64, q)}
	if sums {
		a.rows = p.n / 2
		a.wrong = r.IntN(a.rows + 1)
		a.sse, a.sse2, a.rss = r.Float64(), r.Float64(), r.Float64()
		copy(a.salpha, goldenFloats(r, q))
		copy(a.phi.Data, goldenFloats(r, m*(q+1)))
		for k := 0; k < m; k++ {
			copy(a.omega.Row(k)[:k+1], goldenFloats(r, k+1))
		}
	}
	return a
}

// goldenAdjoint returns pass-B sums of the path p, |S| = loo, with the
// hash of their matrices and their values drawn from r.
func goldenAdjoint(p *ScalePath, seed uint64, loo int, sums bool) *ScaleAdjoint {
	r := rand.New(rand.NewPCG(seed, 5))
	d, m := len(p.sk.Sigma()), p.m
	ad := &ScaleAdjoint{p: p, loo: loo, hash: r.Uint64(), g: make([]float64, d), t: make([]float64, m)}
	if sums {
		ad.rows, ad.sRows = p.n/2, loo/2
		copy(ad.g, goldenFloats(r, d))
		copy(ad.t, goldenFloats(r, m))
	}
	return ad
}

// goldenStats returns pass-0 statistics of no rows at θ = (0, …, 0,
// log λ), where the centres divided by σ are the centres bit for bit and
// K_mm factors without jitter, so that the encoding is the same on every
// architecture.
func goldenStats(t *testing.T, seed uint64, d, m int, obj ScaleObjective) *ScaleStats {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 6))
	obj.Centers = linalg.NewDense(m, d, nil)
	for i := range obj.Centers.Data {
		obj.Centers.Data[i] = 4 * r.Float64() // far apart: K_mm is well conditioned
	}
	theta := make([]float64, d+1)
	theta[d] = -r.Float64()
	s, err := obj.NewStats(theta)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sums is what the golden tests encode and decode.
type sums interface {
	MarshalBinary() ([]byte, error)
	UnmarshalBinary([]byte) error
}

// TestEncodingsMatchTheirFirstRelease: the encodings of NystromPath,
// ScaleStats, ScaleLOO and ScaleAdjoint are byte for byte those of their
// first release (SHA-256), and decode into sums made the same way to the
// same bytes.
func TestEncodingsMatchTheirFirstRelease(t *testing.T) {
	free := ScaleObjective{Intercept: regress.FreeIntercept, Subset: 17, Seed: 5}
	pen := ScaleObjective{Intercept: regress.PenalizedIntercept, Criterion: LOOErrorRate}
	gcv := ScaleObjective{Intercept: regress.NoIntercept, Criterion: GCV}
	pFree, pPen := goldenScalePath(7, 3, 2, 5, free), goldenScalePath(8, 2, 1, 4, pen)
	for _, c := range []struct {
		name       string
		sums, into sums
		want       string
	}{
		{"NystromPath, free, q=2, L=3", goldenPath(1, 30, 2, 6, 3, regress.FreeIntercept, true),
			goldenPath(1, 30, 2, 6, 3, regress.FreeIntercept, false),
			"a3212b8abc58f1a1722674c06c3144439625f9d8892da996bbf0f1447cc0a59d"},
		{"NystromPath, penalized, q=1, L=1, no rows", goldenPath(2, 9, 1, 3, 1, regress.PenalizedIntercept, false),
			goldenPath(2, 9, 1, 3, 1, regress.PenalizedIntercept, true),
			"22ca78adf150d5e0a8f8c0deceb9886b59a9d05044761cb4dd167aacdc6b4bab"},
		{"ScaleStats, free, a subset", goldenStats(t, 3, 3, 4, free), goldenStats(t, 3, 3, 4, free),
			"daeb7f2ad1adedddff50a7805cf40aa83a324875c3531517b65f3abdcebf13ea"},
		{"ScaleStats, GCV", goldenStats(t, 4, 2, 3, gcv), goldenStats(t, 4, 2, 3, gcv),
			"7271442d4d5a1f3d58c96a3cfce01bd0131942bf7beb6588f44e24c19b8ddc04"},
		{"ScaleLOO, free, q=2", goldenLOO(pFree, 9, true), goldenLOO(pFree, 9, false),
			"8ad68f3db24ef3bacf93859c20fdde04ca746c73a018b3890cd67600a5ea09ff"},
		{"ScaleLOO, penalized, q=1, no rows", goldenLOO(pPen, 10, false), goldenLOO(pPen, 10, true),
			"06bee6c0a71bf3503bb30655ea1bc82995d9d1ab49809b34e3afd37f6edf31e8"},
		{"ScaleAdjoint, free, q=2", goldenAdjoint(pFree, 11, 17, true), goldenAdjoint(pFree, 11, 17, false),
			"7b2cb610cb1944d49a84310200664d1fdff60856f69e464979c9abd63f8fae45"},
		{"ScaleAdjoint, GCV", goldenAdjoint(goldenScalePath(12, 2, 1, 3, gcv), 12, 0, true),
			goldenAdjoint(goldenScalePath(12, 2, 1, 3, gcv), 12, 0, false),
			"bc1a3f9f127f99d6b03299f9530421472d2280ffcea1a7e6db6b632aa0fea0ba"},
	} {
		b, err := c.sums.MarshalBinary()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		h := sha256.Sum256(b)
		if got := hex.EncodeToString(h[:]); got != c.want {
			t.Errorf("%s: the encoding (%d bytes) hashes to %s, want %s", c.name, len(b), got, c.want)
		}
		if err := c.into.UnmarshalBinary(b); err != nil {
			t.Fatalf("%s: decoding: %v", c.name, err)
		}
		again, err := c.into.MarshalBinary()
		if err != nil || string(again) != string(b) {
			t.Errorf("%s: decoded and encoded again: %d bytes (%v), want the %d bytes decoded", c.name, len(again), err, len(b))
		}
	}
}
