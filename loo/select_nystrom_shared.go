package loo

import (
	"math"

	"rkhs/internal/check"
	"rkhs/internal/memlimit"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// One pass over the rows for every σ. The kernels of a radial family
// (Gaussian, Laplacian) of different widths share the costly part of
// every block of K_nm: the inner products of the rows with the centres
// (Gaussian) or their 1-norm distances (Laplacian), kernels.Widths. So
// SelectNystrom, when every σ gives such a kernel, makes both of its
// passes over the rows once for all σ: for each block of rows, one
// product for the distances, then for each σ the kernel transform and
// that σ's work — the rows folded into its regress.NystromStats (first
// pass) or the residuals of its λ path (second pass). Every block of every
// σ is the one a pass of that σ alone evaluates, bit for bit, and each σ's
// accumulations run in the same order, so the results are those of
// separate passes, bit for bit, for 2 passes over X instead of 2 per σ.
// The price is memory: the statistics and the paths of every σ at once.

// shareWidths is false only in tests that compare the shared passes with
// the passes of one σ at a time.
var shareWidths = true

// shared reports whether Fit makes its passes for all σ together: the
// kernels are all Gaussian or all Laplacian and the statistics and paths
// of every σ fit in memory at once (see sharedBytes).
func (sn SelectNystrom) shared(ks []kernels.Kernel, n, d, q int) bool {
	return shareWidths && kernels.SharesWidths(ks) && memlimit.Check("", sn.sharedBytes(n, d, q)) == nil
}

// sharedBytes bounds the memory of the shared passes besides X and Y.
// The first pass holds, for each of the S widths, the statistics (L and M,
// m(2m + q + d + 2)), and one workspace of their groups of rows for all
// (regress.NystromWorkLen(m, q)); the λ path of each width (W, the
// resolvents and Z∘D, m(m + L(q + 1) + 1)) then takes the place of its
// statistics, which are let go; one eigendecomposition's four m×m
// matrices at a time; the block of shared distances, the kernel block and
// the products of a pass (3b×m + b·L(q + 1), b = sharedBlockRows(m, n)).
// The bound adds these up, as if all were held at once.
func (sn SelectNystrom) sharedBytes(n, d, q int) uint64 {
	m, nl, s := sn.Centers.Rows, len(sn.Lambdas), len(sn.Sigmas)
	b := sharedBlockRows(m, n)
	return memlimit.Sum(
		memlimit.Floats(s, m, 2*m+nl*(q+1)+2*q+d+3),
		memlimit.Floats(m, 5*m), memlimit.Floats(regress.NystromWorkLen(m, q)),
		memlimit.Floats(b, 3*m+nl*(q+1)))
}

// statsRows is the number of rows of a block of the shared statistics
// pass: passRows(m) rounded down to a multiple of
// regress.NystromBatchRows (four groups of the statistics, whose features
// one triangular solve gives), and at least one batch. Blocks of whole
// groups give the statistics regress.NystromStats.Add gives, bit for bit;
// whole batches fold fastest.
func statsRows(m int) int {
	nb := regress.NystromBatchRows
	return max(nb, passRows(m)/nb*nb)
}

// sharedBlockRows is the number of rows of the blocks both shared passes
// use, those of the larger of their blocks (statsRows and passRows), or n
// if fewer.
func sharedBlockRows(m, n int) int { return min(max(statsRows(m), passRows(m)), n) }

// fitShared runs the selection with one statistics pass over x and y and
// one leave-one-out pass over lx and ly for all σ together; see the top of
// this file.
func (sn SelectNystrom) fitShared(op string, sel *NystromSelection, best *bestPath, ks []kernels.Kernel, x, y, lx, ly *linalg.Dense) error {
	passes := 2
	if sn.Criterion == GCV {
		passes = 1
	}
	if sn.Progress != nil {
		sn.Progress(1, passes, math.NaN())
	}
	m, q, ns := sn.Centers.Rows, y.Cols, len(ks)
	stats := make([]*regress.NystromStats, ns)
	for s, k := range ks {
		var err error
		if stats[s], err = regress.NewNystromStats(k, sn.Centers); err != nil {
			return sn.statsError(op, sn.Sigmas[s], err)
		}
	}
	w, err := kernels.NewWidths(ks, x, sn.Centers)
	if err != nil {
		return check.Wrap(ErrInput, op, "X", err)
	}
	// One workspace for the statistics of every σ, and both passes'
	// blocks, sized for the larger, so that the second allocates none.
	work := make([]float64, regress.NystromWorkLen(m, q))
	store := kernels.NewWidthsBlock(sharedBlockRows(m, x.Rows), m)
	for i0, blk := range w.Blocks(statsRows(m), store) {
		for s, st := range stats {
			kb := blk.Kernel(s)
			if err := st.AddKernelRows(kb, y.Slice(i0, i0+kb.Rows, 0, q), work); err != nil {
				return sn.statsError(op, sn.Sigmas[s], err)
			}
		}
	}
	paths, idx := make([]*NystromPath, ns), make([][]int, ns)
	var es linalg.EigenSym // one workspace for every σ's eigendecomposition
	for s, st := range stats {
		if paths[s], idx[s], err = sn.path(st, &es); err != nil {
			return err
		}
		stats[s] = nil // the path holds what the rest needs
	}
	if sn.Criterion != GCV {
		if sn.Progress != nil {
			sn.Progress(2, passes, math.NaN())
		}
		if lx != x {
			if w, err = kernels.NewWidths(ks, lx, sn.Centers); err != nil {
				return check.Wrap(ErrInput, op, "X", err)
			}
		}
		acc := make([]*streamPass, ns) // nil for a σ without a path
		for s, p := range paths {
			if p != nil {
				acc[s] = p.begin()
			}
		}
		// The statistics' workspace holds F (b×m, b = passRows(m)) when
		// large enough.
		ws := streamWork{f: linalg.Dense{Data: work[:0]}}
		for i0, blk := range w.Blocks(passRows(m), store) {
			for s := range w.Len() {
				if acc[s] == nil {
					continue // no λ of this σ is usable
				}
				kb := blk.Kernel(s)
				acc[s].block(&ws, kb, ly.Slice(i0, i0+kb.Rows, 0, q))
			}
		}
		for _, a := range acc {
			if a != nil {
				a.keep(lx.Rows)
			}
		}
	}
	for s := range sn.Sigmas {
		sn.record(sel, best, s, paths[s], idx[s])
	}
	return nil
}
