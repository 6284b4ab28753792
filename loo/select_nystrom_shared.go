package loo

import (
	"math"

	"rkhs/internal/check"
	"rkhs/internal/decomp"
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

// sharedBytes is the memory of the shared passes besides X and Y: for each
// of the S widths, the statistics (L, M and the workspace of Add's groups
// of rows, m(2m + statsWork + q + d + 2)) and the λ path (W, the
// resolvents and Z∘D, m(m + L(q + 1) + 1)); one eigendecomposition's four
// m×m matrices at a time; the block of shared distances, the kernel block
// and the products of a pass (3b×m + b·L(q + 1), b = passRows(m) or n if
// fewer). The statistics' workspace is handed back after the first pass,
// so this bounds the peak from above.
func (sn SelectNystrom) sharedBytes(n, d, q int) uint64 {
	m, nl, s := sn.Centers.Rows, len(sn.Lambdas), len(sn.Sigmas)
	b := min(passRows(m), n)
	return memlimit.Sum(
		memlimit.Floats(s, m, 3*m+statsWork+nl*(q+1)+2*q+d+3),
		memlimit.Floats(4, m, m),
		memlimit.Floats(b, 3*m+nl*(q+1)))
}

// statsWork is the number of rows of K_nm in the workspace of a
// regress.NystromStats that has added rows (4 groups of 264 columns).
const statsWork = 1056

// fitShared runs the selection with one statistics pass over x and y and
// one leave-one-out pass over lx and ly for all σ together; see the top of
// this file.
func (sn SelectNystrom) fitShared(op string, sel *NystromSelection, best *bestPair, ks []kernels.Kernel, x, y, lx, ly *linalg.Dense) error {
	passes := 2
	if sn.Criterion == GCV {
		passes = 1
	}
	if sn.Progress != nil {
		sn.Progress(1, passes, math.NaN())
	}
	q, ns := y.Cols, len(ks)
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
	adds, dones := make([]func(kb, yb *linalg.Dense), ns), make([]func(), ns)
	for s, st := range stats {
		adds[s], dones[s] = decomp.NystromRows(st, q)
	}
	eachWidth(w, func(s, i0 int, kb *linalg.Dense) {
		adds[s](kb, y.Slice(i0, i0+kb.Rows, 0, q))
	})
	for _, done := range dones {
		done()
	}
	paths, idx := make([][]*NystromStream, ns), make([][][]int, ns)
	var es linalg.EigenSym // one workspace for every σ's eigendecomposition
	for s, st := range stats {
		if paths[s], idx[s], err = sn.paths(st, &es); err != nil {
			return err
		}
	}
	errs := make([][]error, ns)
	if sn.Criterion != GCV {
		if sn.Progress != nil {
			sn.Progress(2, passes, math.NaN())
		}
		if lx != x {
			if w, err = kernels.NewWidths(ks, lx, sn.Centers); err != nil {
				return check.Wrap(ErrInput, op, "X", err)
			}
		}
		acc := make([][]*streamPass, ns)
		for s, ps := range paths {
			for _, p := range ps {
				acc[s] = append(acc[s], p.begin())
			}
		}
		var ws streamWork
		eachWidth(w, func(s, i0 int, kb *linalg.Dense) {
			yb := ly.Slice(i0, i0+kb.Rows, 0, q)
			for _, a := range acc[s] {
				a.block(&ws, kb, yb)
			}
		})
		for s := range acc {
			for _, a := range acc[s] {
				errs[s] = append(errs[s], a.commit("NystromStream.Add", lx.Rows))
			}
		}
	}
	for s, sg := range sn.Sigmas {
		sn.record(sel, best, sg, stats[s], paths[s], idx[s], errs[s], lx, ly)
	}
	return nil
}

// eachWidth calls f(s, i0, kb) for every block of passRows(m) rows of the
// matrices of w, in order, and within a block for every width s in order,
// with kb holding rows [i0, i0+kb.Rows) of K_s; the distances of each
// block are computed once. kb is workspace, valid during the call only.
func eachWidth(w *kernels.Widths, f func(s, i0 int, kb *linalg.Dense)) {
	n, m := w.Dims()
	b := passRows(m)
	var sh, kb linalg.Dense
	for i0 := 0; i0 < n; i0 += b {
		i1 := min(i0+b, n)
		shared := w.SharedTo(reuse(&sh, i1-i0, m), i0, i1)
		for s := range w.Len() {
			f(s, i0, w.KernelTo(reuse(&kb, i1-i0, m), shared, s, i0))
		}
	}
}
