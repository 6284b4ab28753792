package regress

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"

	"rkhs/internal/center"
	"rkhs/internal/check"
	"rkhs/internal/memlimit"
	"rkhs/internal/parallel"
	"rkhs/kernels"
	"rkhs/linalg"
)

// NystromStats holds the sufficient statistics of a Nyström fit (see
// Nystrom) with fixed centres C (m×d) and kernel k: everything the solve
// needs from the n training rows is a sum over them, so the rows can be
// split into shards, each shard summarised anywhere (another goroutine,
// process or machine), and the summaries merged and solved.
//
// The statistics are those of the features of Nystrom.Fit, bᵢ = L⁻¹kᵢ
// with kᵢ the row k(xᵢ, C) of K_nm and L the Cholesky factor of K_mm
// (+ δI, Nystrom's jitter when K_mm is not numerically positive definite),
// so that the solve is Nystrom's ridge problem on B = K_nm·L⁻ᵀ and agrees
// with it to the rounding of that problem, however badly K_mm is
// conditioned. With yᵢ the q outputs of row i they are
//
//	n,  μ = (1/n)Σᵢbᵢ (m),  ȳ = (1/n)Σᵢyᵢ (q),
//	M = Σᵢ(bᵢ − μ)(bᵢ − μ)ᵀ (m×m, its lower triangle),
//	C = Σᵢ(bᵢ − μ)(yᵢ − ȳ)ᵀ (m×q),  s = Σᵢ(yᵢ − ȳ)² (q),
//
// from which BᵀB = M + nμμᵀ, BᵀY = C + nμȳᵀ, K_nmᵀK_nm = L·BᵀB·Lᵀ,
// K_nmᵀ1 = nLμ, 1ᵀY = nȳ and yᵀy = s + nȳ² follow. The centred form is
// what the free intercept needs without cancellation. Two sets of
// statistics a and b (nₐ and n_b rows, δ = μ_b − μₐ) merge as
//
//	n = nₐ + n_b,  μ = μₐ + (n_b/n)·δ,  M = Mₐ + M_b + (nₐn_b/n)·δδᵀ
//
// and the same for ȳ, C and s (Chan, Golub and LeVeque, "Updating formulae
// and a pairwise algorithm for computing sample variances", 1979). Add
// folds each block of rows in with the same update.
//
// Order of merges: the result depends on how the rows were grouped into
// Add calls and on the order of the merges only through rounding (the
// statistics agree to a few ulps of their size times the depth of the
// merges); the same rows added in the same groups and merged in the same
// order give bit-identical statistics for any GOMAXPROCS.
//
// Memory: m(2m + q + d + 2) doubles (M and L), a workspace of 1056 rows
// of K_nm (8.25 KiB·m), and during Add a block of K_nm of about 2²⁰ doubles
// (8 MiB; at least 256 rows). Cost: NewNystromStats m³/3 flops (L); Add 2md + 2m²
// flops per row (the kernel, the triangular solve for bᵢ, and the
// symmetric rank-k update of M by linalg.Syrk) and m kernel transforms;
// Merge 2m² flops; Solve m³/3 flops (its Cholesky factorization; m³/3
// more the first time after UnmarshalBinary, to recompute L).
//
// A NystromStats is made by NewNystromStats or, as the zero value, by
// UnmarshalBinary (which recomputes L when Add or Solve first needs it);
// the other methods of the zero value return an error. It is not safe for
// concurrent use while a method runs.
type NystromStats struct {
	kernel  kernels.Kernel
	spec    []byte        // JSON of kernels.SpecOf(kernel)
	centers *linalg.Dense // m×d, compact, owned
	fp      [32]byte      // fingerprint of the kernel and the centres
	jitter  float64       // δ of L
	l       *linalg.Dense // L = chol(K_mm + δI), nil until needed after UnmarshalBinary

	n, q int
	mu   []float64     // m
	ybar []float64     // q
	mm   *linalg.Dense // m×m, lower triangle
	cy   *linalg.Dense // m×q
	syy  []float64     // q

	bt, ybuf *linalg.Dense // workspace of Add: m×(addGroups·addGroupCols) and addGroups·(addBlockRows+1)×q
}

// addBlockRows is the number of rows of K_nm that Add gathers before it
// solves for their features and updates M with one linalg.Syrk (addBlock):
// enough that the update runs near the speed of a large Syrk, few enough
// that the workspace (2 KiB per centre) stays small beside M.
const addBlockRows = 256

