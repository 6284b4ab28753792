package linalg

import (
	"fmt"
	"slices"
)

// qrNB is the width of the panels of the blocked QR factorization: each
// panel of qrNB columns is factored by recursive halving (qrPanel) and the
// columns to its right are updated with its compact WY form through two
// Gemm calls. Matrices with at most qrWide columns are factored as a single
// panel, so that Q has one block reflector I − Yᵀ·T·Y (which makes Q·[C; 0]
// cost 2mnk instead of 4mnk flops). qrLeaf is the largest panel that qrPanel
// factors without halving further (geqrt4). tsqrChunk is the number of rows
// of A in a chunk of the tall-skinny mode (see factorTS): at most qrWide
// rows of W by tsqrChunk take at most 1.5 MiB and stay in the L2 cache
// while they are factored.
//
// They are variables only so that TestCalibrateSVD can sweep them. On the
// machine of BENCHMARKS.md (shared with other jobs while this was measured,
// so only large differences count): QR of 1000×1000 on one core took
// 180–199 ms for every qrNB in {32, 48, 64} × qrLeaf in {4, 8, 16}, about
// 7 GFLOP/s; QR of 100000×50 on two cores took 109 ms with tsqrChunk = 2048,
// 111 with 4096, 119 with 1024 and 124 with 8192.
var (
	qrNB      = 32
	qrWide    = 96
	qrLeaf    = 8
	tsqrChunk = 2048
)

// QR is the thin QR factorization A = Q·R of an m×n matrix with m ≥ n: Q is
// m×n with orthonormal columns and R is n×n upper triangular.
//
// Q is stored implicitly as the product H₀·H₁·…·H_{n−1} of Householder
// reflectors Hⱼ = I − τⱼ·vⱼ·vⱼᵀ (LAPACK's convention: vⱼ is zero above row
// j and 1 at row j), gathered by panels into block reflectors I − Yᵀ·T·Y;
// for tall, thin matrices, as such products for chunks of rows followed by
// one for their stacked R factors (see Factorize). The factorization keeps
// an n×m copy of A for the reflectors, so it needs about m·n + n² words.
//
// The zero value is ready to use: call Factorize, then read the factors.
// A QR that has been factored successfully may be read by several goroutines
// at once; Factorize must not run concurrently with anything else on the same
// value.
type QR struct {
	// y is n×m: row j holds vⱼ (so Y = Vᵀ), with explicit zeros before
	// column j and 1 at column j, so that Gemm can use it directly.
	y Dense
	// r is n×n: R in the upper triangle, zeros below.
	r Dense
	// t is n×nb: the rows [j0, j1) of a panel hold its (j1−j0)×(j1−j0)
	// upper triangular factor T in columns [0, j1−j0).
	t  Dense
	nb int       // width of the panels
	z  []float64 // scratch of factor, see work
	ok bool

	// Tall-skinny mode (lc > 0): chunks[c] factors the rows
	// [c·lc, (c+1)·lc) of A (the last chunk also takes the remainder) — its
	// y is a view of this y — and top factors the chunks' R factors stacked
	// on each other. Then Q = diag(Q_c)·Q_top and R = R_top.
	lc     int
	chunks []QR
	top    *QR
	serial bool // a chunk: run on the calling goroutine
	// noChunks keeps reset from choosing the tall-skinny mode, so that
	// mulQ can apply the full Q (SVD's full U needs it).
	noChunks bool
}

// Factorize computes the QR factorization of the m×n matrix a, which must
// have m ≥ n (Factorize panics otherwise). a is not modified; the factors
// are stored in q, reusing q's storage when it is large enough.
//
// The factorization works on a transposed copy W = Aᵀ, so that every
// Householder vector is a contiguous row of W. It is blocked: panels of
// qrNB columns (a single panel when n ≤ qrWide) are factored by recursive
// halving down to a few columns (LAPACK's dgeqrt3 idea), and the rest of the
// matrix is updated by the panel's block reflector with Gemm, so that most
// of the 2mn² − 2n³/3 flops run at matrix-multiply speed; the T factors of
// the block reflectors add about m·n·min(n, qrNB) flops. A tall, thin matrix (n ≤ qrWide, m ≥ 2·tsqrChunk)
// is instead cut into chunks of tsqrChunk rows that are factored
// independently, in cache and in parallel, after which the stacked n×n
// factors R_c are factored once more (TSQR); Q is then the product of the
// chunks' reflectors and those of the second stage. Work is split over
// goroutines only along outputs, so the factors are bit-identical for any
// GOMAXPROCS.
//
// It returns a *NotFiniteError (wrapping ErrNotFinite) if a holds NaN or
// ±Inf; q then holds no factorization and its methods panic. Elements so
// large that the norm of a column overflows (near the largest float64) give
// ±Inf or NaN in R and Q, as in LAPACK; scale such a matrix first.
func (q *QR) Factorize(a *Dense) error {
	a.check("QR.Factorize")
	m, n := a.Rows, a.Cols
	if m < n {
		panic(fmt.Sprintf("linalg: QR.Factorize: matrix is %d×%d, want at least as many rows as columns", m, n))
	}
	q.ok = false
	q.reset(n, m)
	if !q.factorFrom(*a, true) {
		return checkFinite(*a) // find the element
	}
	q.ok = true
	return nil
}

