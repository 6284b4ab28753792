package regress

import (
	"math"

	"rkhs/internal/center"
	"rkhs/internal/check"
	"rkhs/internal/parallel"
	"rkhs/kernels"
	"rkhs/linalg"
)

// Folding rows into NystromStats. The rows of K_nm are taken in groups of
// NystromGroupRows; the features of up to four groups (NystromBatchRows
// rows) come from one triangular solve, and each group is folded into the
// statistics by the merge formula (addBlock: one linalg.Syrk and one
// linalg.Gemm over the group and a correction column). Add evaluates K_nm
// a block at a time and folds each block by AddKernelRows; a caller that
// evaluates K_nm itself (one pass for the kernels of several widths, see
// kernels.Widths) calls AddKernelRows with its blocks.

// Rows of the groups the statistics fold at a time.
const (
	// NystromGroupRows is the number of rows NystromStats folds into its
	// moments at a time (one symmetric rank-k update of M): enough that
	// the update runs near the speed of a large linalg.Syrk, few enough
	// that the workspace (2 KiB per centre and group) stays small beside
	// M. AddKernelRows counts its groups from the first row of each block.
	NystromGroupRows = addBlockRows
	// NystromBatchRows is the number of rows whose features one triangular
	// solve (linalg.Trsm) gives, four groups: a wider solve runs faster,
	// so blocks of a multiple of it fold fastest.
	NystromBatchRows = addGroups * addBlockRows
)

// addBlockRows is NystromGroupRows; addGroups is the number of groups of a
// batch, and addGroupCols the columns of the workspace each takes: its
// rows, the correction column of addBlock and padding to a multiple of 8,
// so that every group starts on the same column of the micro-tiles of
// Trsm's products.
const (
	addBlockRows = 256
	addGroups    = 4
	addGroupCols = 264
)

// NystromWorkLen returns the number of values of the workspace in which
// NystromStats.AddKernelRows folds rows for m centres and q outputs:
// m·1056 + 1028·q, the transposed kernel rows of a batch of four groups
// (each padded to 264 columns) and their outputs. It panics if m or q is
// negative.
func NystromWorkLen(m, q int) int {
	if m < 0 || q < 0 {
		panic("regress: NystromWorkLen: negative size")
	}
	return m*addGroups*addGroupCols + addGroups*(addBlockRows+1)*q
}

// Add adds the rows of x (n×d) with the outputs y (n×q) to the statistics.
// It evaluates K_nm a block of rows at a time (kernels.Rows.Blocks, the
// rows split over the goroutines), never n×m, with blocks of
// kernels.BlockRows(m, kernels.GemmBlockElems) rows rounded down to a
// multiple of NystromGroupRows (at least one group), and folds each block
// in by AddKernelRows, in the statistics' own workspace. Neither x nor y
// is modified. On error the statistics are unchanged.
//
// Cost: 2md + 2m² flops and m kernel transforms a row (see NystromStats).
// Memory: a block of K_nm of at most 2²⁰ values (8 MiB) or one group of
// rows, whichever is more (pooled: Adds one after another reuse it), the
// workspace, NystromWorkLen(m, q) values, allocated by the first Add and
// kept, and the packing buffers of the triangular solve and the rank-k
// update, about 2m·KC doubles (see linalg.Gemm), none of it growing with
// GOMAXPROCS.
//
// Errors wrap ErrInput: the zero value; x or y nil, malformed, without
// rows or not finite (also linalg.ErrNotFinite); y of a magnitude whose
// squares overflow (above 1e150: check.SquareLimit); x not of d columns;
// y not of n rows, or not of the q columns of the rows added before;
// kernel values that overflow (also kernels.ErrData).
func (s *NystromStats) Add(x, y *linalg.Dense) error {
	const op = "NystromStats.Add"
	if err := s.ready(op); err != nil {
		return err
	}
	if err := checkXY(op, x, y); err != nil {
		return err
	}
	if err := check.NotHuge(ErrInput, op, "Y", y); err != nil {
		return err
	}
	if x.Cols != s.centers.Cols {
		return inputError(op, "X", "%d columns, the centres have %d", x.Cols, s.centers.Cols)
	}
	if s.q > 0 && y.Cols != s.q {
		return inputError(op, "Y", "%d columns, the statistics have %d outputs", y.Cols, s.q)
	}
	if err := s.factor(op); err != nil {
		return err
	}
	rows, err := kernels.NewRows(s.kernel, x, s.centers)
	if err != nil {
		return kernelError(op, "X", err)
	}
	m, q := s.centers.Rows, y.Cols
	if len(s.work) < NystromWorkLen(m, q) {
		s.work = make([]float64, NystromWorkLen(m, q))
	}
	b := max(addBlockRows, kernels.BlockRows(m, kernels.GemmBlockElems)/addBlockRows*addBlockRows)
	for i0, kb := range rows.Blocks(b) {
		s.fold(kb, y.Slice(i0, i0+kb.Rows, 0, q), s.work)
	}
	return nil
}

