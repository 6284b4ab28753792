package kernels

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// refPrec is the precision of the test oracle expRef, in bits.
const refPrec = 200

// ln2Ref is ln 2 to refPrec bits, from ln 2 = Σ_{k≥1} 1/(k·2ᵏ).
var ln2Ref = func() *big.Float {
	s := new(big.Float).SetPrec(refPrec)
	for k := 1; k <= refPrec+20; k++ {
		t := new(big.Float).SetPrec(refPrec).SetInt64(1)
		t.SetMantExp(t, -k) // not SetMantExp(big.NewFloat(1), …): that takes its 53 bits
		s.Add(s, t.Quo(t, new(big.Float).SetInt64(int64(k))))
	}
	return s
}()

// expRef returns e^x to about refPrec bits: x = k·ln2 + r with |r| ≤ 0.35
// in big arithmetic, e^r by its Taylor series, then the exponent moved by
// k. It is the naive twin of expNeg (and a check of math.Exp). Below
// −800 it returns 0, closer to e^x than a quarter of the smallest subnormal.
func expRef(x float64) *big.Float {
	if x < -800 {
		return new(big.Float).SetPrec(refPrec)
	}
	k := math.Round(x / math.Ln2)
	kl := new(big.Float).SetPrec(refPrec).SetFloat64(k)
	r := new(big.Float).SetPrec(refPrec).SetFloat64(x)
	r.Sub(r, kl.Mul(kl, ln2Ref))
	sum := new(big.Float).SetPrec(refPrec).SetInt64(1)
	term := new(big.Float).SetPrec(refPrec).SetInt64(1)
	for n := int64(1); n <= 60; n++ { // 0.35⁶⁰/60! < 2⁻³⁵⁰
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetInt64(n))
		sum.Add(sum, term)
	}
	return sum.SetMantExp(sum, int(k))
}

// ulpErr returns |got − exact| in units of the last place of exact's
// float64 neighbourhood: 2^(E−53) for exact in [2^(E−1), 2^E), and the
// subnormal spacing 2⁻¹⁰⁷⁴ below 2⁻¹⁰²².
func ulpErr(got float64, exact *big.Float) float64 {
	e := max(exact.MantExp(nil), -1021)
	d := new(big.Float).SetPrec(refPrec).SetFloat64(got)
	d.Sub(d, exact)
	d.SetMantExp(d, 53-e)
	f, _ := d.Float64()
	return math.Abs(f)
}

// ulps returns how many float64 values lie between a and b (0 if equal).
func ulps(a, b float64) float64 {
	if a == b {
		return 0
	}
	if math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return math.Inf(1)
	}
	return math.Abs(float64(int64(math.Float64bits(a)) - int64(math.Float64bits(b))))
}

func expNeg1(x float64) float64 {
	a := [1]float64{x}
	expNeg(a[:])
	return a[0]
}

// TestExpTable checks every entry of expTable: T_j is within half an ulp
// of 2^(j/N) and (T_j·(1 + t_j))^N = 2^j to 95 bits, in math/big.
func TestExpTable(t *testing.T) {
	for j, e := range expTable {
		hi := math.Float64frombits(e.hi)
		if !(hi >= 1 && hi < 2) || math.Abs(e.tail) > 0x1p-53 {
			t.Fatalf("entry %d: T = %v, t = %v: not in [1, 2) with |t| ≤ 2⁻⁵³", j, hi, e.tail)
		}
		v := new(big.Float).SetPrec(refPrec).SetFloat64(e.tail)
		v.Mul(v, big.NewFloat(hi))
		v.Add(v, big.NewFloat(hi))
		for range expTableBits {
			v.Mul(v, v)
		}
		v.SetMantExp(v, -j) // (T(1+t))^N / 2^j
		v.Sub(v, big.NewFloat(1))
		if f, _ := v.Float64(); math.Abs(f) > 0x1p-95 {
			t.Errorf("entry %d: (T(1+t))^N/2^j − 1 = %v", j, f)
		}
	}
}

