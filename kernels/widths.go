package kernels

import (
	"fmt"
	"math"

	"rkhs/internal/avx"
	"rkhs/internal/check"
	"rkhs/internal/parallel"
	"rkhs/linalg"
)

// Widths is the kernel matrices K_s = K_s(X, Z) (n×m) of several widths
// σ_s of one radial kernel, kept implicit like Rows, for a pass over the
// rows that needs all of them: the part of each block that does not depend
// on σ is computed once (SharedTo) and turned into the block of every
// width (KernelTo), so that S widths cost one distance computation and S
// kernel transforms instead of S of each.
//
// For the Gaussian kernel the shared part is the inner products
// (xᵢ − μ)ᵀ(zⱼ − μ) of the rows centred on the mean μ of Z, one matrix
// product (2md flops a row), and the block of width σ is
// exp(−max(‖xᵢ − μ‖² + ‖zⱼ − μ‖² − 2(xᵢ − μ)ᵀ(zⱼ − μ), 0)/(2σ²)), the
// form Rows and CrossTo use; for the Laplacian kernel the shared part is
// the distances ‖xᵢ − zⱼ‖₁ (3md flops a row) and the block
// exp(−‖xᵢ − zⱼ‖₁/σ). Either way every block of width s is, bit for bit,
// the block Rows.BlockTo gives for the kernel of that width, so a pass
// over all widths gives the results of separate passes exactly.
//
// A Widths keeps a reference to X (and a prepared copy of Z); the caller
// must not modify X while it is in use. Its methods are safe for
// concurrent use.
type Widths struct {
	ks []Kernel
	p  *prepared // of ks[0]: Z centred (Gaussian) or as given (Laplacian)
	x  linalg.Dense
	nx []float64 // ‖xᵢ − μ‖² (Gaussian)
	l1 bool      // Laplacian: the shared part is ‖xᵢ − zⱼ‖₁
}

// NewWidths prepares the matrices K(X, Z) of the kernels ks, which must
// all be Gaussian or all Laplacian (any σ, in any order). It checks what
// NewRows checks for each kernel (for the Gaussian kernel, whether a value
// could overflow, which does not depend on σ), at O((n + m)d) cost.
//
// Errors: those of NewRows (ErrParameter, ErrData), and an ErrParameter
// InputError for no kernels or kernels not all Gaussian or all Laplacian.
func NewWidths(ks []Kernel, x, z *linalg.Dense) (*Widths, error) {
	const op = "NewWidths"
	if len(ks) == 0 {
		return nil, check.Input(ErrParameter, op, "ks", "no kernels")
	}
	for _, k := range ks {
		if err := checkKernel(op, k); err != nil {
			return nil, err
		}
	}
	if s := familyBreak(ks); s >= 0 {
		switch ks[s].(type) {
		case Gaussian, Laplacian:
			return nil, check.Input(ErrParameter, op, "ks", "kernel %d is %T, kernel 0 %T: the widths must be of one kernel", s, ks[s], ks[0])
		}
		return nil, check.Input(ErrParameter, op, "ks", "kernel %d is %T: only Gaussian or Laplacian kernels share distances", s, ks[s])
	}
	_, gauss := ks[0].(Gaussian)
	p, err := prepareCross(op, ks[0], x, z)
	if err != nil {
		return nil, err
	}
	w := &Widths{ks: append([]Kernel(nil), ks...), p: p, x: *x, nx: p.xNorms(x), l1: !gauss}
	var sh, row linalg.Dense
	err = p.crossCheck(op, w.nx, func(i int) []float64 {
		return w.KernelTo(row.Reuse(1, p.z.Rows), w.SharedTo(sh.Reuse(1, p.z.Rows), i, i+1), 0, i).Row(0)
	})
	if err != nil {
		return nil, err
	}
	return w, nil
}

// SharesWidths reports whether NewWidths takes the kernels ks as one family:
// at least one, and all Gaussian or all Laplacian. Their parameters are not
// checked; NewWidths checks them.
func SharesWidths(ks []Kernel) bool { return len(ks) > 0 && familyBreak(ks) < 0 }

// familyBreak returns the index of the first kernel of ks that is not
// Gaussian or Laplacian, or not of the same of the two as ks[0]; −1 when
// there is none. ks is not empty.
func familyBreak(ks []Kernel) int {
	_, gauss := ks[0].(Gaussian)
	for s, k := range ks {
		switch k.(type) {
		case Gaussian, Laplacian:
		default:
			return s
		}
		if _, g := k.(Gaussian); g != gauss {
			return s
		}
	}
	return -1
}

