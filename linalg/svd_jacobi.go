package linalg

import "math"

// jacobiBlock is the number of rows in a block of the parallel one-sided
// Jacobi ordering (see jacobi). A block pair — 2·jacobiBlock rows of X and of
// the accumulated rotations — stays in the L2 cache while all its
// jacobiBlock² pairs are rotated. A variable only so that TestCalibrateSVD
// can sweep it: 8, 16, 32 and 64 were within 5% of each other for 500×500
// and 1000×1000 matrices on two cores.
var jacobiBlock = 16

// svdMaxSweeps bounds the sweeps of jacobi. Random square matrices of
// order 1000 need about 13 (12–15 for order 200–500); dgesvj allows 30.
const svdMaxSweeps = 60

// jacobiFlush: a row whose norm falls to jacobiFlush times the largest is
// set to zero. It can only be rounding noise left by rotations against
// rows it depends on (the last of n rows in a space of dimension n−1 shrinks
// by a factor of about ε per sweep and would never let the iteration stop),
// and zeroing it perturbs X by less than ε² relative to ‖X‖.
const jacobiFlush = 0x1p-104

// jacobiMinScale: a row scale of the fast rotations below this is
// multiplied into its row, so that the stored rows (which grow as their
// scales shrink) stay far from overflow. A variable only so that a test can
// make the rescaling happen all the time.
var jacobiMinScale = 0x1p-60

// cosSafe is the product of two row norms below which dot cannot be
// trusted (its terms underflow), and cosine scales the rows first.
const cosSafe = 0x1p-900

// jacobi is the one-sided (Hestenes) Jacobi method on the rows of the n×len
// matrix x: it applies plane rotations to pairs of rows until every pair is
// numerically orthogonal,
//
//	|xₚ·x_qᵀ| ≤ tol·‖xₚ‖·‖x_q‖  with tol = max(√len, 4)·ε,
//
// applying the same rotations to the rows of v (n×k). √len·ε is the default
// of LAPACK's dgesvj; the floor of 4ε keeps the rounding error of very
// short dot products from holding a pair above the tolerance forever. In
// terms of the matrix X whose columns are the rows of x, it computes
// X·J = U·Σ with J orthogonal; v accumulates Vᵀ·J row-wise. Rows whose norm
// is at most jacobiFlush times the largest are set to zero and left alone.
// On success d holds the norms of the final rows, computed afresh.
//
// A sweep visits every pair once, in a fixed tournament order: the rows are
// split into blocks of jacobiBlock; in each of the rounds of a round-robin
// tournament the blocks meet in disjoint pairs, and the rows of a block pair
// are rotated by one goroutine (all pairs within the two blocks in the first
// round of the sweep, then every pair across them, row by row). The order
// depends only on n, so the result is bit-identical for any GOMAXPROCS.
// Row norms are recomputed at the start of every sweep and updated from the
// rotation angle in between; the rotations are "fast" ones whose factor c
// is kept in a scale per row (see rotate), folded back into the rows at the
// start of every sweep. The iteration stops after a sweep without a
// rotation — a sweep that computes every cosine afresh from the rows as
// they are — and after maxSweeps sweeps it returns a *ConvergenceError.
//
// Each pair visited costs a dot product (2·len flops) and each rotation
// 4·len + 4·k more, so a sweep with every pair rotated costs about
// n²·(3·len + 2·k) flops.
func jacobi(x, v Dense, d []float64, maxSweeps int) (sweeps int, err error) {
	n := x.Rows
	if n < 2 {
		if n == 1 {
			d[0] = nrm2(x.Data[:x.Cols])
		}
		return 0, nil
	}
	jb := jacobiBlock
	nb := (n + jb - 1) / jb
	teams := nb + nb%2 // with a bye when nb is odd
	job := &jacobiJob{
		x: x, v: v, d: d, g: make([]float64, n), jb: jb, nb: nb,
		tol:  math.Max(math.Sqrt(float64(x.Cols)), 4) * 0x1p-52,
		pos:  make([]int, teams),
		rots: make([]int, teams/2),
	}
	pairFlops := float64(jb*jb) * float64(6*x.Cols+4*v.Cols)
	p := teamSize(teams/2, float64(teams/2)*pairFlops)
	for i := range job.g {
		job.g[i] = 1
	}
	for sweep := 1; sweep <= maxSweeps; sweep++ {
		var dmax float64
		for i := 0; i < n; i++ {
			job.unscale(i)
			d[i] = nrm2(x.Data[i*x.Stride : i*x.Stride+x.Cols])
			dmax = math.Max(dmax, d[i])
		}
		job.flush = jacobiFlush * dmax
		for i := 0; i < n; i++ {
			if d[i] <= job.flush {
				job.zero(i)
			}
		}
		for i := range job.pos {
			job.pos[i] = i
		}
		total := 0
		for round := 0; round < teams-1; round++ {
			job.round = round
			forEach(p, teams/2, job)
			for _, r := range job.rots {
				total += r
			}
			// Circle method: keep pos[0], rotate the others by one place.
			last := job.pos[teams-1]
			copy(job.pos[2:], job.pos[1:teams-1])
			job.pos[1] = last
		}
		if total == 0 {
			return sweep, nil
		}
	}
	return maxSweeps, &ConvergenceError{Algorithm: "one-sided Jacobi", Iterations: maxSweeps}
}