// expCases returns arguments of expNeg: the edges (0, −0, the tiny ones
// whose e^x rounds to 1, expNeg's branch at −700, the start of the
// subnormal range near −708.4, the last non-zero results near −745.13 and
// expNegSmall's branch at −745.2), −Inf, then random ones over the whole
// range [−746, 0], over [−720, −680] and the subnormal tail, and over
// [−20, 0], where Gaussian kernel values mostly live.
func expCases(n int) []float64 {
	xs := []float64{0, math.Copysign(0, -1), -1e-300, -0x1p-1074, -0x1p-54, -0x1p-53, -1e-17, -math.Ln2 / 256,
		-math.Ln2 / 2, -math.Ln2, -1, -689.9999999999999, -699.9999999999999, -700, -700.0000000000001, -690, -690.0000000000001, -708.39, -708.3964185322641, -708.4, -709, -744.44, -745.1, -745.13,
		-745.1332191019411, -745.1332191019412, -745.2, -745.2000000000001, -746, -747, -1000, -math.MaxFloat64, math.Inf(-1)}
	rng := rand.New(rand.NewPCG(1, 2))
	for len(xs) < n {
		switch len(xs) % 4 {
		case 0:
			xs = append(xs, -746*rng.Float64())
		case 1:
			xs = append(xs, -708-38*rng.Float64()) // subnormal results
		case 2:
			xs = append(xs, -680-40*rng.Float64())
		default:
			xs = append(xs, -20*rng.Float64())
		}
	}
	return xs
}

// TestExpNeg measures expNeg against the 200-bit oracle: at most 0.512 ulp
// where the result is normal and 1 ulp where it is subnormal (or 0);
// exactly 1 at ±0, 0 at −Inf, NaN at NaN.
func TestExpNeg(t *testing.T) {
	n := 1 << 15
	if testing.Short() {
		n = 1 << 11
	}
	xs := expCases(n)
	got := append([]float64(nil), xs...)
	expNeg(got)
	worst, worstSub := checkExpRef(t, "expNeg", xs, got, 0.512)
	var worstMath float64
	for _, x := range xs {
		worstMath = max(worstMath, ulpErr(math.Exp(x), expRef(x)))
	}
	t.Logf("worst over %d arguments: %.4f ulps (normal), %.4f ulps (subnormal); math.Exp %.4f ulps",
		len(xs), worst, worstSub, worstMath)
	for _, c := range []struct{ x, want float64 }{
		{0, 1}, {math.Copysign(0, -1), 1}, {-0x1p-1074, 1}, {-1e-17, 1}, {math.Inf(-1), 0}, {-746, 0}, {-1e300, 0},
	} {
		if got := expNeg1(c.x); got != c.want || math.Signbit(got) {
			t.Errorf("expNeg(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	if got := expNeg1(math.NaN()); !math.IsNaN(got) {
		t.Errorf("expNeg(NaN) = %v, want NaN", got)
	}
}

// checkExpRef compares got[i] with e^xs[i] from the 200-bit oracle: at
// most bound ulps where got[i] is normal and 1 ulp where it is subnormal
// (or 0). It returns the worst errors of both kinds.
func checkExpRef(t *testing.T, name string, xs, got []float64, bound float64) (worst, worstSub float64) {
	t.Helper()
	for i, x := range xs {
		u := ulpErr(got[i], expRef(x))
		if got[i] < 0x1p-1022 {
			worstSub = max(worstSub, u)
			if u > 1 {
				t.Errorf("%s(%v) = %v, %.3g ulps from e^x (subnormal)", name, x, got[i], u)
			}
		} else {
			worst = max(worst, u)
			if u > bound {
				t.Errorf("%s(%v) = %v, %.3g ulps from e^x", name, x, got[i], u)
			}
		}
	}
	return worst, worstSub
}

// TestExpNegMath compares expNeg with math.Exp on many more arguments: at
// most 2 ulps apart (math.Exp, assembly on amd64, is itself up to 1.4
// ulps from e^x in TestExpNeg).
func TestExpNegMath(t *testing.T) {
	n := 1 << 21
	if testing.Short() {
		n = 1 << 15
	}
	xs := expCases(n)
	got := append([]float64(nil), xs...)
	expNeg(got)
	worst := 0.0
	for i, x := range xs {
		want := math.Exp(x)
		u := ulps(got[i], want)
		if u > 2 {
			t.Errorf("expNeg(%v) = %v, math.Exp = %v (%v ulps)", x, got[i], want, u)
		}
		worst = max(worst, u)
	}
	t.Logf("worst: %v ulps from math.Exp over %d arguments", worst, len(xs))
}

// BenchmarkExp is the throughput of e^x over arguments uniform in
// [−20, 0]: math.Exp, and expNeg, in ns per element.
func BenchmarkExp(b *testing.B) {
	const n = 4096
	rng := rand.New(rand.NewPCG(1, 1))
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = -20 * rng.Float64()
	}
	dst := make([]float64, n)
	perElem := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/elem")
	}
	b.Run(fmt.Sprintf("math.Exp/n=%d", n), func(b *testing.B) {
		for b.Loop() {
			for i, x := range xs {
				dst[i] = math.Exp(x)
			}
		}
		perElem(b)
	})
	b.Run(fmt.Sprintf("expNeg/n=%d", n), func(b *testing.B) {
		for b.Loop() {
			copy(dst, xs)
			expNeg(dst)
		}
		perElem(b)
	})
}
