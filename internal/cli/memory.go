package cli

import (
	"errors"
	"fmt"
	"math"

	"rkhs/internal/memlimit"
	"rkhs/linalg"
	"rkhs/regress"
)

// Memory: a problem too large for the memory there is is refused before
// anything large is allocated, with a *linalg.MemoryError from the library;
// TooLarge turns it into the one line a user needs, with advice that fits
// what was asked.

// TooLarge rewrites a *linalg.MemoryError as the one line a user needs:
// what was asked, the memory it needs, the memory there is, and advice
// that fits the case (see the advice functions). Other errors are
// returned as they are.
func TooLarge(err error, what string, n int, advice func(me *linalg.MemoryError) string) error {
	var me *linalg.MemoryError
	if !errors.As(err, &me) {
		return err
	}
	return Explained{Msg: fmt.Sprintf("%s on %s needs %s of memory, more than the %s of %s (%s): %s",
		what, Count(n, "row"), linalg.FormatBytes(me.Need), linalg.FormatBytes(me.Limit), me.Source, me.Op, advice(me)), Err: err}
}

// ExactAdvice is the advice for a method that forms n×n matrices.
func ExactAdvice(*linalg.MemoryError) string {
	return "run -method falkon -centers M instead, with M a few thousand centres, which needs O(M² + nd) memory (n rows, d features)"
}

// CentersAdvice is the advice for -method falkon (nystrom false) or
// nystrom on n rows of d features with q outputs: the largest number of
// centres Falkon can hold.
func CentersAdvice(n, d, q int, nystrom bool) func(*linalg.MemoryError) string {
	return func(*linalg.MemoryError) string {
		limit, _ := memlimit.Limit()
		m := regress.FalkonMaxCenters(n, d, q, limit)
		switch {
		case m < 1:
			return "no number of centres fits: the data alone is too large for this memory"
		case nystrom:
			return fmt.Sprintf("run -method falkon, at most -centers %d, which needs O(M² + nd) memory instead of Nyström's O(nM)", m)
		}
		return fmt.Sprintf("at most -centers %d fits", m)
	}
}

// SelectionAdvice is the advice for a streamed selection of σ and λ on m
// centres (loo.SelectNystrom), which flag sets: it holds O(m²) values a σ
// and streams the rows, whatever their number, so that fewer centres fit
// as the square root of the memory — about m·√(limit/need) of them, the
// terms linear in m making that an upper estimate.
func SelectionAdvice(flag string, m int) func(*linalg.MemoryError) string {
	return func(me *linalg.MemoryError) string {
		fits := int(float64(m) * math.Sqrt(float64(me.Limit)/float64(me.Need)))
		return fmt.Sprintf("the selection streams the rows and holds O(M²) values a σ, whatever the rows: at most about %s %d fits", flag, fits)
	}
}

// LOOAdvice is the advice for loo, whose eigendecomposition of the n×n
// kernel matrix has no cheaper method: a subset of rows, whose count
// follows from the memory growing as n².
func LOOAdvice(n int) func(*linalg.MemoryError) string {
	return func(me *linalg.MemoryError) string {
		rows := int(float64(n) * math.Sqrt(float64(me.Limit)/float64(me.Need)))
		return fmt.Sprintf("leave-one-out decomposes the n×n kernel matrix: run it on a random subset of %s at most, then rkhs fit -method falkon on all the rows with the λ it finds", Count(rows, "row"))
	}
}
