package interval

import (
	"fmt"
	"math"
	"math/bits"
	"slices"

	"rkhs/internal/check"
	"rkhs/internal/memlimit"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// Streamed CV+ for Nyström (and Falkon) fits.
//
// Rows that never sit in memory together get CV+ in two passes. The
// first (FoldStats.Add) sends each row to its fold, drawn from the seed
// and the row's number alone (StreamFold), and sums one
// regress.NystromStats per fold (and per σ of a grid); the statistics of
// all rows are their merge, so the pass costs what the fit's own pass
// costs. Fold k's model solves the merge of the other folds' statistics
// (FoldStats.Models at one λ, FoldStats.Choose with each fold's own GCV
// choice): exactly the Nyström fit without fold k on the same centres,
// to the rounding of the merges. The second pass (CVPass.Add) predicts
// each row with its fold's model and keeps |yᵢ − μ̂₋ₖ₍ᵢ₎(xᵢ)|, 8 bytes a
// row and output; CVPass.CV sorts them into a CV. Both passes may be
// split over shards (rows numbered from any first row), which merge.
//
// A Falkon fit converges to the Nyström fit on its centres, so the fold
// models of its CV+ are these, computed from the statistics rather than
// by K more Falkon fits; the intervals are then those of the Nyström fit
// that Falkon approximates.

// StreamFold returns the fold, among k, of row i for seed: a hash of the
// seed and i (SplitMix64, Steele, Lea and Flood, "Fast splittable
// pseudorandom number generators", 2014) scaled to 0…k−1, so that any
// shard of the rows finds the same folds. The folds' sizes are then
// random (multinomial, each about n/k), not equal as Folds draws them. It
// panics if k < 1.
func StreamFold(seed uint64, i, k int) int {
	if k < 1 {
		panic("interval: StreamFold: fewer than 1 fold")
	}
	z := seed + uint64(i+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	hi, _ := bits.Mul64(z, uint64(k))
	return int(hi)
}

// foldBatch is the number of rows a fold buffers before folding them into
// its statistics: one batch of NystromStats' fastest fold.
const foldBatch = regress.NystromBatchRows

// FoldStats sums the regress.NystromStats of each of K folds, and of each
// kernel of a grid, in one pass over rows numbered from a first row: row
// first + r of the rows added goes to fold StreamFold(seed, first + r, K).
// Rows are buffered per fold and folded a batch of foldBatch at a time,
// so the statistics do not depend on how the rows are cut into Add calls.
// A FoldStats is not safe for concurrent use; shards use one each and
// Merge them.
type FoldStats struct {
	kernels []kernels.Kernel
	centers *linalg.Dense
	k       int
	seed    uint64
	first   int
	seen    int

	stats [][]*regress.NystromStats // [kernel][fold]
	xb    []*linalg.Dense           // per fold, foldBatch×d
	yb    []*linalg.Dense           // per fold, foldBatch×q, once q is known
	nb    []int                     // rows buffered per fold
	q     int
	kb    *linalg.Dense // foldBatch×m kernel rows
	work  []float64     // NystromWorkLen(m, q)
}

// NewFoldStats prepares the statistics of folds ≥ 2 folds for each kernel
// of ks (one for a fixed kernel; the kernels of a σ grid for
// FoldStats.Choose) on the centres (m×d, copied by each statistics), for
// rows numbered from first (0 for the whole data set; a shard's first
// row otherwise).
//
// Memory: K·S statistics (L and M, 2m² values each, K_mm besides while
// each is made), a batch of foldBatch rows per fold and one of kernel
// rows, and the workspace of regress.NystromStats.AddKernelRows: about
// 8·[K·S·2m² + 1024·(K·(d + q) + 2m)] bytes (320 MiB for m = 1000,
// K = 10, S = 1, d = 10, q = 1), checked before allocating
// (*linalg.MemoryError, linalg.ErrTooLarge).
//
// Errors (ErrInput): no kernel, folds < 2, first < 0, and those of
// regress.NewNystromStats for the kernels and centres.
func NewFoldStats(ks []kernels.Kernel, centers *linalg.Dense, folds int, seed uint64, first int) (*FoldStats, error) {
	const op = "NewFoldStats"
	if len(ks) == 0 {
		return nil, inputError(op, "ks", "no kernel")
	}
	if folds < 2 {
		return nil, inputError(op, "folds", "%d folds, CV+ needs at least 2", folds)
	}
	if first < 0 {
		return nil, inputError(op, "first", "row %d: rows are numbered from 0", first)
	}
	if err := check.Data(ErrInput, op, "centers", centers, 1); err != nil {
		return nil, err
	}
	m, d := centers.Rows, centers.Cols
	if err := memlimit.Check(op, memlimit.Sum(
		memlimit.Floats(folds*len(ks), m, 2*m+d+4),
		memlimit.Floats(foldBatch, folds*(d+1)+m),
		uint64(regress.NystromWorkLen(m, 1))*8)); err != nil {
		return nil, err
	}
	f := &FoldStats{kernels: slices.Clone(ks), centers: centers.Clone(), k: folds, seed: seed, first: first,
		stats: make([][]*regress.NystromStats, len(ks)), nb: make([]int, folds)}
	for s, kr := range ks {
		f.stats[s] = make([]*regress.NystromStats, folds)
		for j := range folds {
			st, err := regress.NewNystromStats(kr, centers)
			if err != nil {
				return nil, fitError(op, fmt.Sprintf("ks[%d]", s), err)
			}
			f.stats[s][j] = st
		}
	}
	f.xb = make([]*linalg.Dense, folds)
	for j := range f.xb {
		f.xb[j] = linalg.NewDense(foldBatch, d, nil)
	}
	return f, nil
}

// Add adds the rows x (b×d) with outputs y (b×q) to their folds: they
// are rows first + Rows() … of the data set. Neither is modified.
//
// Cost: that of regress.NystromStats.Add per kernel (2md + 2m² flops and
// m kernel transforms a row), a batch of foldBatch rows of a fold at a
// time.
//
// Errors (ErrInput): x or y nil, malformed, empty or not finite (also
// linalg.ErrNotFinite), y of a magnitude whose squares overflow, x not
// of the centres' width, y of another number of outputs than before;
// then those of the statistics (kernel values that overflow), after
// which the FoldStats should not be used.
func (f *FoldStats) Add(x, y *linalg.Dense) error {
	const op = "FoldStats.Add"
	if f == nil || f.stats == nil {
		return inputError(op, "FoldStats", "nil or zero: make it with NewFoldStats")
	}
	if err := check.XY(ErrInput, op, x, y, 1); err != nil {
		return err
	}
	if err := check.NotHuge(ErrInput, op, "Y", y); err != nil {
		return err
	}
	if x.Cols != f.centers.Cols {
		return inputError(op, "X", "%d columns, the centres have %d", x.Cols, f.centers.Cols)
	}
	if f.q == 0 {
		m := f.centers.Rows
		if err := memlimit.Check(op, memlimit.Sum(memlimit.Floats(f.k*foldBatch, y.Cols), uint64(regress.NystromWorkLen(m, y.Cols))*8)); err != nil {
			return err
		}
		f.setOutputs(y.Cols)
	} else if y.Cols != f.q {
		return inputError(op, "Y", "%d columns, the rows before had %d outputs", y.Cols, f.q)
	}
	for r := 0; r < x.Rows; r++ {
		j := StreamFold(f.seed, f.first+f.seen, f.k)
		copy(f.xb[j].Row(f.nb[j]), x.Row(r))
		copy(f.yb[j].Row(f.nb[j]), y.Row(r))
		f.nb[j]++
		f.seen++
		if f.nb[j] == foldBatch {
			if err := f.flush(op, j); err != nil {
				return err
			}
		}
	}
	return nil
}

// flush folds the rows buffered for fold j into its statistics of every
// kernel.
func (f *FoldStats) flush(op string, j int) error {
	nb := f.nb[j]
	if nb == 0 {
		return nil
	}
	xv, yv := f.xb[j].Slice(0, nb, 0, f.centers.Cols), f.yb[j].Slice(0, nb, 0, f.q)
	if f.kb == nil {
		f.kb = linalg.NewDense(foldBatch, f.centers.Rows, nil)
	}
	for s, kr := range f.kernels {
		rows, err := kernels.NewRows(kr, xv, f.centers)
		if err != nil {
			return fitError(op, "X", err)
		}
		kb := rows.BlockTo(f.kb.Slice(0, nb, 0, f.centers.Rows), 0, nb)
		if err := f.stats[s][j].AddKernelRows(kb, yv, f.work); err != nil {
			return fitError(op, fmt.Sprintf("ks[%d]", s), err)
		}
	}
	f.nb[j] = 0
	return nil
}

// flushAll folds every fold's buffered rows.
func (f *FoldStats) flushAll(op string) error {
	for j := range f.nb {
		if err := f.flush(op, j); err != nil {
			return err
		}
	}
	return nil
}

// Rows returns the number of rows added (by Add and Merge).
func (f *FoldStats) Rows() int {
	if f == nil {
		return 0
	}
	return f.seen
}

// Merge adds the folds of o, a shard of other rows with the same kernels,
// centres, number of folds and seed, to f; o's buffered rows are folded
// into its statistics first, and o is otherwise not modified. Merging in
// another order changes the statistics by rounding only. Errors
// (ErrInput): a nil o, or one of other kernels, centres, folds or seed.
// On error f is unchanged.
func (f *FoldStats) Merge(o *FoldStats) error {
	const op = "FoldStats.Merge"
	switch {
	case f == nil || f.stats == nil:
		return inputError(op, "FoldStats", "nil or zero: make it with NewFoldStats")
	case o == nil || o.stats == nil:
		return inputError(op, "o", "nil or zero: make it with NewFoldStats")
	case o.k != f.k || o.seed != f.seed:
		return inputError(op, "o", "%d folds of seed %d, want %d of seed %d", o.k, o.seed, f.k, f.seed)
	case len(o.kernels) != len(f.kernels):
		return inputError(op, "o", "%d kernels, want %d", len(o.kernels), len(f.kernels))
	case o.q != 0 && f.q != 0 && o.q != f.q:
		return inputError(op, "o", "%d outputs, want %d", o.q, f.q)
	}
	if err := o.flushAll(op); err != nil {
		return err
	}
	if err := f.flushAll(op); err != nil {
		return err
	}
	// Check every pair first, so that f is unchanged on error.
	for s := range f.stats {
		probe, err := regress.NewNystromStats(f.kernels[s], f.centers)
		if err != nil {
			return fitError(op, "o", err)
		}
		if err := probe.Merge(o.stats[s][0]); err != nil {
			return fitError(op, "o", err)
		}
		probe.Reset()
		if err := probe.Merge(f.stats[s][0]); err != nil {
			return fitError(op, "o", err)
		}
	}
	for s := range f.stats {
		for j, st := range o.stats[s] {
			if err := f.stats[s][j].Merge(st); err != nil {
				return fitError(op, "o", err)
			}
		}
	}
	if f.q == 0 && o.q != 0 {
		f.setOutputs(o.q)
	}
	f.seen += o.seen
	return nil
}

// Stats returns the statistics of the K folds for kernel s (shared, not
// copies: do not modify them), after folding the buffered rows. It
// panics if s is not an index of the kernels.
func (f *FoldStats) Stats(s int) ([]*regress.NystromStats, error) {
	if err := f.ready("FoldStats.Stats"); err != nil {
		return nil, err
	}
	return slices.Clone(f.stats[s]), nil
}

// ready folds the buffered rows and requires every fold to hold rows.
func (f *FoldStats) ready(op string) error {
	if f == nil || f.stats == nil {
		return inputError(op, "FoldStats", "nil or zero: make it with NewFoldStats")
	}
	if err := f.flushAll(op); err != nil {
		return err
	}
	if err := foldCount(op, "folds", f.k, f.seen); err != nil {
		return err
	}
	for j, st := range f.stats[0] {
		if st.Rows() == 0 {
			return inputError(op, fmt.Sprintf("fold %d", j), "no rows: a row's fold is a hash of the seed and its number (StreamFold), and none of the %d rows drew this one of %d folds; use fewer folds", f.seen, f.k)
		}
	}
	return nil
}

// FoldFits are the fold models of a streamed CV+ and the fit on all rows:
// what the second pass (Pass) needs.
type FoldFits struct {
	// Models[k] is the fit without fold k.
	Models []*regress.Model
	// Full is the fit on all rows.
	Full *regress.Model
	// Chosen and Choices are the σ and λ of Full and of each fold model
	// when each fold chose its own (FoldStats.Choose); zero and nil at
	// one fixed λ.
	Chosen  loo.Choice
	Choices []loo.Choice

	sizes []int // rows per fold
	seed  uint64
}

// Models returns the fold models and the full fit at λ (in the K + nλI
// convention of the n rows; fold models with the same penalty nλ, as
// FoldModels) with the intercept mode ic, for the one kernel of the
// FoldStats.
//
// Cost: FoldModels (K² merges of 2m² flops, K solves of m³/3) and one
// more merge and solve; memory that of FoldModels.
//
// Errors (ErrInput): more than one kernel (choose with Choose), a fold
// without rows; those of FoldModels and regress.NystromStats.Solve.
func (f *FoldStats) Models(lambda float64, ic regress.Intercept) (*FoldFits, error) {
	const op = "FoldStats.Models"
	if err := f.ready(op); err != nil {
		return nil, err
	}
	if len(f.kernels) != 1 {
		return nil, inputError(op, "FoldStats", "%d kernels: a fixed λ needs one kernel; choose among them with Choose", len(f.kernels))
	}
	models, err := FoldModels(f.stats[0], lambda, ic)
	if err != nil {
		return nil, err
	}
	all, err := regress.NewNystromStats(f.kernels[0], f.centers)
	if err != nil {
		return nil, fitError(op, "FoldStats", err)
	}
	for j, st := range f.stats[0] {
		if err := all.Merge(st); err != nil {
			return nil, fitError(op, fmt.Sprintf("fold %d", j), err)
		}
	}
	full, err := all.Solve(lambda, ic)
	if err != nil {
		return nil, fitError(op, "lambda", err)
	}
	return &FoldFits{Models: models, Full: full.Model, sizes: f.sizes(), seed: f.seed}, nil
}

// Choose returns the fold models and the full fit, each with the σ and λ
// that sn chooses by GCV from its own statistics (loo.SelectNystrom.
// FitStats): fold k's from the merge of the other folds', the full fit's
// from the merge of all. sn.Sigmas names the kernels of the FoldStats in
// order (sn.Kernel and sn.Centers are not read); sn.Criterion must be
// loo.GCV, since a leave-one-out choice per fold would need K more passes
// over the rows (NystromCVChosen makes them in memory). This is the
// honest CV+ of a selection (see RLSCVChosen).
//
// Cost: (K + 1)·S λ paths (9m³ flops each) and (K + 1)·K·S merges;
// memory one more set of statistics per kernel and one λ path.
//
// Errors (ErrInput): a criterion other than GCV, sn.Sigmas not of the
// kernels' number, a fold without rows; those of FitStats.
func (f *FoldStats) Choose(sn loo.SelectNystrom) (*FoldFits, error) {
	const op = "FoldStats.Choose"
	if err := f.ready(op); err != nil {
		return nil, err
	}
	if sn.Criterion != loo.GCV {
		return nil, inputError(op, "sn.Criterion", "%v: streamed folds choose by GCV from their statistics (leave-one-out would need a pass over the rows per fold)", sn.Criterion)
	}
	if len(sn.Sigmas) != len(f.kernels) {
		return nil, inputError(op, "sn.Sigmas", "%d σ for %d kernels", len(sn.Sigmas), len(f.kernels))
	}
	fits, err := chooseFolds(op, sn, f.stats, func(int) (*linalg.Dense, *linalg.Dense) { return nil, nil })
	if err != nil {
		return nil, err
	}
	fits.sizes, fits.seed = f.sizes(), f.seed
	return fits, nil
}

func (f *FoldStats) sizes() []int {
	s := make([]int, f.k)
	for j, st := range f.stats[0] {
		s[j] = st.Rows()
	}
	return s
}

// CVPass is the second pass of a streamed CV+: each row's absolute
// held-out residual from its fold's model, kept per fold and output. It
// is not safe for concurrent use; shards use one each and Merge them.
type CVPass struct {
	fits  *FoldFits
	first int
	seen  int
	res   [][][]float64 // [output][fold]: |yᵢ − μ̂₋ₖ₍ᵢ₎(xᵢ)|
	spent bool
}

// passBlock is the number of rows CVPass.Add predicts at a time.
const passBlock = 8192

// Pass starts the second pass over rows numbered from first (0, or a
// shard's first row, as for NewFoldStats), with the folds of the
// FoldStats the fits came from (their seed and sizes).
//
// Memory: the residuals of all n rows, 8·n·q bytes, reserved here and
// checked first (*linalg.MemoryError), and per Add a block of passBlock
// rows' copies and predictions.
//
// Errors (ErrInput): fits not made by FoldStats.Models or Choose, first
// < 0.
func (ff *FoldFits) Pass(first int) (*CVPass, error) {
	const op = "FoldFits.Pass"
	if ff == nil || ff.sizes == nil || len(ff.Models) != len(ff.sizes) || ff.Full == nil {
		return nil, inputError(op, "FoldFits", "not made by FoldStats.Models or FoldStats.Choose")
	}
	if first < 0 {
		return nil, inputError(op, "first", "row %d: rows are numbered from 0", first)
	}
	n, q := 0, ff.Full.Coef.Cols
	for _, s := range ff.sizes {
		n += s
	}
	if err := memlimit.Check(op, memlimit.Sum(memlimit.Floats(n, q), memlimit.Floats(passBlock, 2*q+ff.Full.Centers.Cols+ff.Full.Centers.Rows))); err != nil {
		return nil, err
	}
	p := &CVPass{fits: ff, first: first, res: make([][][]float64, q)}
	for out := range p.res {
		p.res[out] = make([][]float64, len(ff.sizes))
		for k, s := range ff.sizes {
			p.res[out][k] = make([]float64, 0, s)
		}
	}
	return p, nil
}

// Add adds the held-out residuals of the rows x with outputs y, rows
// first + Rows() … of the data set, the same rows (in the same order)
// that the FoldStats summed. Neither is modified.
//
// Cost: each row's prediction by its fold's model (regress.Model.Predict:
// 2md + 2m flops and m kernel transforms), passBlock rows at a time.
//
// Errors (ErrInput): x or y nil, malformed, empty or not finite, of the
// wrong widths, or more rows of a fold than the FoldStats summed; a pass
// already turned into a CV. On error the pass is unchanged.
func (p *CVPass) Add(x, y *linalg.Dense) error {
	const op = "CVPass.Add"
	if p == nil || p.fits == nil {
		return inputError(op, "CVPass", "nil or zero: start one with FoldFits.Pass")
	}
	if p.spent {
		return inputError(op, "CVPass", "already turned into a CV")
	}
	if err := check.XY(ErrInput, op, x, y, 1); err != nil {
		return err
	}
	ff := p.fits
	d, q, kk := ff.Full.Centers.Cols, len(p.res), len(ff.sizes)
	if x.Cols != d {
		return inputError(op, "X", "%d columns, the models have %d", x.Cols, d)
	}
	if y.Cols != q {
		return inputError(op, "Y", "%d columns, the models have %d outputs", y.Cols, q)
	}
	fold := make([]int, x.Rows)
	count := make([]int, kk)
	for r := range fold {
		fold[r] = StreamFold(ff.seed, p.first+p.seen+r, kk)
		count[fold[r]]++
	}
	for k, c := range count {
		if have := len(p.res[0][k]); have+c > ff.sizes[k] {
			return inputError(op, "X", "%d more rows of fold %d, which has %d rows of which %d are in: not the rows the FoldStats summed", c, k, ff.sizes[k], have)
		}
	}
	add := make([][][]float64, q) // the new residuals, kept once all are computed
	for out := range add {
		add[out] = make([][]float64, kk)
	}
	idx := make([][]int, kk)
	for r0 := 0; r0 < x.Rows; r0 += passBlock {
		r1 := min(r0+passBlock, x.Rows)
		for k := range idx {
			idx[k] = idx[k][:0]
		}
		for r := r0; r < r1; r++ {
			idx[fold[r]] = append(idx[fold[r]], r)
		}
		for k, rows := range idx {
			if len(rows) == 0 {
				continue
			}
			pred, err := ff.Models[k].Predict(rowsOfDense(x, rows))
			if err != nil {
				return check.Wrap(ErrInput, op, "X", err)
			}
			for a, r := range rows {
				for out := 0; out < q; out++ {
					v := math.Abs(y.At(r, out) - pred.At(a, out))
					if math.IsNaN(v) || math.IsInf(v, 0) {
						return inputError(op, "X", "row %d: the held-out residual is not finite", p.first+p.seen+r)
					}
					add[out][k] = append(add[out][k], v)
				}
			}
		}
	}
	for out := range add {
		for k, v := range add[out] {
			p.res[out][k] = append(p.res[out][k], v...)
		}
	}
	p.seen += x.Rows
	return nil
}

// Rows returns the number of rows added (by Add and Merge).
func (p *CVPass) Rows() int {
	if p == nil {
		return 0
	}
	return p.seen
}

// Merge adds the residuals of o, a pass over a shard of other rows for
// the same fits, to p; o is not modified. Errors (ErrInput): o nil, of
// other fits, or together more rows of a fold than it has; a spent pass.
// On error p is unchanged.
func (p *CVPass) Merge(o *CVPass) error {
	const op = "CVPass.Merge"
	switch {
	case p == nil || p.fits == nil || p.spent:
		return inputError(op, "CVPass", "nil, zero or already turned into a CV")
	case o == nil || o.fits != p.fits || o.spent:
		return inputError(op, "o", "nil, spent, or a pass for other fits")
	}
	for k, s := range p.fits.sizes {
		if len(p.res[0][k])+len(o.res[0][k]) > s {
			return inputError(op, "o", "together %d rows of fold %d, which has %d", len(p.res[0][k])+len(o.res[0][k]), k, s)
		}
	}
	for out := range p.res {
		for k := range p.res[out] {
			p.res[out][k] = append(p.res[out][k], o.res[out][k]...)
		}
	}
	p.seen += o.seen
	return nil
}

// CV sorts the residuals of each fold in place and returns the CV+ of the
// fits: Predict as for NystromCV, Prediction the full fit's, Choices the
// pairs of Choose. The pass is spent: its residuals now belong to the CV.
//
// Errors (ErrInput): a fold of which not every row was added (the pass
// must see the rows the FoldStats summed), a spent pass.
func (p *CVPass) CV() (*CV, error) {
	const op = "CVPass.CV"
	if p == nil || p.fits == nil || p.spent {
		return nil, inputError(op, "CVPass", "nil, zero or already turned into a CV")
	}
	ff := p.fits
	for k, s := range ff.sizes {
		if len(p.res[0][k]) != s {
			return nil, inputError(op, fmt.Sprintf("fold %d", k), "%d of its %d rows added", len(p.res[0][k]), s)
		}
	}
	for out := range p.res {
		for _, v := range p.res[out] {
			slices.Sort(v)
		}
	}
	p.spent = true
	c := &CV{models: ff.Models, sorted: p.res, n: p.seen, full: ff.Full}
	if ff.Choices != nil {
		ch := ff.Chosen
		c.chosen, c.choices = &ch, slices.Clone(ff.Choices)
	}
	return c, nil
}
