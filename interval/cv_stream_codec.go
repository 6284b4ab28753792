package interval

import (
	"fmt"
	"math"
	"slices"

	"rkhs/internal/check"
	"rkhs/internal/memlimit"
	"rkhs/internal/wire"
	"rkhs/linalg"
	"rkhs/regress"
)

// The two passes of a streamed CV+ cross a process boundary in binary
// encodings (internal/wire), so that shards of the rows can be summed on
// many workers and merged, as regress.NystromStats and loo.NystromPath
// are.
//
// A FoldStats (MarshalBinary) is encoded, little-endian, as the 8 bytes
// "rkhsFLD1", then K, S (the kernels), first, the rows added, q and the
// seed as uint64, then for each kernel s and fold j the length in bytes
// and the encoding of its regress.NystromStats (which carries the kernel,
// the centres and the sums bit for bit, with its own checksum): about
// 4·K·S·m² bytes. Rows still buffered are folded into the statistics
// before encoding, as Merge folds them, so a decoded copy merges exactly
// as the original would.
//
// A CVPass (MarshalBinary) carries only its residuals: the 8 bytes
// "rkhsCVP1", then a fingerprint of its fits (K, q, the seed, a 64-bit
// FNV-1a hash of the bits of every fold model's and the full fit's
// coefficients and intercepts), the K fold sizes, first, the rows added,
// then for each output and fold the number of residuals and their
// values: 8(n·q + K·q + 2K + 8) bytes. The fits themselves are not
// encoded: each worker rebuilds them from the same statistics
// (FoldStats.Models is deterministic), and UnmarshalBinary refuses the
// residuals of other fits.
const (
	foldStatsMagic = "rkhsFLD1"
	cvPassMagic    = "rkhsCVP1"
	// maxFolds bounds K and S in an encoding, so that counts can be
	// multiplied without overflow.
	maxFolds = 1 << 20
)

// MarshalBinary encodes f in the format above, after folding its
// buffered rows into its statistics (which changes them by rounding
// only, as Merge does). It implements encoding.BinaryMarshaler.
//
// Cost: a copy of the K·S statistics, about 4·K·S·m² bytes.
//
// Errors (ErrInput): a nil or zero f; those of folding the buffered rows.
func (f *FoldStats) MarshalBinary() ([]byte, error) {
	const op = "FoldStats.MarshalBinary"
	if f == nil || f.stats == nil {
		return nil, inputError(op, "FoldStats", "nil or zero: make it with NewFoldStats")
	}
	if err := f.flushAll(op); err != nil {
		return nil, err
	}
	parts := make([][]byte, 0, len(f.kernels)*f.k)
	size := len(foldStatsMagic) + 8*6
	for s := range f.stats {
		for j, st := range f.stats[s] {
			b, err := st.MarshalBinary()
			if err != nil {
				return nil, fitError(op, fmt.Sprintf("ks[%d] fold %d", s, j), err)
			}
			parts = append(parts, b)
			size += 8 + len(b)
		}
	}
	w := wire.NewWriter(size)
	w.Header(foldStatsMagic, uint64(f.k), uint64(len(f.kernels)), uint64(f.first), uint64(f.seen), uint64(f.q), f.seed)
	for _, b := range parts {
		w.U64(uint64(len(b)))
		w.Bytes(b)
	}
	return w.Encoding(), nil
}

