package linalg

import "math"

// The singular values and vectors of a 2×2 upper triangular matrix
//
//	[f  g]
//	[0  h],
//
// the building blocks of the bidiagonal QR iteration (bdsqr): singular2x2
// gives the shift, svd2x2 finishes a 2×2 block. Both are the formulas of
// Demmel and Kahan, "Accurate singular values of bidiagonal matrices"
// (1990), which give both singular values to high relative accuracy and
// never overflow unless a singular value itself does.

// singular2x2 returns the singular values σmin ≤ σmax (both ≥ 0) of the
// upper triangular [f g; 0 h] (LAPACK's dlas2). With a = max(|f|, |h|) and
// b = min(|f|, |h|), σmax·σmin = a·b and
// σmax ± σmin = √((a ± b)² + g²), which are evaluated in forms that scale
// by the largest entry, so that neither is lost to overflow, underflow or
// cancellation.
func singular2x2(f, g, h float64) (smin, smax float64) {
	fa, ga, ha := math.Abs(f), math.Abs(g), math.Abs(h)
	lo, hi := math.Min(fa, ha), math.Max(fa, ha)
	switch {
	case lo == 0:
		// A zero diagonal entry: σmin = 0, σmax = ‖(hi, g)‖.
		if hi == 0 {
			return 0, ga
		}
		return 0, math.Max(hi, ga) * math.Sqrt(1+sq(math.Min(hi, ga)/math.Max(hi, ga)))
	case ga < hi:
		as := 1 + lo/hi
		at := (hi - lo) / hi
		au := sq(ga / hi)
		c := 2 / (math.Sqrt(as*as+au) + math.Sqrt(at*at+au))
		return lo * c, hi / c
	default:
		au := hi / ga
		if au == 0 {
			// hi/ga underflowed: σmax = |g| and σmin = |f·h/g| to full
			// accuracy.
			return (lo * hi) / ga, ga
		}
		as := 1 + lo/hi
		at := (hi - lo) / hi
		c := 1 / (math.Sqrt(1+sq(as*au)) + math.Sqrt(1+sq(at*au)))
		smin = (lo * c) * au
		return smin + smin, ga / (c + c)
	}
}

func sq(x float64) float64 { return x * x }

// svd2x2 returns the singular value decomposition of the upper triangular
// [f g; 0 h] (LAPACK's dlasv2):
//
//	[ cl  sl] [f  g] [cr  −sr]   [smax    0]
//	[−sl  cl] [0  h] [sr   cr] = [0    smin],
//
// with |smax| ≥ |smin|. The singular values carry signs (their product is
// f·h) so that the rotations are exact; |smax| and |smin| are accurate to a
// few ulps relative, and the rotations to a few ulps absolute.
//
// The method: with the larger diagonal entry in the (1,1) position (swapping
// the roles of the two sides otherwise), let ft = f, ht = h, l = (|f| − |h|)/|f|,
// m = g/f, t = 2 − l, s = √(t² + m²), r = √(l² + m²) and a = (s + r)/2;
// then |smax| = |f|·a and |smin| = |h|/a, and the right rotation has
// tangent t = (m/(s + t) + m/(r + l))·(1 + a) (with special forms when m²
// underflows, and when |g| is so much larger than |f| that g dominates).
func svd2x2(f, g, h float64) (smin, smax, cl, sl, cr, sr float64) {
	ft, ht, gt := f, h, g
	fa, ha, ga := math.Abs(f), math.Abs(h), math.Abs(g)
	// pmax names the entry of largest magnitude: 1 for f, 2 for g, 3 for h.
	pmax := 1
	swap := ha > fa
	if swap {
		pmax = 3
		ft, ht = ht, ft
		fa, ha = ha, fa
	}
	var clt, slt, crt, srt float64
	if ga == 0 {
		// Diagonal already.
		smin, smax = ht, ft
		clt, crt, slt, srt = 1, 1, 0, 0
	} else {
		gSmall := true
		if ga > fa {
			pmax = 2
			if fa/ga < tridiagEps {
				// g dominates so much that the formulas below would lose
				// it: smax = |g|, smin = f·h/g to full accuracy.
				gSmall = false
				smax = ga
				if ha > 1 {
					smin = fa / (ga / ha)
				} else {
					smin = (fa / ga) * ha
				}
				clt = 1
				slt = ht / gt
				srt = 1
				crt = ft / gt
			}
		}
		if gSmall {
			dd := fa - ha
			l := 1.0 // copes with an infinite f
			if dd != fa {
				l = dd / fa
			}
			m := gt / ft
			t := 2 - l
			mm, tt := m*m, t*t
			s := math.Sqrt(tt + mm)
			r := math.Abs(m)
			if l != 0 {
				r = math.Sqrt(l*l + mm)
			}
			a := 0.5 * (s + r)
			smin = ha / a
			smax = fa * a
			switch {
			case mm != 0:
				t = (m/(s+t) + m/(r+l)) * (1 + a)
			case l == 0:
				t = math.Copysign(2, ft) * math.Copysign(1, gt)
			default:
				t = gt/math.Copysign(dd, ft) + m/t
			}
			l = math.Sqrt(t*t + 4)
			crt = 2 / l
			srt = t / l
			clt = (crt + srt*m) / a
			slt = (ht / ft) * srt / a
		}
	}
	if swap {
		cl, sl, cr, sr = srt, crt, slt, clt
	} else {
		cl, sl, cr, sr = clt, slt, crt, srt
	}
	// The signs of the singular values that make the rotations exact.
	var sign float64
	switch pmax {
	case 1:
		sign = math.Copysign(1, cr) * math.Copysign(1, cl) * math.Copysign(1, f)
	case 2:
		sign = math.Copysign(1, sr) * math.Copysign(1, cl) * math.Copysign(1, g)
	default:
		sign = math.Copysign(1, sr) * math.Copysign(1, sl) * math.Copysign(1, h)
	}
	smax = math.Copysign(smax, sign)
	smin = math.Copysign(smin, sign*math.Copysign(1, f)*math.Copysign(1, h))
	return smin, smax, cl, sl, cr, sr
}
