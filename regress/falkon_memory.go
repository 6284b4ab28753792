package regress

import "rkhs/internal/memlimit"

// FalkonMemory returns the bytes a Falkon fit on n rows of d features
// with q outputs and m centres holds at its peak besides X (saturated at
// math.MaxUint64), O(m² + n·q): the two m×m matrices of the
// preconditioner, the centres and six m×q vectors of the iteration, the
// copy of [Y 1] with the permutation and hash table of the choice of
// centres (n×(q+1) doubles and about 48 bytes a row; n = 0 for
// FitOperator), and the streamed products' partial results (64 MiB) and
// kernel blocks (2¹⁸ values of K_nm in all, and their rows of d + q; 4
// rows a goroutine where that is more, counted for 16 goroutines). Fit
// refuses a fit whose FalkonMemory exceeds the memory the program may
// use; a caller can use it to choose the largest m that fits.
func FalkonMemory(n, m, d, q int) uint64 {
	return memlimit.Sum(
		memlimit.Floats(2, m, m),
		memlimit.Floats(m, d+6*q),
		memlimit.Floats(n, q+1+6),
		64<<20+memlimit.Floats(2, 1<<17+32*(d+q)),
		memlimit.Floats(16, 4, m+d+q),
	)
}

// checkFalkonMemory refuses, before anything of size m×m is allocated, a
// fit whose memory (FalkonMemory) exceeds what the program may use
// (internal/memlimit: the Go memory limit, the cgroup limit, physical
// memory, the address space): a *linalg.MemoryError wrapping
// linalg.ErrTooLarge.
func checkFalkonMemory(op string, n, m, d, q int) error {
	return memlimit.Check(op, FalkonMemory(n, m, d, q))
}

// FalkonMaxCenters returns the largest m ≤ n for which a Falkon fit on n
// rows of d features with q outputs holds at most limit bytes
// (FalkonMemory, which grows with m), 0 if none does.
func FalkonMaxCenters(n, d, q int, limit uint64) int {
	lo, hi := 0, max(n, 0) // FalkonMemory(lo) fits (or lo = 0); FalkonMemory(hi+1) does not (or hi = n)
	for lo < hi {
		mid := hi - (hi-lo)/2
		if FalkonMemory(n, mid, d, q) <= limit {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}