// UnmarshalBinary replaces f by the FoldStats that MarshalBinary encoded:
// its kernels, centres, folds, seed, first row and statistics. Decoding
// into the zero value is the usual use; merging the shards of workers is
// UnmarshalBinary of each and Merge. It implements
// encoding.BinaryUnmarshaler.
//
// Memory: that of NewFoldStats for the sizes of the encoding, checked
// before allocating (*linalg.MemoryError, linalg.ErrTooLarge).
//
// Errors wrap ErrInput: a nil f, a truncated or malformed encoding, K < 2
// or no kernel, statistics that do not decode (those of
// regress.NystromStats.UnmarshalBinary), of other centres than the first,
// with fold sizes that differ between kernels or do not add up to the
// rows, or of another number of outputs. On error f is unchanged.
func (f *FoldStats) UnmarshalBinary(b []byte) error {
	const op = "FoldStats.UnmarshalBinary"
	if f == nil {
		return inputError(op, "FoldStats", "nil")
	}
	r := wire.NewReader(b)
	r.Magic(foldStatsMagic, "a FoldStats")
	k, ns, first, seen, q, seed := r.U64(), r.U64(), r.U64(), r.U64(), r.U64(), r.U64()
	switch {
	case r.Err() != nil:
		return check.Wrap(ErrInput, op, "data", r.Err())
	case k < 2 || k > maxFolds || ns < 1 || ns > maxFolds || k*ns > uint64(r.Len())/8:
		return inputError(op, "data", "%d folds and %d kernels: want ≥ 2 folds, ≥ 1 kernel, and the bytes for them", k, ns)
	case first > math.MaxInt/2 || seen > math.MaxInt/2 || q > maxFolds || (seen == 0) != (q == 0):
		return inputError(op, "data", "first row %d, %d rows, %d outputs out of range", first, seen, q)
	}
	t := &FoldStats{k: int(k), seed: seed, first: int(first), seen: int(seen), q: int(q),
		stats: make([][]*regress.NystromStats, ns), nb: make([]int, k)}
	for s := range t.stats {
		t.stats[s] = make([]*regress.NystromStats, k)
		for j := range t.stats[s] {
			n := r.U64()
			if n > uint64(r.Len()) {
				return inputError(op, "data", "ks[%d] fold %d: %d bytes of statistics, %d left", s, j, n, r.Len())
			}
			part := r.Bytes(int(n))
			if r.Err() != nil {
				return check.Wrap(ErrInput, op, "data", r.Err())
			}
			st := new(regress.NystromStats)
			if err := st.UnmarshalBinary(part); err != nil {
				return fitError(op, fmt.Sprintf("ks[%d] fold %d", s, j), err)
			}
			if err := t.checkPart(op, s, j, st); err != nil {
				return err
			}
			t.stats[s][j] = st
		}
		t.kernels = append(t.kernels, t.stats[s][0].Kernel())
	}
	if err := r.Done(); err != nil {
		return check.Wrap(ErrInput, op, "data", err)
	}
	total := 0
	for _, st := range t.stats[0] {
		total += st.Rows()
	}
	if total != t.seen {
		return inputError(op, "data", "%d rows added, the folds' statistics hold %d", t.seen, total)
	}
	m, d := t.centers.Rows, t.centers.Cols
	if err := memlimit.Check(op, memlimit.Sum(
		memlimit.Floats(foldBatch, t.k*(d+t.q)+m),
		uint64(regress.NystromWorkLen(m, max(t.q, 1)))*8)); err != nil {
		return err
	}
	t.xb = make([]*linalg.Dense, t.k)
	for j := range t.xb {
		t.xb[j] = linalg.NewDense(foldBatch, d, nil)
	}
	if t.q > 0 {
		t.setOutputs(t.q)
	}
	*f = *t
	return nil
}

// checkPart checks the decoded statistics of kernel s, fold j against
// those decoded before: the centres of the first, the rows of fold j of
// kernel 0, the outputs of the FoldStats.
func (t *FoldStats) checkPart(op string, s, j int, st *regress.NystromStats) error {
	name := fmt.Sprintf("ks[%d] fold %d", s, j)
	if t.centers == nil {
		t.centers = st.Centers()
	} else if c := st.Centers(); c.Rows != t.centers.Rows || c.Cols != t.centers.Cols || !slices.Equal(c.Data, t.centers.Data) {
		return inputError(op, "data", "%s: statistics on other centres than ks[0] fold 0", name)
	}
	if s > 0 && st.Rows() != t.stats[0][j].Rows() {
		return inputError(op, "data", "%s: %d rows, fold %d of ks[0] has %d", name, st.Rows(), j, t.stats[0][j].Rows())
	}
	if st.Rows() > 0 && st.Outputs() != t.q {
		return inputError(op, "data", "%s: %d outputs, the FoldStats has %d", name, st.Outputs(), t.q)
	}
	return nil
}

// setOutputs makes the output buffers and the workspace for q outputs.
func (f *FoldStats) setOutputs(q int) {
	f.q = q
	f.yb = make([]*linalg.Dense, f.k)
	for j := range f.yb {
		f.yb[j] = linalg.NewDense(foldBatch, q, nil)
	}
	f.work = make([]float64, regress.NystromWorkLen(f.centers.Rows, q))
}

