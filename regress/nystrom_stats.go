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
// Add (or AddKernelRows) calls and on the order of the merges only through
// rounding (the statistics agree to a few ulps of their size times the
// depth of the merges); the same rows added in the same groups and merged
// in the same order give bit-identical statistics for any GOMAXPROCS.
//
// Memory: m(2m + q + d + 3) doubles (M and L); the workspace of Add (and
// of AddKernelRows unless the caller gives one), NystromWorkLen(m, q)
// doubles (8.25 KiB·m + 8.03 KiB·q), allocated by the first call and
// kept; and during Add a block of K_nm of at most 2²⁰ doubles (8 MiB) or
// of 256 rows, whichever is more (kernels.Rows.Blocks, which pools it, so
// that Adds one after another reuse one). None of it grows with
// GOMAXPROCS: the goroutines of the matrix products share their packing
// buffers (see linalg.Gemm). Cost: NewNystromStats m³/3 flops (L);
// Add 2md + 2m² flops per row (the kernel, the triangular solve for bᵢ,
// and the symmetric rank-k update of M by linalg.Syrk) and m kernel
// transforms; AddKernelRows 2m² flops per row; Merge 2m² flops; Solve m³/3
// flops (its Cholesky factorization; m³/3 more the first time after
// UnmarshalBinary, to recompute L); Gram O(m²).
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

	work  []float64 // Add's workspace (NystromWorkLen values), nil until the first Add
	means []float64 // the means of a group's features in addBlock (m), nil until needed
}

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