// addGroups is the number of groups of addBlockRows rows whose features
// one linalg.Trsm solves for (a wider solve runs faster), and
// addGroupCols the columns of the workspace each takes: its rows, the
// correction column of addBlock and padding to a multiple of 8, so that
// every group starts on the same column of the micro-tiles of Trsm's
// products.
const (
	addGroups    = 4
	addGroupCols = 264
)

// NewNystromStats returns empty statistics (n = 0) for the kernel k and the
// centres (m×d), which it copies, and factors K_mm (+ δI) as Nystrom does.
// The number of outputs q is set by the first Add or Merge.
//
// Errors wrap ErrInput: a nil or invalid kernel (also kernels.ErrParameter),
// a kernel not of package kernels (statistics are identified by the
// kernel's Spec), centres nil, empty, malformed or not finite, or two
// identical centre rows (K_mm would be singular); a *linalg.MemoryError
// (linalg.ErrTooLarge) if the three m×m matrices it needs do not fit; or
// linalg.ErrNotPositiveDefinite if K_mm fails even with the largest jitter.
func NewNystromStats(k kernels.Kernel, centers *linalg.Dense) (*NystromStats, error) {
	const op = "NewNystromStats"
	if err := checkKernel(op, k); err != nil {
		return nil, err
	}
	spec, err := kernels.SpecOf(k)
	if err != nil {
		return nil, kernelError(op, "Kernel", err)
	}
	if err := check.Data(ErrInput, op, "centers", centers, 1); err != nil {
		return nil, err
	}
	if i, j, ok := duplicateRow(centers); ok {
		return nil, inputError(op, "centers", "rows %d and %d are identical (K_mm would be singular)", i, j)
	}
	m := centers.Rows
	// K_mm and L, M, and the workspace of Add.
	if err := memlimit.Check(op, memlimit.Sum(memlimit.Floats(3, m, m), memlimit.Floats(m, addGroups*addGroupCols))); err != nil {
		return nil, err
	}
	js, _ := json.Marshal(spec) // a Spec always marshals
	s := &NystromStats{kernel: k, spec: js, centers: centers.Clone()}
	s.fp = fingerprint(js, s.centers)
	if err := s.factor(op); err != nil {
		return nil, err
	}
	s.mu = make([]float64, m)
	s.mm = linalg.NewDense(m, m, nil)
	return s, nil
}

// factor computes L = chol(K_mm + δI) with Nystrom's jitter, if not done
// yet; the statistics of a file must have been made with the same δ.
func (s *NystromStats) factor(op string) error {
	if s.l != nil {
		return nil
	}
	l, err := kernels.GramTo(nil, s.kernel, s.centers, linalg.Lower)
	if err != nil {
		return kernelError(op, "centers", err)
	}
	jitter, err := factorInPlaceWithJitter(l, func(a *linalg.Dense) {
		kernels.GramTo(a, s.kernel, s.centers, linalg.Lower) // the values of the first call, which succeeded
	})
	if err != nil {
		return fmt.Errorf("regress: Nyström K_mm: %w", err)
	}
	if s.mu != nil && jitter != s.jitter { // decoded statistics
		return inputError(op, "NystromStats", "made with the jitter δ = %g of K_mm, this build needs δ = %g", s.jitter, jitter)
	}
	s.jitter, s.l = jitter, l
	return nil
}

// fingerprint is the SHA-256 of the kernel's Spec (JSON) and of the shape
// and bits of the centres: statistics with different fingerprints cannot
// be merged.
func fingerprint(spec []byte, c *linalg.Dense) [32]byte {
	h := sha256.New()
	h.Write([]byte("rkhs.regress.NystromStats\x00"))
	h.Write(spec)
	var w [8]byte
	binary.LittleEndian.PutUint64(w[:], uint64(c.Rows))
	h.Write(w[:])
	binary.LittleEndian.PutUint64(w[:], uint64(c.Cols))
	h.Write(w[:])
	for _, v := range c.Data {
		binary.LittleEndian.PutUint64(w[:], math.Float64bits(v))
		h.Write(w[:])
	}
	var fp [32]byte
	h.Sum(fp[:0])
	return fp
}

// Kernel returns the kernel the statistics are for (nil for the zero value).
func (s *NystromStats) Kernel() kernels.Kernel { return s.kernel }

// Centers returns a copy of the centres (nil for the zero value).
func (s *NystromStats) Centers() *linalg.Dense {
	if s.centers == nil {
		return nil
	}
	return s.centers.Clone()
}

// Rows returns n, the number of training rows summarised so far.
func (s *NystromStats) Rows() int { return s.n }

// Outputs returns q, the number of outputs (0 before the first rows).
func (s *NystromStats) Outputs() int { return s.q }