// Dims returns the shape n×m of each matrix.
func (w *Widths) Dims() (n, m int) { return w.x.Rows, w.p.z.Rows }

// Len returns the number of widths S.
func (w *Widths) Len() int { return len(w.ks) }

// SharedTo writes the part of rows [i0, i1) of the matrices that every
// width shares into dst and returns it (see Widths); an empty dst is
// allocated, otherwise it must be (i1−i0)×m. Rows are split over up to
// GOMAXPROCS goroutines (each row computed the same way in any split).
// Cost: 2md flops a row (Gaussian; 3md Laplacian).
func (w *Widths) SharedTo(dst *linalg.Dense, i0, i1 int) *linalg.Dense {
	n, m := w.Dims()
	if i0 < 0 || i1 < i0 || i1 > n {
		panic(fmt.Sprintf("kernels: Widths.SharedTo: rows [%d,%d) outside [0,%d)", i0, i1, n))
	}
	dst = destination("Widths.SharedTo", dst, i1-i0, m)
	w.sharedTo(dst, nil, i0, i1)
	return dst
}

// sharedTo is SharedTo on checked rows into dst ((i1−i0)×m), with work, if
// not nil, reused for the centred rows of X (Gaussian), which are
// otherwise allocated.
func (w *Widths) sharedTo(dst, work *linalg.Dense, i0, i1 int) {
	_, m := w.Dims()
	b, d := i1-i0, w.x.Cols
	if b == 0 || m == 0 {
		return
	}
	x := w.x.Slice(i0, i1, 0, d)
	if w.l1 {
		rowsParallel(b, m, func(i int) {
			row, xi := dst.Row(i), x.Row(i)
			for j := range row {
				if j%clearEvery == 0 {
					avx.ClearUpper()
				}
				row[j] = l1Dist(xi, w.p.z.Row(j))
			}
		})
		return
	}
	if work == nil {
		work = new(linalg.Dense)
	}
	xc := work.Reuse(b, d)
	if !w.p.serialProduct() {
		w.p.product(dst, x, xc)
		return
	}
	t := parallel.Team(b, float64(b)*float64(m), minParallelWork)
	chunks := parallel.NewChunks(b, t, 1)
	parallel.For(t, chunks.Count(), parallel.Func(func(_, c int) {
		lo, hi := chunks.Bounds(c)
		w.p.product(dst.Slice(lo, hi, 0, m), x.Slice(lo, hi, 0, d), xc.Slice(lo, hi, 0, d))
	}))
}

// KernelTo writes rows [i0, i0+shared.Rows) of K_s, the matrix of width s,
// into dst from shared, what SharedTo gave for those rows, and returns
// dst: one kernel transform (an exp) an entry. An empty dst is allocated,
// otherwise it must be of shared's shape; dst may be shared itself (which
// is then consumed). Rows are split over up to GOMAXPROCS goroutines.
func (w *Widths) KernelTo(dst, shared *linalg.Dense, s, i0 int) *linalg.Dense {
	n, m := w.Dims()
	b := shared.Rows
	if s < 0 || s >= len(w.ks) || shared.Cols != m || i0 < 0 || i0+b > n {
		panic(fmt.Sprintf("kernels: Widths.KernelTo: width %d of %d, %d×%d shared rows from row %d, want ≤ %d×%d",
			s, len(w.ks), b, shared.Cols, i0, n, m))
	}
	dst = destination("Widths.KernelTo", dst, b, m)
	if b == 0 || m == 0 {
		return dst
	}
	switch k := w.ks[s].(type) {
	case Gaussian:
		c := k.coef()
		rowsParallel(b, m, func(i int) {
			row := dst.Row(i)
			if !sqDistFits(w.nx[i0+i], w.p.zmax) { // as Rows computes it (see farRow)
				w.p.farRow(row, w.x.Row(i0+i), k)
				return
			}
			copy(row, shared.Row(i))
			gaussianRow(row, w.p.nz, w.nx[i0+i], c)
		})
	case Laplacian:
		rowsParallel(b, m, func(i int) {
			row, src := dst.Row(i), shared.Row(i)
			for j, v := range src {
				if j%clearEvery == 0 {
					avx.ClearUpper()
				}
				row[j] = math.Exp(-v / k.Sigma)
			}
		})
	}
	return dst
}