// reset sizes the storage of q for the factorization of W = q.y, an n×m
// matrix (the transpose of the m×n matrix A), and clears R.
func (q *QR) reset(n, m int) {
	q.y = resized(q.y, n, m)
	q.r = resized(q.r, n, n)
	q.r.Zero()
	q.lc = 0
	q.nb = qrNB
	if n <= qrWide {
		q.nb = max(n, 1)
	}
	if n > qrWide || m < 2*tsqrChunk || q.noChunks {
		q.t = resized(q.t, n, q.nb)
		return
	}
	q.lc = tsqrChunk
	nch := m / q.lc
	q.chunks = slices.Grow(q.chunks[:0], nch)[:nch]
	for c := range q.chunks {
		ch := &q.chunks[c]
		ch.r = resized(ch.r, n, n)
		ch.r.Zero()
		ch.t = resized(ch.t, n, n)
		ch.nb, ch.serial = q.nb, true
	}
	if q.top == nil {
		q.top = new(QR)
	}
	q.top.reset(n, nch*n)
}

// chunkRows returns the rows [c0, c1) of A (columns of W) in chunk c.
func (q *QR) chunkRows(c int) (c0, c1 int) {
	c0 = c * q.lc
	if c == len(q.chunks)-1 {
		return c0, q.y.Cols
	}
	return c0, c0 + q.lc
}

// resized returns an r×c compact matrix that reuses d's storage when it is
// large enough. The contents are unspecified.
func resized(d Dense, r, c int) Dense {
	if cap(d.Data) >= r*c {
		return Dense{Rows: r, Cols: c, Stride: max(c, 1), Data: d.Data[:r*c]}
	}
	return Dense{Rows: r, Cols: c, Stride: max(c, 1), Data: make([]float64, r*c)}
}

// factorFrom sets W = srcᵀ (trans) or W = src and factors it. It reports
// whether every element of src is finite; if not, q holds garbage. In the
// tall-skinny mode each chunk is copied by the goroutine that factors it,
// while it is in cache.
func (q *QR) factorFrom(src Dense, trans bool) (finite bool) {
	if q.lc > 0 {
		return q.factorTS(&src, trans)
	}
	if _, finite = copyScan(q.y, src, trans); finite {
		q.factor()
	}
	return finite
}

// factor computes the factorization of W = q.y in place (see the fields of
// QR): panels of q.nb rows of W, each factored by qrPanel and applied to the
// rows below it.
func (q *QR) factor() {
	if q.lc > 0 {
		q.factorTS(nil, false)
		return
	}
	n, m := q.y.Rows, q.y.Cols
	for j0 := 0; j0 < n; j0 += q.nb {
		j1 := min(j0+q.nb, n)
		p := q.y.view(j0, j1, j0, m)
		t := q.t.view(j0, j1, 0, j1-j0)
		q.qrPanel(p, t, j0)
		if j1 < n {
			larfbRight(q.y.view(j1, n, j0, m), p, t, q.work((n-j1)*(j1-j0)))
		}
	}
}