// fingerprint returns the words that name the fits of a pass: K, q, the
// seed and a hash of every model's coefficients and intercepts.
func (ff *FoldFits) fingerprint() []uint64 {
	vs := make([][]float64, 0, 2*len(ff.Models)+2)
	for _, m := range append(slices.Clone(ff.Models), ff.Full) {
		vs = append(vs, m.Coef.Data, m.Intercept)
	}
	return []uint64{uint64(len(ff.sizes)), uint64(ff.Full.Coef.Cols), ff.seed, wire.HashFloats(vs...)}
}

// MarshalBinary encodes the residuals p has collected with the
// fingerprint of its fits (see the format above). It implements
// encoding.BinaryMarshaler. Errors (ErrInput): a nil, zero or spent p.
func (p *CVPass) MarshalBinary() ([]byte, error) {
	const op = "CVPass.MarshalBinary"
	if p == nil || p.fits == nil || p.spent {
		return nil, inputError(op, "CVPass", "nil, zero or already turned into a CV")
	}
	ff := p.fits
	w := wire.NewWriter(len(cvPassMagic) + 8*(4+len(ff.sizes)+2+len(p.res)*len(ff.sizes)+p.seen*len(p.res)))
	w.Header(cvPassMagic, ff.fingerprint()...)
	for _, s := range ff.sizes {
		w.U64(uint64(s))
	}
	w.U64(uint64(p.first), uint64(p.seen))
	for out := range p.res {
		for _, v := range p.res[out] {
			w.U64(uint64(len(v)))
			w.Floats(v)
		}
	}
	return w.Encoding(), nil
}

// UnmarshalBinary replaces the residuals and rows of p by those that
// MarshalBinary encoded from a pass for the same fits: p must have been
// started by FoldFits.Pass of fits made from the same statistics
// (checked by the fingerprint), and takes the first row of the encoding.
// Merging the passes of workers is UnmarshalBinary of each into a pass of
// the driver's fits and Merge. It implements encoding.BinaryUnmarshaler.
//
// Errors wrap ErrInput: a nil, zero or spent p, a truncated or malformed
// encoding, residuals of other fits, more residuals in a fold than it has
// rows, residuals that are negative or not finite, or a number of rows
// that is not the residuals'. On error p is unchanged.
func (p *CVPass) UnmarshalBinary(b []byte) error {
	const op = "CVPass.UnmarshalBinary"
	if p == nil || p.fits == nil || p.spent {
		return inputError(op, "CVPass", "nil, zero or already turned into a CV")
	}
	ff := p.fits
	const other = "the residuals of a pass for other fits"
	r := wire.NewReader(b)
	r.Magic(cvPassMagic, "a CVPass")
	r.Expect(other, ff.fingerprint()...)
	for _, s := range ff.sizes {
		r.Expect(other, uint64(s))
	}
	first, seen := r.U64(), r.U64()
	if r.Err() != nil {
		return check.Wrap(ErrInput, op, "data", r.Err())
	}
	res := make([][][]float64, len(p.res))
	for out := range res {
		res[out] = make([][]float64, len(ff.sizes))
		for k, s := range ff.sizes {
			n := r.U64()
			if n > uint64(s) {
				return inputError(op, "data", "%d residuals in fold %d, which has %d rows", n, k, s)
			}
			v := r.Floats(int(n))
			if r.Err() != nil {
				return check.Wrap(ErrInput, op, "data", r.Err())
			}
			if out > 0 && len(v) != len(res[0][k]) {
				return inputError(op, "data", "%d residuals of output %d in fold %d, output 0 has %d", len(v), out, k, len(res[0][k]))
			}
			for _, x := range v {
				if !(x >= 0) || math.IsInf(x, 1) {
					return inputError(op, "data", "a residual %v in fold %d: want finite values ≥ 0", x, k)
				}
			}
			res[out][k] = slices.Grow(v, s-len(v))
		}
	}
	if err := r.Done(); err != nil {
		return check.Wrap(ErrInput, op, "data", err)
	}
	total := 0
	for _, v := range res[0] {
		total += len(v)
	}
	if uint64(total) != seen || first > uint64(math.MaxInt-total) {
		return inputError(op, "data", "%d rows from row %d, the residuals are of %d", seen, first, total)
	}
	p.res, p.first, p.seen = res, int(first), total
	return nil
}
