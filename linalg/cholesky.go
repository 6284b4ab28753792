package linalg

import (
	"fmt"
	"math"
)

// cholNB is the block size of the blocked Cholesky factorization: each step
// factors a cholNB×cholNB diagonal block with potf2, solves the panel below
// it and updates the trailing matrix with a rank-cholNB Syrk. A variable
// only so that TestCalibrate can sweep it. On the machine of BENCHMARKS.md
// 128, 192 and 256 were within noise of each other at n=2048 and 4096 (64
// was 10% slower); 128 keeps the serial work on diagonal blocks small.
var cholNB = 128

// Cholesky is the factorization A = L·Lᵀ of a symmetric positive definite
// matrix, L lower triangular with a positive diagonal.
//
// The zero value is ready to use: call Factorize (or FactorizeInPlace), then
// solve with it. A Cholesky that has been factored successfully may be used
// by several goroutines at once for solves; Factorize itself must not run
// concurrently with anything else on the same value.
type Cholesky struct {
	l  Dense // L in the lower triangle; the strict upper triangle is unused
	ok bool  // the last factorization succeeded
}

// Factorize computes the Cholesky factorization of the n×n symmetric matrix
// a, reading only its lower triangle (diagonal included). a is not modified;
// the factor is stored in c, reusing c's storage when it is large enough.
//
// It returns a *NotFiniteError (wrapping ErrNotFinite) if the lower triangle
// holds NaN or ±Inf, and a *PivotError (wrapping ErrNotPositiveDefinite) that
// names the 0-based column j at which the leading (j+1)×(j+1) block was found
// not to be positive definite. After an error c holds no factorization and
// its solve methods panic.
//
// The factorization is blocked (right-looking, block size cholNB): potf2 on
// each diagonal block, a triangular solve for the panel below it (rows split
// over goroutines) and a Syrk update of the trailing matrix (split over
// goroutines by blocks of rows). The cost is n³/3 flops; the result is
// bit-identical for any number of goroutines. Factorize panics if a is not
// square.
func (c *Cholesky) Factorize(a *Dense) error {
	a.checkSquare("Cholesky.Factorize")
	c.ok = false
	if err := checkFiniteLower(a); err != nil {
		return err
	}
	n := a.Rows
	if cap(c.l.Data) >= n*n {
		c.l = Dense{Rows: n, Cols: n, Stride: n, Data: c.l.Data[:n*n]}
	} else {
		c.l = *NewDense(n, n, nil)
	}
	for i := 0; i < n; i++ {
		copy(c.l.Data[i*n:i*n+i+1], a.Data[i*a.Stride:i*a.Stride+i+1])
	}
	if err := potrf(c.l); err != nil {
		return err
	}
	c.ok = true
	return nil
}

// FactorizeInPlace is Factorize without a copy: the lower triangle of a is
// overwritten with L and c keeps a reference to a's storage, which the caller
// must not modify while c is in use. The strict upper triangle of a is not
// touched. This halves the memory of large problems (one n×n matrix instead of
// two). On error c holds no factorization; after a *PivotError the lower
// triangle of a is partly overwritten, after a *NotFiniteError it is
// unchanged.
func (c *Cholesky) FactorizeInPlace(a *Dense) error {
	a.checkSquare("Cholesky.FactorizeInPlace")
	c.ok = false
	c.l = Dense{}
	if err := checkFiniteLower(a); err != nil {
		return err
	}
	if err := potrf(*a); err != nil {
		return err
	}
	c.l = *a
	c.ok = true
	return nil
}

// potrf overwrites the lower triangle of a with its Cholesky factor, by
// blocks of cholNB columns (see Factorize).
func potrf(a Dense) error {
	n := a.Rows
	for k0 := 0; k0 < n; k0 += cholNB {
		k1 := min(k0+cholNB, n)
		if err := potf2(a.view(k0, k1, k0, k1), k0); err != nil {
			return err
		}
		if k1 == n {
			break
		}
		// A21 ← A21·L11⁻ᵀ, then A22 ← A22 − A21·A21ᵀ (lower triangle).
		a21 := a.view(k1, n, k0, k1)
		trsmRightLowerTrans(a.view(k0, k1, k0, k1), a21)
		syrk(Lower, NoTrans, -1, a21, 1, a.view(k1, n, k1, n))
	}
	return nil
}

// Size returns n, the order of the factored matrix (0 for the zero value).
func (c *Cholesky) Size() int { return c.l.Rows }

// LTo copies L into dst, with zeros above the diagonal, and returns dst. An
// empty dst (for example nil or the zero Dense) is allocated; otherwise it
// must be n×n.
func (c *Cholesky) LTo(dst *Dense) *Dense {
	mustBeFactored(c.ok, "Cholesky.LTo")
	n := c.l.Rows
	dst = matrixTo(dst, n, n, "Cholesky.LTo")
	for i := 0; i < n; i++ {
		row := dst.Data[i*dst.Stride : i*dst.Stride+n]
		copy(row, c.l.Data[i*c.l.Stride:i*c.l.Stride+i+1])
		clear(row[i+1:])
	}
	return dst
}

// SolveTo solves A·X = B for the n×k matrix X by two triangular solves
// (L·Y = B, then Lᵀ·X = Y, each blocked and split over goroutines by
// columns), writes X into dst and returns dst. An empty dst is allocated;
// dst may be b itself (the solve is then in place); otherwise dst must be n×k
// and b is not modified. The cost is 2n²k flops.
func (c *Cholesky) SolveTo(dst, b *Dense) *Dense {
	mustBeFactored(c.ok, "Cholesky.SolveTo")
	b.check("Cholesky.SolveTo")
	n := c.l.Rows
	if b.Rows != n {
		panic(fmt.Sprintf("linalg: Cholesky.SolveTo: B has %d rows, want %d", b.Rows, n))
	}
	if dst != b {
		dst = matrixTo(dst, n, b.Cols, "Cholesky.SolveTo")
		dst.Copy(b)
	}
	trsm(Lower, NoTrans, c.l, *dst)
	trsm(Lower, Trans, c.l, *dst)
	return dst
}

// SolveVecTo solves A·x = b for one right-hand side, writes x into dst and
// returns it. A nil dst is allocated; dst may be b itself; otherwise dst
// must have length n. The cost is 2n² flops, on the calling goroutine.
func (c *Cholesky) SolveVecTo(dst, b []float64) []float64 {
	mustBeFactored(c.ok, "Cholesky.SolveVecTo")
	n := c.l.Rows
	if len(b) != n {
		panic(fmt.Sprintf("linalg: Cholesky.SolveVecTo: len(b) is %d, want %d", len(b), n))
	}
	dst = vectorTo(dst, n, "Cholesky.SolveVecTo")
	copy(dst, b)
	trsv(Lower, NoTrans, c.l, dst)
	trsv(Lower, Trans, c.l, dst)
	return dst
}

// LogDet returns log det A = 2·Σ log l_ii, which does not overflow where
// det A itself would.
func (c *Cholesky) LogDet() float64 {
	mustBeFactored(c.ok, "Cholesky.LogDet")
	var s float64
	for i := 0; i < c.l.Rows; i++ {
		s += math.Log(c.l.Data[i*c.l.Stride+i])
	}
	return 2 * s
}