// jacobiJob is one round of a sweep of jacobi: unit u rotates the block
// pair (pos[u], pos[teams−1−u]) and counts its rotations in rots[u].
type jacobiJob struct {
	x, v   Dense
	d      []float64 // norms of the rows of X (see g)
	g      []float64 // row i of X (and of V) is g[i] times row i of x (of v)
	jb, nb int
	tol    float64
	flush  float64 // rows with norms at most flush are zeroed
	round  int
	pos    []int
	rots   []int
}

func (j *jacobiJob) Run(_, u int) {
	bi, bj := j.pos[u], j.pos[len(j.pos)-1-u]
	if bi > bj {
		bi, bj = bj, bi
	}
	n := j.x.Rows
	rots := 0
	if j.round == 0 {
		for _, b := range []int{bi, bj} {
			if b >= j.nb {
				continue // the bye
			}
			lo, hi := b*j.jb, min(b*j.jb+j.jb, n)
			for p := lo; p < hi; p++ {
				rots += j.rotateRow(p, p+1, hi)
			}
		}
	}
	if bj < j.nb {
		ilo, ihi := bi*j.jb, min(bi*j.jb+j.jb, n)
		jlo, jhi := bj*j.jb, min(bj*j.jb+j.jb, n)
		for p := ilo; p < ihi; p++ {
			rots += j.rotateRow(p, jlo, jhi)
		}
	}
	j.rots[u] = rots
}

// rotateRow treats the pairs (p, q) for q in [lo, hi) in order and returns
// the number of rotations. After a rotation of (p, q) the dot product of
// the new row p with row q+1 comes out of the rotation kernel itself
// (fastRotDot), which saves a pass over both rows; after a pair that needs
// no rotation — typical of the last sweeps — the dot products of row p with
// the next four rows are computed together (dot4), which reads row p once
// instead of four times.
// Either way the dot products are those of the rows as they are when the
// pair is reached, so the order of operations depends only on the data.
func (j *jacobiJob) rotateRow(p, lo, hi int) int {
	rots := 0
	var raw float64 // xₚ·x_qᵀ for the next q, when known
	known := false
	var ahead [4]float64 // xₚ·x_{q0+i}ᵀ, valid while row p is unchanged
	q0, nAhead := 0, 0
	xs := j.x.Stride
	row := func(i int) []float64 { return j.x.Data[i*xs : i*xs+j.x.Cols] }
	for q := lo; q < hi; q++ {
		if !known {
			if q-q0 < nAhead {
				raw, known = ahead[q-q0], true
			} else if q > lo && hi-q >= 4 { // after a pair left alone
				xp := row(p)
				ahead[0], ahead[1], ahead[2], ahead[3] = dot4(xp, row(q), row(q+1), row(q+2), row(q+3))
				q0, nAhead = q, 4
				raw, known = ahead[0], true
			}
		}
		next := q + 1
		if next == hi {
			next = -1
		}
		var r int
		r, raw, known = j.rotate(p, q, raw, known, next)
		if r != 0 {
			nAhead = 0 // row p has changed
		}
		rots += r
	}
	return rots
}

