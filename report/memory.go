package report

import (
	"fmt"
	"math"

	"rkhs/linalg"
)

// Memory: the library refuses a problem too large for the memory there is
// before it allocates anything large, with a *linalg.MemoryError; TooLarge
// says it in the one line a user needs, ending with the advice that fits
// what was asked (ExactAdvice, CentersAdvice, SelectionAdvice, LOOAdvice).

// TooLarge is the line for me: what was asked (say "rkhs fit -method
// cholesky") on n rows, the memory it needs, the memory there is and where
// that limit comes from (me.Source), the operation that checked (me.Op),
// then advice.
func TooLarge(what string, n int, me *linalg.MemoryError, advice string) string {
	return fmt.Sprintf("%s on %s needs %s of memory, more than the %s of %s (%s): %s",
		what, Count(n, "row"), linalg.FormatBytes(me.Need), linalg.FormatBytes(me.Limit), me.Source, me.Op, advice)
}

// ExactAdvice is the advice for a method that forms n×n matrices.
const ExactAdvice = "run -method falkon -centers M instead, with M a few thousand centres, which needs O(M² + nd) memory (n rows, d features)"

// CentersAdvice is the advice for -method falkon (nystrom false) or
// nystrom, given the largest number of centres Falkon can hold in the
// memory there is (regress.FalkonMaxCenters; below 1, none: the data alone
// is too large).
func CentersAdvice(maxCenters int, nystrom bool) string {
	switch {
	case maxCenters < 1:
		return "no number of centres fits: the data alone is too large for this memory"
	case nystrom:
		return fmt.Sprintf("run -method falkon, at most -centers %d, which needs O(M² + nd) memory instead of Nyström's O(nM)", maxCenters)
	}
	return fmt.Sprintf("at most -centers %d fits", maxCenters)
}

// SelectionAdvice is the advice for a streamed selection of σ and λ on m
// centres (loo.SelectNystrom), which flag sets, refused with me: it holds
// O(m²) values a σ and streams the rows, whatever their number, so that
// the centres that fit grow as the square root of the memory — about
// m·√(me.Limit/me.Need) of them, the terms linear in m making that an
// upper estimate.
func SelectionAdvice(flag string, m int, me *linalg.MemoryError) string {
	return fmt.Sprintf("the selection streams the rows and holds O(M²) values a σ, whatever the rows: at most about %s %d fits", flag, squareFits(m, me))
}

// LOOAdvice is the advice for rkhs loo on n rows, refused with me: its
// eigendecomposition of the n×n kernel matrix has no cheaper method, so a
// random subset of rows, about n·√(me.Limit/me.Need) of them since the
// memory grows as n².
func LOOAdvice(n int, me *linalg.MemoryError) string {
	return fmt.Sprintf("leave-one-out decomposes the n×n kernel matrix: run it on a random subset of %s at most, then rkhs fit -method falkon on all the rows with the λ it finds", Count(squareFits(n, me), "row"))
}

// squareFits is the size that fits in me.Limit of a problem of the given
// size refused with me whose memory grows as the size squared:
// size·√(me.Limit/me.Need).
func squareFits(size int, me *linalg.MemoryError) int {
	return int(float64(size) * math.Sqrt(float64(me.Limit)/float64(me.Need)))
}