// factorTS is the tall-skinny factorization (TSQR, one level): every chunk
// of W is factored by geqrt4 on one goroutine — unblocked, but in cache —
// with the chunks spread over goroutines; then the chunks' R factors,
// stacked into an (chunks·n)×n matrix, are factored by q.top (itself tall
// and skinny again when there are very many chunks). If src is not nil,
// each chunk is first copied from it (see factorFrom), and factorTS reports
// whether all of src was finite.
func (q *QR) factorTS(src *Dense, trans bool) (finite bool) {
	n, m := q.y.Rows, q.y.Cols
	nch := len(q.chunks)
	ok := make([]bool, nch)
	p := teamSize(nch, 3*float64(n)*float64(n)*float64(m))
	forEach(p, nch, taskFunc(func(_, c int) {
		ch := &q.chunks[c]
		c0, c1 := q.chunkRows(c)
		ch.y = q.y.view(0, n, c0, c1)
		ok[c] = true
		if src != nil {
			var from Dense
			if trans {
				from = src.view(c0, c1, 0, n)
			} else {
				from = src.view(0, n, c0, c1)
			}
			if _, ok[c] = copyScanBlock(ch.y, from, trans); !ok[c] {
				return
			}
		}
		ch.geqrt4(ch.y, ch.t, 0)
	}))
	for _, o := range ok {
		if !o {
			return false
		}
	}
	for c := range q.chunks {
		copyScan(q.top.y.view(0, n, c*n, c*n+n), q.chunks[c].r, true)
	}
	q.top.factor()
	q.r.Copy(&q.top.r)
	return true
}

// qrPanel factors the k×len panel p of W, whose first row and first column
// are the global row and column g0, and writes its k×k factor T into t
// (upper triangle; the strict lower triangle is not touched). It halves the
// panel: factor the top half, apply it to the bottom half, factor the bottom
// half, and join the two T factors with
//
//	T = [T₁  −T₁·(Y₁·Y₂ᵀ)·T₂]
//	    [0    T₂           ]
//
// so that all but the leaves (geqrt4) run in Gemm.
func (q *QR) qrPanel(p, t Dense, g0 int) {
	k, n := p.Rows, p.Cols
	if k <= qrLeaf {
		q.geqrt4(p, t, g0)
		return
	}
	k1 := k / 2
	p1 := p.view(0, k1, 0, n)
	t1 := t.view(0, k1, 0, k1)
	q.qrPanel(p1, t1, g0)
	larfbRight(p.view(k1, k, 0, n), p1, t1, q.work((k-k1)*k1))
	t2 := t.view(k1, k, k1, k)
	q.qrPanel(p.view(k1, k, k1, n), t2, g0+k1)
	// Y₁·Y₂ᵀ needs only the columns k1… of Y₁: Y₂ is zero before its
	// first column (k1 in p's frame).
	t12 := t.view(0, k1, k1, k)
	gemm(NoTrans, Trans, 1, p.view(0, k1, k1, n), p.view(k1, k, k1, n), 0, t12)
	upperTimes(t1, t12)
	timesUpper(t12, t2)
	for i := 0; i < k1; i++ {
		row := t12.Data[i*t12.Stride : i*t12.Stride+t12.Cols]
		for j := range row {
			row[j] = -row[j]
		}
	}
}

// work returns q's scratch slice with at least n elements.
func (q *QR) work(n int) []float64 {
	if cap(q.z) < n {
		q.z = make([]float64, n)
	}
	return q.z[:n]
}

// larfbRight applies the block reflector of the k rows y (with factor t)
// from the right to the rows of c: C ← C·(I − Yᵀ·T·Y) = C − ((C·Yᵀ)·T)·Y.
// For C = W₂ (rows are columns of A) this is A₂ ← Hᵀ·A₂. z is scratch of
// c.Rows·k elements.
func larfbRight(c, y, t Dense, z []float64) {
	if c.Rows == 0 {
		return
	}
	zd := Dense{Rows: c.Rows, Cols: y.Rows, Stride: y.Rows, Data: z}
	gemm(NoTrans, Trans, 1, c, y, 0, zd)
	timesUpper(zd, t)
	gemm(NoTrans, NoTrans, -1, zd, y, 1, c)
}

// mulQ overwrites the m×k matrix c with Q·c. Rows nz… of c must be zero on
// entry (nz = m when nothing is known); the first block reflector applied
// then skips them, which makes Q·[C₁; 0] cost 2mnk flops for a single panel
// instead of 4mnk. The panels are applied last to first, each with two Gemm
// calls. z is scratch of at least q.nb·k elements; mulQ does not write q,
// so goroutines with their own z may call it at once.
func (q *QR) mulQ(c Dense, nz int, z []float64) {
	n, m := q.y.Rows, q.y.Cols
	k := c.Cols
	if n == 0 || k == 0 {
		return
	}
	last := (n - 1) / q.nb * q.nb
	for j0 := last; j0 >= 0; j0 -= q.nb {
		j1 := min(j0+q.nb, n)
		hi := max(nz, j1) // rows [j0, hi) of c may be nonzero
		if hi <= j0 {
			continue // H·0 = 0
		}
		zd := Dense{Rows: j1 - j0, Cols: k, Stride: k, Data: z[:(j1-j0)*k]}
		gemm(NoTrans, NoTrans, 1, q.y.view(j0, j1, j0, hi), c.view(j0, hi, 0, k), 0, zd)
		upperTimes(q.t.view(j0, j1, 0, j1-j0), zd)
		gemm(Trans, NoTrans, -1, q.y.view(j0, j1, j0, m), zd, 1, c.view(j0, m, 0, k))
		nz = m
	}
}