// Reset empties the statistics (n = 0, q = 0), keeping the kernel, the
// centres and the factor of K_mm, so that one value can summarise shard
// after shard without factoring K_mm again. It does nothing to the zero
// value.
func (s *NystromStats) Reset() {
	if s.centers == nil {
		return
	}
	s.n, s.q = 0, 0
	clear(s.mu)
	s.mm.Zero()
	s.ybar, s.cy, s.syy = nil, nil, nil
}

// ready reports the zero value.
func (s *NystromStats) ready(op string) error {
	if s == nil || s.centers == nil {
		return inputError(op, "NystromStats", "zero value: make it with NewNystromStats or UnmarshalBinary")
	}
	return nil
}

// Add adds the rows of x (n×d) with the outputs y (n×q) to the statistics,
// computing the rows of K_nm a block of about 2²⁰ values at a time
// (kernels.Rows.BlockTo, the rows split over the goroutines), never n×m. Neither x nor y is modified. On error the statistics are
// unchanged.
//
// Errors wrap ErrInput: the zero value; x or y nil, malformed, without
// rows or not finite (also linalg.ErrNotFinite); x not of d columns; y not
// of n rows, or not of the q columns of the rows added before; kernel
// values that overflow (also kernels.ErrData).
func (s *NystromStats) Add(x, y *linalg.Dense) error {
	const op = "NystromStats.Add"
	if err := s.ready(op); err != nil {
		return err
	}
	if err := checkXY(op, x, y); err != nil {
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
	f := s.folder(y.Cols)
	b := addRows(s.centers.Rows)
	kb := linalg.NewDense(min(b, x.Rows), s.centers.Rows, nil)
	for i0 := 0; i0 < x.Rows; i0 += b {
		i1 := min(i0+b, x.Rows)
		f.add(rows.BlockTo(kb.Slice(0, i1-i0, 0, kb.Cols), i0, i1), y.Slice(i0, i1, 0, y.Cols))
	}
	f.flush()
	return nil
}

// addRows returns the number of rows of K_nm (m columns) that Add
// evaluates at a time: about 2²⁰ values (8 MiB), enough that the kernel
// evaluation is split well over the goroutines (Rows.BlockTo), and never
// fewer than a group of addBlock. How the rows are grouped for the update
// does not depend on it.
func addRows(m int) int {
	return max(addBlockRows, min(1<<20/max(m, 1), 1<<14))
}

// rowFolder folds rows of K_nm into the statistics addBlockRows at a
// time (addBlock), whatever the sizes of the blocks it is given: the rows
// fill the columns of the groups of s.bt, and every addGroups full groups
// are solved for their features by one linalg.Trsm and folded in.
type rowFolder struct {
	s    *NystromStats
	g    int // the group being filled
	fill int // its rows
}

// folder returns a rowFolder for rows with q outputs, setting the number
// of outputs and the workspace up on first use.
func (s *NystromStats) folder(q int) *rowFolder {
	m := s.centers.Rows
	if s.q == 0 {
		s.q = q
		s.ybar = make([]float64, q)
		s.cy = linalg.NewDense(m, q, nil)
		s.syy = make([]float64, q)
	}
	if s.bt == nil {
		s.bt = linalg.NewDense(m, addGroups*addGroupCols, nil)
	}
	if s.ybuf == nil || s.ybuf.Cols != q {
		s.ybuf = linalg.NewDense(addGroups*(addBlockRows+1), q, nil)
	}
	return &rowFolder{s: s}
}

// add folds in the rows kb of K_nm with their outputs yb (kb.Rows×q).
func (f *rowFolder) add(kb, yb *linalg.Dense) {
	s, q := f.s, f.s.q
	for i := 0; i < kb.Rows; {
		r := min(kb.Rows-i, addBlockRows-f.fill)
		c0, y0 := f.g*addGroupCols+f.fill, f.g*(addBlockRows+1)+f.fill
		transposeInto(s.bt, c0, kb.Slice(i, i+r, 0, kb.Cols))
		s.ybuf.Slice(y0, y0+r, 0, q).Copy(yb.Slice(i, i+r, 0, q))
		f.fill, i = f.fill+r, i+r
		if f.fill == addBlockRows {
			f.g, f.fill = f.g+1, 0
			if f.g == addGroups {
				s.foldGroups(addGroups, addBlockRows)
				f.g = 0
			}
		}
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

// flush folds in the groups filled so far, the last one possibly not
// full.
func (f *rowFolder) flush() {
	switch {
	case f.fill > 0:
		f.s.foldGroups(f.g+1, f.fill)
	case f.g > 0:
		f.s.foldGroups(f.g, addBlockRows)
	}
	f.g, f.fill = 0, 0
}

// foldGroups folds the first ng groups of s.bt into the statistics, all
// full but the last, which holds last rows: one linalg.Trsm solves for the
// features of all of them (m²·r flops for r rows), then addBlock folds
// each group in, in order. The columns of a triangular solve are solved
// independently, so the features, and the statistics, are those of one
// solve per group, bit for bit.
func (s *NystromStats) foldGroups(ng, last int) {
	m := s.mm.Rows
	linalg.Trsm(linalg.Lower, linalg.NoTrans, s.l, s.bt.Slice(0, m, 0, (ng-1)*addGroupCols+last))
	for g := 0; g < ng; g++ {
		r := addBlockRows
		if g == ng-1 {
			r = last
		}
		s.addBlock(g, r)
	}
}

// addBlock folds group grp of s.bt, its first r columns the features of r
// rows (transposed, B_bᵀ = L⁻¹K_bᵀ, solved by foldGroups), and the rows of
// s.ybuf of that group (their outputs) into the statistics, overwriting
// the workspace. The features are centred on their own means μ_b, and ȳ_b
// likewise; column r of the group (row r of the outputs) becomes
// √(n·r/(n + r))·(μ_b − μ), so that one Syrk and one Gemm over r + 1
// columns add both the block's moments and the correction of the merge
// formula.
func (s *NystromStats) addBlock(grp, r int) {
	m, q := s.mm.Rows, s.q
	bt := s.bt.Slice(0, m, grp*addGroupCols, grp*addGroupCols+r+1)
	y0 := grp * (addBlockRows + 1)
	yb := s.ybuf.Slice(y0, y0+r+1, 0, q)
	na, nb := float64(s.n), float64(r)
	nt := na + nb
	g := math.Sqrt(na * nb / nt)
	mB := centerRows(bt.Slice(0, m, 0, r))
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

// Merge adds the statistics of o, for other rows, to those of s by the
// formula in the type's documentation; o is not modified. Merging
// statistics of no rows changes nothing; merging into them copies o.
//
// Errors wrap ErrInput: the zero value (s or o), statistics of another
// kernel or centre set (their fingerprints differ), or of a different
// number of outputs. On error s is unchanged.
func (s *NystromStats) Merge(o *NystromStats) error {
	const op = "NystromStats.Merge"
	if err := s.ready(op); err != nil {
		return err
	}
	if o == nil || o.centers == nil {
		return inputError(op, "o", "zero value: make it with NewNystromStats or UnmarshalBinary")
	}
	if o.fp != s.fp {
		return inputError(op, "o", "statistics of another kernel or centre set: %s, want %s", o.describe(), s.describe())
	}
	if o.jitter != s.jitter {
		return inputError(op, "o", "made with the jitter δ = %g of K_mm, want δ = %g", o.jitter, s.jitter)
	}
	if o.n == 0 {
		return nil
	}
	if s.q > 0 && o.q != s.q {
		return inputError(op, "o", "%d outputs, want %d", o.q, s.q)
	}
	m, q := s.mm.Rows, o.q
	if s.n == 0 {
		s.q, s.n = q, o.n
		copy(s.mu, o.mu)
		s.ybar = append([]float64(nil), o.ybar...)
		s.mm.Copy(o.mm)
		s.cy = o.cy.Clone()
		s.syy = append([]float64(nil), o.syy...)
		return nil
	}
	na, nb := float64(s.n), float64(o.n)
	nt := na + nb
	f := na * nb / nt
	d := make([]float64, m)
	for j := range d {
		d[j] = o.mu[j] - s.mu[j]
	}
	dy := make([]float64, q)
	for k := range dy {
		dy[k] = o.ybar[k] - s.ybar[k]
	}
	for i := 0; i < m; i++ {
		row, orow := s.mm.Row(i)[:i+1], o.mm.Row(i)[:i+1]
		fi := f * d[i]
		for j := range row {
			row[j] += orow[j] + fi*d[j]
		}
		crow, ocrow := s.cy.Row(i), o.cy.Row(i)
		for k := range crow {
			crow[k] += ocrow[k] + fi*dy[k]
		}
	}
	center.Merge(s.n, s.ybar, s.syy, o.n, o.ybar, o.syy)
	for j := range d {
		s.mu[j] += nb / nt * d[j]
	}
	s.n += o.n
	return nil
}

// describe names the kernel, the shape of the centres and the start of the
// fingerprint, for errors.
func (s *NystromStats) describe() string {
	return fmt.Sprintf("kernel %s with %d×%d centres (fingerprint %x)", s.spec, s.centers.Rows, s.centers.Cols, s.fp[:6])
}
