package linalg

import "rkhs/internal/parallel"

// Parallel loops in linalg go through rkhs/internal/parallel, the one place
// in the module that starts goroutines; these names keep call sites short.

// minParallelFlops is the amount of work (in floating-point operations)
// below which an operation runs on the calling goroutine: starting and
// joining goroutines costs a few microseconds, the time of about 2¹⁷ flops
// at the serial GEMM rate.
const minParallelFlops = 1 << 18

// teamSize returns how many goroutines to use for units independent pieces
// of work totalling flops floating-point operations.
func teamSize(units int, flops float64) int {
	return parallel.Team(units, flops, minParallelFlops)
}

// task is a loop body for forEach; taskFunc adapts a closure.
type (
	task     = parallel.Task
	taskFunc = parallel.Func
)

// forEach runs t.Run(w, u) for u in [0, units) on p goroutines, goroutine w
// taking units w, w+p, …; see parallel.For.
func forEach(p, units int, t task) { parallel.For(p, units, t) }

// claim runs t.Run(w, u) for u in [0, units) on p goroutines that claim
// the units in turn; t must not let a result depend on w. See parallel.Claim.
func claim(p, units int, t task) { parallel.Claim(p, units, t) }

// rowChunks splits n rows into at most p contiguous chunks aligned to align.
type rowChunks = parallel.Chunks

func newRowChunks(n, p, align int) rowChunks { return parallel.NewChunks(n, p, align) }
