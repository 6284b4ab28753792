package linalg

import "math"

// jacobiBlock is the number of rows in a block of the parallel one-sided
// Jacobi ordering (see jacobi). A block pair — 2·jacobiBlock rows of X and of
// the accumulated rotations — stays in the L2 cache while all its
// jacobiBlock² pairs are rotated. A variable only so that TestCalibrate can
// sweep it.
var jacobiBlock = 16

// jacobiMaxSweeps bounds the sweeps of jacobi. Random square matrices of
// order 1000 need about 13 (12–15 for order 200–500); dgesvj allows 30.
const jacobiMaxSweeps = 60

// jacobiFlush: a row whose norm falls to jacobiFlush times the largest is
// set to zero. It can only be rounding noise left by rotations against
// rows it depends on (the last of n rows in a space of dimension n−1 shrinks
// by a factor of about ε per sweep and would never let the iteration stop),
// and zeroing it perturbs X by less than ε² relative to ‖X‖.
const jacobiFlush = 0x1p-104

// Below cosSafe a product of two row norms is too small for dot to be
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
// rotation angle in between. The iteration stops after a sweep without a
// rotation; after maxSweeps sweeps it returns a *ConvergenceError.
//
// Each rotation costs 6·len + 6·k flops and each pair visited 2·len more, so
// a sweep with every pair rotated costs about n²·(4·len + 3·k) flops.
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
		x: x, v: v, d: d, jb: jb, nb: nb,
		tol:  math.Max(math.Sqrt(float64(x.Cols)), 4) * 0x1p-52,
		pos:  make([]int, teams),
		rots: make([]int, teams/2),
	}
	pairFlops := float64(jb*jb) * float64(14*x.Cols+6*v.Cols)
	p := teamSize(teams/2, float64(teams/2)*pairFlops)
	for sweep := 1; sweep <= maxSweeps; sweep++ {
		var dmax float64
		for i := 0; i < n; i++ {
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
	d      []float64
	jb, nb int
	tol    float64
	flush  float64 // rows with norms at most flush are zeroed
	round  int
	pos    []int
	rots   []int
}

func (j *jacobiJob) run(_, u int) {
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
				for q := p + 1; q < hi; q++ {
					rots += j.rotate(p, q)
				}
			}
		}
	}
	if bj < j.nb {
		ilo, ihi := bi*j.jb, min(bi*j.jb+j.jb, n)
		jlo, jhi := bj*j.jb, min(bj*j.jb+j.jb, n)
		for p := ilo; p < ihi; p++ {
			for q := jlo; q < jhi; q++ {
				rots += j.rotate(p, q)
			}
		}
	}
	j.rots[u] = rots
}

// rotate orthogonalizes rows p and q of x if their cosine exceeds tol, and
// reports whether it did (1) or not (0). The angle is Rutishauser's: with
// ζ = (d_q² − d_p²)/(2·xₚ·x_qᵀ) the rotation
//
//	xₚ ← c·xₚ − s·x_q,   x_q ← s·xₚ + c·x_q,   t = s/c = sign(ζ)/(|ζ| + √(1+ζ²))
//
// zeros xₚ·x_qᵀ, moves norm to the longer row (d_q² += t·xₚ·x_qᵀ,
// d_p² −= t·xₚ·x_qᵀ), and has |t| ≤ 1.
func (j *jacobiJob) rotate(p, q int) int {
	dp, dq := j.d[p], j.d[q]
	if dp == 0 || dq == 0 {
		return 0
	}
	xs := j.x.Stride
	xp := j.x.Data[p*xs : p*xs+j.x.Cols]
	xq := j.x.Data[q*xs : q*xs+j.x.Cols]
	cs := cosine(xp, xq, dp, dq)
	if math.Abs(cs) <= j.tol {
		return 0
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
	s := t * c
	rot(c, s, xp, xq)
	if j.v.Cols > 0 {
		vs := j.v.Stride
		rot(c, s, j.v.Data[p*vs:p*vs+j.v.Cols], j.v.Data[q*vs:q*vs+j.v.Cols])
	}
	// New norms from d² ± t·cs·dp·dq; recompute a norm that lost more than
	// three quarters of its square, where the update would cancel.
	if f := 1 - t*aqoap*cs; f > 0.25 {
		j.d[p] = dp * math.Sqrt(f)
	} else {
		j.d[p] = nrm2(xp)
	}
	if f := 1 + t*apoaq*cs; f > 0.25 {
		j.d[q] = dq * math.Sqrt(f)
	} else {
		j.d[q] = nrm2(xq)
	}
	if j.d[p] <= j.flush {
		j.zero(p)
	}
	if j.d[q] <= j.flush {
		j.zero(q)
	}
	return 1
}

// zero sets row i of x and its norm to zero.
func (j *jacobiJob) zero(i int) {
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

// rot applies the plane rotation [c −s; s c] to the pair of rows (x, y):
// x ← c·x − s·y, y ← s·x + c·y. Unrolled by two, which measured 5–15%
// faster than the plain loop.
func rot(c, s float64, x, y []float64) {
	y = y[:len(x)]
	i := 0
	for ; i+2 <= len(x); i += 2 {
		a0, b0 := x[i], y[i]
		a1, b1 := x[i+1], y[i+1]
		x[i] = c*a0 - s*b0
		y[i] = s*a0 + c*b0
		x[i+1] = c*a1 - s*b1
		y[i+1] = s*a1 + c*b1
	}
	if i < len(x) {
		a, b := x[i], y[i]
		x[i] = c*a - s*b
		y[i] = s*a + c*b
	}
}