// AddKernelRows adds rows of the training set to the statistics, given by
// their rows of K_nm: kb (b×m) holds k(xᵢ, C) for the statistics' kernel
// and centres, the values kernels.Rows gives, and yb (b×q) the outputs.
// It folds every row in before it returns, in groups of NystromGroupRows
// counted from the first row of kb, so that nothing is left between
// calls: the same rows added by Add(X, Y), or by AddKernelRows in blocks
// of any sizes that are multiples of NystromGroupRows (the last one
// excepted), give bit-identical statistics. Values that are not rows of
// K_nm are summarised as given; the statistics cannot tell. Neither kb nor
// yb is modified. On error the statistics are unchanged.
//
// work is where the rows are folded: nil for the statistics' own
// workspace (allocated by the first call and kept), or a slice of at
// least NystromWorkLen(m, q) values the caller owns. Its contents are
// ignored on entry and unspecified on return, so one slice can serve the
// statistics of several kernels filled block by block in turn, and
// anything else between calls.
//
// Cost: 2m² flops a row (the triangular solve for the features and the
// rank-k update of M) and O(m) more, besides a scan of kb and yb for
// values that are not finite. Memory: the workspace, and O(m + q) values
// a group.
//
// Errors wrap ErrInput: the zero value; kb or yb nil, malformed, without
// rows or not finite (also linalg.ErrNotFinite); yb of a magnitude whose
// squares overflow (above 1e150); kb not of m columns; yb
// not of kb's rows, or not of the q columns of the rows added before; a
// work shorter than NystromWorkLen(m, q).
func (s *NystromStats) AddKernelRows(kb, yb *linalg.Dense, work []float64) error {
	const op = "NystromStats.AddKernelRows"
	if err := s.ready(op); err != nil {
		return err
	}
	if err := check.Data(ErrInput, op, "kb", kb, 1); err != nil {
		return err
	}
	if err := check.Data(ErrInput, op, "yb", yb, 1); err != nil {
		return err
	}
	if err := check.NotHuge(ErrInput, op, "yb", yb); err != nil {
		return err
	}
	m := s.centers.Rows
	switch {
	case kb.Cols != m:
		return inputError(op, "kb", "%d columns, the statistics have %d centres", kb.Cols, m)
	case yb.Rows != kb.Rows:
		return inputError(op, "yb", "%d rows, kb has %d", yb.Rows, kb.Rows)
	case s.q > 0 && yb.Cols != s.q:
		return inputError(op, "yb", "%d columns, the statistics have %d outputs", yb.Cols, s.q)
	case work != nil && len(work) < NystromWorkLen(m, yb.Cols):
		return inputError(op, "work", "%d values, want at least NystromWorkLen(%d, %d) = %d", len(work), m, yb.Cols, NystromWorkLen(m, yb.Cols))
	}
	if err := s.factor(op); err != nil {
		return err
	}
	if work == nil {
		if len(s.work) < NystromWorkLen(m, yb.Cols) {
			s.work = make([]float64, NystromWorkLen(m, yb.Cols))
		}
		work = s.work
	}
	s.fold(kb, yb, work)
	return nil
}

// fold folds the rows kb of K_nm with their outputs yb (kb.Rows×q), both
// checked, into the statistics in work (NystromWorkLen(m, q) values): a
// batch of up to addGroups groups at a time, each group's rows transposed
// into its columns of the workspace and its outputs into its rows of the
// outputs' part, then folded by foldGroups.
func (s *NystromStats) fold(kb, yb *linalg.Dense, work []float64) {
	m, q := s.centers.Rows, yb.Cols
	if s.q == 0 {
		s.q = q
		s.ybar = make([]float64, q)
		s.cy = linalg.NewDense(m, q, nil)
		s.syy = make([]float64, q)
	}
	cols, yrows := addGroups*addGroupCols, addGroups*(addBlockRows+1)
	bt := linalg.NewDense(m, cols, work[:m*cols])
	ybuf := linalg.NewDense(yrows, q, work[m*cols:m*cols+yrows*q])
	for i0 := 0; i0 < kb.Rows; i0 += addGroups * addBlockRows {
		i1 := min(i0+addGroups*addBlockRows, kb.Rows)
		ng := 0
		for g0 := i0; g0 < i1; g0 += addBlockRows {
			g1 := min(g0+addBlockRows, i1)
			y0 := ng * (addBlockRows + 1)
			transposeInto(bt, ng*addGroupCols, kb.Slice(g0, g1, 0, m))
			ybuf.Slice(y0, y0+g1-g0, 0, q).Copy(yb.Slice(g0, g1, 0, q))
			ng++
		}
		s.foldGroups(bt, ybuf, ng, i1-i0-(ng-1)*addBlockRows)
	}
}

