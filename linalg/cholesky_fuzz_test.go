package linalg

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"rkhs/internal/testmat"
)

// FuzzCholeskyRoundTrip factors a random symmetric positive definite matrix
// (size, padding and entries from the seed) whose lower triangle the fuzzer
// may overwrite, entry by entry, with arbitrary float64 bit patterns: NaN,
// ±Inf, huge and subnormal values, or values that destroy definiteness.
// Whatever the input, Factorize must not panic, must leave A unchanged, and
// must either fail with ErrNotPositiveDefinite or ErrNotFinite, or succeed
// with backward-stable factor and solve: ‖A − LLᵀ‖ and ‖AX − B‖/‖X‖ below
// 30·n·ε·‖A‖ (the LAPACK ratios) and the padding of every matrix untouched.
func FuzzCholeskyRoundTrip(f *testing.F) {
	f.Add(uint64(1), uint8(5), []byte{})
	f.Add(uint64(2), uint8(65), []byte{0, 0, 0, 0, 0, 0, 0xf8, 0x7f})                              // NaN at (0,0)
	f.Add(uint64(3), uint8(3), []byte{0, 0, 0, 0, 0, 0, 0xf0, 0xbf, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f}) // −1, 1
	f.Add(uint64(4), uint8(129), []byte{1, 2, 3, 4, 5, 6, 7, 8})
	f.Add(uint64(0), uint8(0), []byte("000000\x00\x00")) // a subnormal 1×1 A
	f.Fuzz(func(t *testing.T, seed uint64, size uint8, raw []byte) {
		n := 1 + int(size)%140
		rnd := testmat.NewRand(seed)
		pad := int(seed % 3)
		a := testmat.RandomSPD(rnd, n, pad)
		// Overwrite lower-triangle entries in row order with the fuzzer's
		// values; finite values are capped at 1e100 in magnitude so that
		// the residual norms below cannot overflow.
		for k := 0; 8*k+8 <= len(raw) && k < n*(n+1)/2; k++ {
			v := math.Float64frombits(binary.LittleEndian.Uint64(raw[8*k:]))
			if math.Abs(v) > 1e100 && !math.IsInf(v, 0) {
				v = math.Copysign(1e100, v)
			}
			i := int((math.Sqrt(8*float64(k)+1) - 1) / 2)
			for i*(i+1)/2 > k {
				i--
			}
			for (i+1)*(i+2)/2 <= k {
				i++
			}
			a.Set(i, k-i*(i+1)/2, v)
		}
		a0 := a.Clone()
		da := Dense(a)
		var ch Cholesky
		err := ch.Factorize(&da)
		if !testmat.Identical(a, a0) {
			t.Fatal("Factorize modified its input")
		}
		if err != nil {
			if !errors.Is(err, ErrNotPositiveDefinite) && !errors.Is(err, ErrNotFinite) {
				t.Fatalf("Factorize: %v, want ErrNotPositiveDefinite or ErrNotFinite", err)
			}
			return
		}
		sym := symmetrize(a)
		norm := testmat.NormOne(sym)
		if float64(n)*testmat.Eps*norm == 0 {
			return // ‖A‖ so small (subnormal) that the ratios' scale underflows
		}
		if r := factorResidual(a, ch.LTo(nil)); !(r < 30) {
			t.Fatalf("n=%d: ‖A − LLᵀ‖/(nε‖A‖) = %.3g, want < 30", n, r)
		}
		b := testmat.Random(rnd, n, 3, pad)
		db := Dense(b)
		x := ch.SolveTo(nil, &db)
		if !testmat.PaddingIntact(b) {
			t.Fatal("SolveTo wrote into the padding of B")
		}
		xn := testmat.NormOne(testmat.Matrix(*x))
		if math.IsInf(xn, 0) || xn == 0 {
			return // X overflowed (A nearly singular) or B was zero: no ratio to test
		}
		ax := testmat.Mul(sym, testmat.Matrix(*x))
		if r := testmat.NormOne(testmat.Sub(ax, compact(b))) / (float64(n) * testmat.Eps * norm * xn); !(r < 30) {
			t.Fatalf("n=%d: ‖AX − B‖/(nε‖A‖‖X‖) = %.3g, want < 30", n, r)
		}
	})
}