// rotate orthogonalizes rows p and q of X if their cosine exceeds tol, and
// reports whether it did (1) or not (0). raw is x̃ₚ·x̃_qᵀ (of the stored,
// unscaled rows) when known is set. If it rotates and next ≥ 0, it also
// returns the dot product of the new x̃ₚ with x̃_next.
//
// The angle is Rutishauser's: with ζ = (d_q² − d_p²)/(2·xₚ·x_qᵀ) the
// rotation
//
//	xₚ ← c·(xₚ − t·x_q),   x_q ← c·(x_q + t·xₚ),   t = sign(ζ)/(|ζ| + √(1+ζ²))
//
// zeros xₚ·x_qᵀ, moves norm to the longer row (d_q² += t·xₚ·x_qᵀ,
// d_p² −= t·xₚ·x_qᵀ), and has |t| ≤ 1. It is applied as a "fast" rotation
// (dgesvj's idea): the factor c goes into the row scales g and the stored
// rows get x̃ₚ ← x̃ₚ − (t·g_q/gₚ)·x̃_q and x̃_q ← x̃_q + (t·gₚ/g_q)·x̃ₚ, two
// multiplications per element instead of four.
func (j *jacobiJob) rotate(p, q int, raw float64, known bool, next int) (rotated int, nextRaw float64, nextKnown bool) {
	dp, dq := j.d[p], j.d[q]
	if dp == 0 || dq == 0 {
		return 0, 0, false
	}
	gp, gq := j.g[p], j.g[q]
	xs := j.x.Stride
	xp := j.x.Data[p*xs : p*xs+j.x.Cols]
	xq := j.x.Data[q*xs : q*xs+j.x.Cols]
	np, nq := dp/gp, dq/gq // norms of the stored rows
	var cs float64
	if known && np*nq >= cosSafe {
		cs = raw / np / nq
	} else {
		cs = cosine(xp, xq, np, nq)
	}
	if math.Abs(cs) <= j.tol {
		return 0, 0, false
	}
	aqoap, apoaq := dq/dp, dp/dq
	zeta := (aqoap - apoaq) / (2 * cs)
	var t float64
	if math.Abs(zeta) > 0x1p26 { // 1/√ε: ζ² would lose 1, or overflow
		t = 0.5 / zeta
	} else {
		t = math.Copysign(1, zeta) / (math.Abs(zeta) + math.Sqrt(1+zeta*zeta))
	}
	c := 1 / math.Sqrt(1+t*t)
	a, b := t*gq/gp, t*gp/gq
	if next >= 0 {
		nextRaw, nextKnown = fastRotDot(a, b, xp, xq, j.x.Data[next*xs:next*xs+j.x.Cols]), true
	} else {
		fastRot(a, b, xp, xq)
	}
	if j.v.Cols > 0 {
		vs := j.v.Stride
		fastRot(a, b, j.v.Data[p*vs:p*vs+j.v.Cols], j.v.Data[q*vs:q*vs+j.v.Cols])
	}
	j.g[p], j.g[q] = c*gp, c*gq
	// New norms from d² ± t·cs·dp·dq; recompute a norm that lost more than
	// three quarters of its square, where the update would cancel.
	if f := 1 - t*aqoap*cs; f > 0.25 {
		j.d[p] = dp * math.Sqrt(f)
	} else {
		j.d[p] = nrm2(xp) * j.g[p]
	}
	if f := 1 + t*apoaq*cs; f > 0.25 {
		j.d[q] = dq * math.Sqrt(f)
	} else {
		j.d[q] = nrm2(xq) * j.g[q]
	}
	// Keep the scales away from underflow (each rotation multiplies them
	// by c ≥ 1/√2), and drop rows that have become noise.
	if j.g[p] < jacobiMinScale {
		j.unscale(p)
		nextKnown = false
	}
	if j.g[q] < jacobiMinScale {
		j.unscale(q)
	}
	if j.d[p] <= j.flush {
		j.zero(p)
		nextKnown = false
	}
	if j.d[q] <= j.flush {
		j.zero(q)
	}
	return 1, nextRaw, nextKnown
}