// applyQ overwrites the m×k matrix c with Q·[X; 0], where X is the n×k
// matrix held by the first n rows of c on entry (the other rows are not
// read). It does not write q, so several goroutines may call it at once.
func (q *QR) applyQ(c Dense) {
	n, m := q.y.Rows, q.y.Cols
	k := c.Cols
	if k == 0 {
		return
	}
	if q.lc == 0 {
		ptr(c.view(n, m, 0, k)).Zero()
		q.mulQ(c, n, make([]float64, q.nb*k))
		return
	}
	// Z = Q_top·[X; 0], then row block c of Q·[X; 0] is Q_c·[Z_c; 0].
	nch := len(q.chunks)
	z := *NewDense(nch*n, k, nil)
	ptr(z.view(0, n, 0, k)).Copy(ptr(c.view(0, n, 0, k)))
	q.top.applyQ(z)
	p := teamSize(nch, 4*float64(m)*float64(n)*float64(k))
	work := make([]float64, p*n*k)
	forEach(p, nch, taskFunc(func(w, ch int) {
		qc := &q.chunks[ch]
		c0, c1 := q.chunkRows(ch)
		zc := z.view(ch*n, ch*n+n, 0, k)
		uc := c.view(c0, c1, 0, k)
		// uc = [Z_c; 0] − Y_cᵀ·(T_c·(Y_c[:, :n]·Z_c)); below row n the
		// product is written without reading uc (β = 0).
		wd := Dense{Rows: n, Cols: k, Stride: k, Data: work[w*n*k : (w+1)*n*k]}
		top := qc.y.view(0, n, 0, n)
		blockedProduct(NoTrans, NoTrans, 1, top, zc, 0, wd, full, true)
		upperTimes(qc.t, wd)
		ptr(uc.view(0, n, 0, k)).Copy(&zc)
		blockedProduct(Trans, NoTrans, -1, top, wd, 1, uc.view(0, n, 0, k), full, true)
		blockedProduct(Trans, NoTrans, -1, qc.y.view(0, n, n, c1-c0), wd, 0, uc.view(n, c1-c0, 0, k), full, true)
	}))
}

// mulQInto overwrites the m×k matrix c, the U_B of an SVD of B = Q·R, with
// Q·c. When k > n it is the full U_B, [X 0; 0 I] on entry, and every row
// counts: mulQ (the factorization must be without chunks, see noChunks).
// Otherwise only the first n rows of c are read, as by applyQ, which it
// calls. For k = n = m both give the same values.
func (q *QR) mulQInto(c Dense) {
	if c.Cols > q.y.Rows {
		q.mulQ(c, c.Rows, make([]float64, q.nb*c.Cols))
	} else {
		q.applyQ(c)
	}
}

// ptr returns a pointer to a copy of the view d.
func ptr(d Dense) *Dense { return &d }

// RTo copies the n×n upper triangular factor R into dst, with zeros below
// the diagonal, and returns dst. An empty dst (nil or the zero Dense) is
// allocated; otherwise it must be n×n. The diagonal of R may have either
// sign (LAPACK's convention).
func (q *QR) RTo(dst *Dense) *Dense {
	mustBeFactored(q.ok, "QR.RTo")
	return copyTo(dst, &q.r, "QR.RTo")
}

// QTo writes the m×n factor Q, whose columns are orthonormal, into dst and
// returns dst. An empty dst is allocated; otherwise it must be m×n. Q is
// formed by applying the reflectors to the first n columns of the identity,
// 2mn² flops when there is one panel, up to 4mn² − 2n³ otherwise.
func (q *QR) QTo(dst *Dense) *Dense {
	mustBeFactored(q.ok, "QR.QTo")
	n, m := q.y.Rows, q.y.Cols
	dst = matrixTo(dst, m, n, "QR.QTo")
	identityColumns(dst.view(0, n, 0, n)) // applyQ reads only these rows
	q.applyQ(*dst)
	return dst
}