// transposeInto copies the rows of a into columns c0, c0+1, … of dst, the
// rows of dst split over the goroutines (a copy: the split changes no
// value).
func transposeInto(dst *linalg.Dense, c0 int, a *linalg.Dense) {
	m := a.Cols
	p := parallel.Team(m, float64(m)*float64(a.Rows), 1<<15)
	chunks := parallel.NewChunks(m, p, 8)
	parallel.For(p, chunks.Count(), parallel.Func(func(_, c int) {
		lo, hi := chunks.Bounds(c)
		for ii := range a.Rows {
			row := a.Row(ii)
			for j := lo; j < hi; j++ {
				dst.Data[j*dst.Stride+c0+ii] = row[j]
			}
		}
	}))
}

// foldGroups folds the first ng groups of the workspace bt (m×1056, the
// transposed kernel rows) and ybuf (1028×q, their outputs) into the
// statistics, all full but the last, which holds last rows: one
// linalg.Trsm solves for the features of all of them (m²·r flops for r
// rows), then addBlock folds each group in, in order. The columns of a
// triangular solve are solved independently, so the features, and the
// statistics, are those of one solve per group, bit for bit.
func (s *NystromStats) foldGroups(bt, ybuf *linalg.Dense, ng, last int) {
	m := s.mm.Rows
	linalg.Trsm(linalg.Lower, linalg.NoTrans, s.l, bt.Slice(0, m, 0, (ng-1)*addGroupCols+last))
	for g := 0; g < ng; g++ {
		r := addBlockRows
		if g == ng-1 {
			r = last
		}
		s.addBlock(bt, ybuf, g, r)
	}
}

// addBlock folds group grp of the workspace, the first r columns of its
// part of bt the features of r rows (transposed, B_bᵀ = L⁻¹K_bᵀ, solved
// by foldGroups) and its rows of ybuf their outputs, into the statistics,
// overwriting the workspace. The features are centred on their own means
// μ_b, and ȳ_b likewise; column r of the group (row r of the outputs)
// becomes √(n·r/(n + r))·(μ_b − μ), so that one Syrk and one Gemm over
// r + 1 columns add both the block's moments and the correction of the
// merge formula.
func (s *NystromStats) addBlock(bts, ybuf *linalg.Dense, grp, r int) {
	m, q := s.mm.Rows, s.q
	bt := bts.Slice(0, m, grp*addGroupCols, grp*addGroupCols+r+1)
	y0 := grp * (addBlockRows + 1)
	yb := ybuf.Slice(y0, y0+r+1, 0, q)
	na, nb := float64(s.n), float64(r)
	nt := na + nb
	g := math.Sqrt(na * nb / nt)
	s.means = centerRows(bt.Slice(0, m, 0, r), s.means)
	mB := s.means
	for j, mb := range mB {
		bt.Set(j, r, g*(mb-s.mu[j]))
		s.mu[j] += nb / nt * (mb - s.mu[j])
	}
	yc := yb.Slice(0, r, 0, q)
	yB := center.Means(yc)
	center.SubtractTo(yc, yc, yB)
	ycorr := yb.Row(r)
	for k := range ycorr {
		ycorr[k] = g * (yB[k] - s.ybar[k])
		s.ybar[k] += nb / nt * (yB[k] - s.ybar[k])
	}
	// M += B_cᵀB_c, C += B_cᵀY_c over the r centred rows and the
	// correction.
	linalg.Syrk(linalg.Lower, linalg.NoTrans, 1, bt, 1, s.mm)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, bt, yb, 1, s.cy)
	for i := 0; i <= r; i++ {
		for k, v := range yb.Row(i) {
			s.syy[k] += v * v
		}
	}
	s.n += r
}