// unscale multiplies row i of x and of v by its scale g[i] and resets the
// scale to 1.
func (j *jacobiJob) unscale(i int) {
	f := j.g[i]
	if f == 1 {
		return
	}
	scaleRow := func(row []float64) {
		for k := range row {
			row[k] *= f
		}
	}
	scaleRow(j.x.Data[i*j.x.Stride : i*j.x.Stride+j.x.Cols])
	if j.v.Cols > 0 {
		scaleRow(j.v.Data[i*j.v.Stride : i*j.v.Stride+j.v.Cols])
	}
	j.g[i] = 1
}

// zero sets row i of X and its norm to zero; row i of V keeps its value.
func (j *jacobiJob) zero(i int) {
	j.unscale(i)
	clear(j.x.Data[i*j.x.Stride : i*j.x.Stride+j.x.Cols])
	j.d[i] = 0
}

// cosine returns x·yᵀ/(dx·dy) for rows with norms dx, dy > 0. Rows so short
// that the terms of the dot product would underflow are scaled by powers of
// two first (slowly, but that is rare).
func cosine(x, y []float64, dx, dy float64) float64 {
	if dx*dy >= cosSafe {
		return dot(x, y) / dx / dy
	}
	_, ex := math.Frexp(dx)
	_, ey := math.Frexp(dy)
	y = y[:len(x)]
	var s float64
	for i, v := range x {
		s += math.Ldexp(v, -ex) * math.Ldexp(y[i], -ey)
	}
	return s / math.Ldexp(dx, -ex) / math.Ldexp(dy, -ey)
}

// fastRot applies the fast rotation x ← x − a·y, y ← y + b·x (the old x)
// to a pair of rows. Unrolled by two, which measured 5–15% faster than the
// plain loop.
func fastRot(a, b float64, x, y []float64) {
	y = y[:len(x)]
	i := 0
	for ; i+1 < len(x); i += 2 {
		x0, y0 := x[i], y[i]
		x1, y1 := x[i+1], y[i+1]
		x[i] = x0 - a*y0
		y[i] = y0 + b*x0
		x[i+1] = x1 - a*y1
		y[i+1] = y1 + b*x1
	}
	if i < len(x) {
		x0, y0 := x[i], y[i]
		x[i] = x0 - a*y0
		y[i] = y0 + b*x0
	}
}

// fastRotDot is fastRot followed by the dot product of the new x with z,
// in one pass: it returns Σ x'[i]·z[i] with two interleaved partial sums.
func fastRotDot(a, b float64, x, y, z []float64) float64 {
	y = y[:len(x)]
	z = z[:len(x)]
	var d0, d1 float64
	i := 0
	for ; i+1 < len(x); i += 2 {
		x0, y0 := x[i], y[i]
		x1, y1 := x[i+1], y[i+1]
		u0 := x0 - a*y0
		u1 := x1 - a*y1
		x[i] = u0
		y[i] = y0 + b*x0
		x[i+1] = u1
		y[i+1] = y1 + b*x1
		d0 += u0 * z[i]
		d1 += u1 * z[i+1]
	}
	if i < len(x) {
		x0, y0 := x[i], y[i]
		u := x0 - a*y0
		x[i] = u
		y[i] = y0 + b*x0
		d0 += u * z[i]
	}
	return d0 + d1
}
