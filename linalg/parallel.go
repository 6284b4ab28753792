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

// sumPartialsCols is the number of columns of a unit of sumPartials.
const sumPartialsCols = 256

// sumPartials sets y = Σᵣ Pᵣ over r = 0 … units−1 in increasing r, where
// part(r) returns Pᵣ, at most len(y) long, which adds into the prefix of y
// it covers: the final step of a product whose row blocks each summed into
// a partial vector of their own. The sum is split over goroutines by
// columns, so every element gets its terms in the same order for any
// number of goroutines. Cost: at most units·len(y) adds.
func sumPartials(y []float64, units int, part func(r int) []float64) {
	sumPartialsThen(y, units, part, 0, nil)
}

// sumPartialsThen is sumPartials followed, on each range [c0, c1) of y as
// soon as it is summed, by then(c0, c1), which costs about flops per
// element: work that reads and writes only y[c0:c1] (and data no other
// range writes) joins the sum's goroutines instead of waiting for a loop
// of its own. Whatever then computes per element does not depend on how
// y is cut into ranges.
func sumPartialsThen(y []float64, units int, part func(r int) []float64, flops float64, then func(c0, c1 int)) {
	m := len(y)
	chunks := (m + sumPartialsCols - 1) / sumPartialsCols
	forEach(teamSize(chunks, (2*float64(units)+flops)*float64(m)), chunks, taskFunc(func(_, u int) {
		c0, c1 := u*sumPartialsCols, min((u+1)*sumPartialsCols, m)
		clear(y[c0:c1])
		var buf [32][]float64
		rows := buf[:0]
		if units > len(buf) {
			rows = make([][]float64, 0, units)
		}
		for r := range units {
			if pr := part(r); len(pr) > c0 {
				rows = append(rows, pr[c0:min(c1, len(pr))])
			}
		}
		addRows(y[c0:c1], rows)
		if then != nil {
			then(c0, c1)
		}
	}))
}
