package loo

// The streamed objective of ScaleObjective against the dense reference of
// ard_reference_test.go, finite differences and NystromPath on the
// rescaled features; its passes split into shards and merged.

import (
	"errors"
	"math"
	"runtime"
	"testing"

	"rkhs/datasets"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// scaleCase is one objective of the tests on the data of ardData: n rows,
// q outputs (±1 codes with classes), m centres (the first rows).
type scaleCase struct {
	name    string
	n, m, q int
	classes bool
	obj     ScaleObjective
}

// scaleCases are the objectives the gradient tests cover: every
// intercept mode, one and two outputs, every row and a subset, GCV, and
// the codes of classes.
func scaleCases() []scaleCase {
	return []scaleCase{
		{name: "free, q=1, all rows", n: 80, m: 12, q: 1, obj: ScaleObjective{Intercept: regress.FreeIntercept}},
		{name: "free, q=2, a subset", n: 80, m: 12, q: 2, obj: ScaleObjective{Intercept: regress.FreeIntercept, Subset: 27, Seed: 3}},
		{name: "none, q=1, all rows", n: 80, m: 12, q: 1, obj: ScaleObjective{Intercept: regress.NoIntercept}},
		{name: "none, q=2, a subset", n: 80, m: 12, q: 2, obj: ScaleObjective{Intercept: regress.NoIntercept, Subset: 27, Seed: 3}},
		{name: "penalized, q=1, all rows", n: 80, m: 12, q: 1, obj: ScaleObjective{Intercept: regress.PenalizedIntercept}},
		{name: "penalized, q=2, a subset", n: 80, m: 12, q: 2, obj: ScaleObjective{Intercept: regress.PenalizedIntercept, Subset: 27, Seed: 3}},
		{name: "free, q=2, GCV", n: 80, m: 12, q: 2, obj: ScaleObjective{Intercept: regress.FreeIntercept, Criterion: GCV}},
		{name: "none, q=1, GCV", n: 80, m: 12, q: 1, obj: ScaleObjective{Intercept: regress.NoIntercept, Criterion: GCV}},
		{name: "penalized, q=2, GCV", n: 80, m: 12, q: 2, obj: ScaleObjective{Intercept: regress.PenalizedIntercept, Criterion: GCV}},
		{name: "free, ±1 codes, all rows", n: 80, m: 12, q: 1, classes: true, obj: ScaleObjective{Intercept: regress.FreeIntercept, Criterion: LOOErrorRate}},
		{name: "penalized, ±1 codes, a subset", n: 80, m: 12, q: 1, classes: true, obj: ScaleObjective{Intercept: regress.PenalizedIntercept, Criterion: LOOErrorRate, Subset: 40, Seed: 9}},
	}
}

// data returns the case's rows, outputs and objective (its centres set).
func (c scaleCase) data() (x, y *linalg.Dense, o ScaleObjective) {
	x, y = ardData(c.n, c.q, c.classes)
	o = c.obj
	o.Centers = x.Slice(0, c.m, 0, x.Cols).Clone()
	return x, y, o
}

// reference returns the dense reference's problem of the case.
func (c scaleCase) reference(x, y *linalg.Dense, o ScaleObjective) ardProblem {
	return ardProblem{x: x, y: y, c: o.Centers, ic: o.Intercept,
		obj: ardObjective{subset: o.SubsetRows(x.Rows), gcv: o.Criterion == GCV}}
}

// TestScaleGradient: the streamed gradient equals the dense reference's
// to 1e-9 and the five-point central difference of the streamed value
// (step ardStep, see there) to 1e-6, relative to the largest entry, for
// every case of scaleCases; the value equals the reference's to 1e-10
// (measured 10⁻¹² at most; both compute J to a few 10⁻¹²).
func TestScaleGradient(t *testing.T) {
	for _, c := range scaleCases() {
		x, y, o := c.data()
		ev, err := o.Evaluate(x, y, ardTheta)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		ref := c.reference(x, y, o)
		if v := ref.value(t, ardTheta); math.Abs(ev.Value-v) > 1e-10*v {
			t.Errorf("%s: J = %.15g, the dense reference %.15g", c.name, ev.Value, v)
		}
		dense, _ := ref.gradient(t, ardTheta)
		fd := scaleFD(t, o, x, y, ardTheta)
		rd, rf := relDiff(ev.Gradient, dense), relDiff(ev.Gradient, fd)
		t.Logf("%s: J %.6g, ∇J %.6g; relative differences: dense %.2g, finite differences %.2g", c.name, ev.Value, ev.Gradient, rd, rf)
		if rd > 1e-9 {
			t.Errorf("%s: gradient %v, dense reference %v (rel %.2g)", c.name, ev.Gradient, dense, rd)
		}
		if rf > 1e-6 {
			t.Errorf("%s: gradient %v, finite differences %v (rel %.2g)", c.name, ev.Gradient, fd, rf)
		}
	}
}

// scaleFD returns the five-point central difference (step ardStep) of
// the objective's value at theta in every entry of θ.
func scaleFD(t *testing.T, o ScaleObjective, x, y *linalg.Dense, theta []float64) []float64 {
	t.Helper()
	fd := make([]float64, len(theta))
	for j := range fd {
		fd[j] = ardFD(func(s float64) float64 {
			th := append([]float64(nil), theta...)
			th[j] += s
			e, err := o.Evaluate(x, y, th)
			if err != nil {
				t.Fatal(err)
			}
			return e.Value
		}, ardStep)
	}
	return fd
}

// TestScaleGradientIllConditioned: on 300 rows of the housing data with
// 40 centres, every σ_j = 4 and λ = 10⁻⁶, K_mm has a condition number
// near 3·10⁹ and the adjoint N entries near 10¹⁰ that cancel in the
// contraction; the gradient still equals the five-point difference to
// 1e-6 relative to its largest entry (measured 2·10⁻⁷; the dense
// reference, which forms M⁻¹, is off by 6·10⁻⁵).
func TestScaleGradientIllConditioned(t *testing.T) {
	h := datasets.MustLoad("housing")
	x := h.X.Slice(0, 300, 0, h.X.Cols).Clone()
	y := linalg.NewDense(300, 1, append([]float64(nil), h.Y[:300]...))
	o := ScaleObjective{Centers: x.Slice(0, 40, 0, x.Cols).Clone(), Intercept: regress.FreeIntercept}
	theta := make([]float64, x.Cols+1)
	for j := 0; j < x.Cols; j++ {
		theta[j] = math.Log(4)
	}
	theta[x.Cols] = math.Log(1e-6)
	ev, err := o.Evaluate(x, y, theta)
	if err != nil {
		t.Fatal(err)
	}
	fd := scaleFD(t, o, x, y, theta)
	r := relDiff(ev.Gradient, fd)
	t.Logf("housing, σ = 4: relative difference from finite differences %.2g", r)
	if r > 1e-6 {
		t.Errorf("gradient %v, finite differences %v (rel %.2g)", ev.Gradient, fd, r)
	}
}

// TestScaleValue: the value equals NystromPath's on the rows and centres
// divided by σ — its MSE over the rows of S, or its GCV — to 1e-9, and
// with classes the error rate is NystromPath's too.
func TestScaleValue(t *testing.T) {
	for _, c := range scaleCases() {
		x, y, o := c.data()
		ev, err := o.Evaluate(x, y, ardTheta)
		if err != nil {
			t.Fatal(err)
		}
		xs, cs := ardScale(x, ardTheta), ardScale(o.Centers, ardTheta)
		st, err := regress.NewNystromStats(kernels.Gaussian{Sigma: 1}, cs)
		if err == nil {
			err = st.Add(xs, y)
		}
		if err != nil {
			t.Fatal(err)
		}
		np, err := NewNystromPath(st, o.Intercept, []float64{math.Exp(ardTheta[3])})
		if err != nil {
			t.Fatal(err)
		}
		want := np.GCV[0]
		if o.Criterion != GCV {
			sx, sy := xs, y
			if idx := o.SubsetRows(x.Rows); idx != nil {
				sx, sy = pickRows(xs, y, SelectNystrom{Subset: len(idx), Seed: o.Seed}.SubsetRows(x.Rows))
			}
			if err := np.Add(sx, sy); err != nil {
				t.Fatal(err)
			}
			mse, _ := np.MSE()
			se, _ := np.MSEStdErr()
			want = mse[0]
			if math.Abs(ev.StdErr-se[0]) > 1e-9*se[0] {
				t.Errorf("%s: standard error %.15g, NystromPath's %.15g", c.name, ev.StdErr, se[0])
			}
			if o.Criterion == LOOErrorRate {
				e, _ := np.ErrorRate()
				if ev.ErrorRate != e[0] {
					t.Errorf("%s: error rate %g, NystromPath's %g", c.name, ev.ErrorRate, e[0])
				}
			}
		}
		r := math.Abs(ev.Value-want) / want
		t.Logf("%s: J %.15g, NystromPath %.15g (rel %.2g)", c.name, ev.Value, want, r)
		if r > 1e-9 {
			t.Errorf("%s: J %.15g, NystromPath on the scaled rows %.15g (rel %.2g)", c.name, ev.Value, want, r)
		}
	}
}

// scalePasses runs the three passes at θ with the rows split at the
// indices cuts, each pass run on each shard by a value of its own and the
// shards merged in order, marking the rows of S in pass B, and returns
// the result. With wire, each shard's sums cross an encoding
// (MarshalBinary) into a value the driver made (UnmarshalBinary), as on
// separate machines.
func scalePasses(t *testing.T, o ScaleObjective, x, y *linalg.Dense, theta []float64, cuts []int, wire bool) *ScaleEval {
	t.Helper()
	bounds := append(append([]int{0}, cuts...), x.Rows)
	shard := func(k int, a *linalg.Dense) *linalg.Dense { return a.Slice(bounds[k], bounds[k+1], 0, a.Cols) }
	type codec interface {
		MarshalBinary() ([]byte, error)
		UnmarshalBinary([]byte) error
	}
	// ship returns part, or with wire a fresh value (made by fresh) that
	// decoded part's encoding.
	ship := func(part, fresh codec) {
		t.Helper()
		b, err := part.MarshalBinary()
		if err == nil {
			err = fresh.UnmarshalBinary(b)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	var st *ScaleStats
	for k := 0; k+1 < len(bounds); k++ {
		s, err := o.NewStats(theta)
		if err == nil {
			err = s.Add(shard(k, x), shard(k, y))
		}
		if err != nil {
			t.Fatal(err)
		}
		if wire {
			got, err := o.NewStats(theta)
			if err != nil {
				t.Fatal(err)
			}
			ship(s, got)
			s = got
		}
		if st == nil {
			st = s
		} else if err := st.Merge(s); err != nil {
			t.Fatal(err)
		}
	}
	p, err := NewScalePath(st)
	if err != nil {
		t.Fatal(err)
	}
	idx := o.SubsetRows(x.Rows)
	in := make([]bool, x.Rows)
	for i := range in {
		in[i] = idx == nil
	}
	for _, i := range idx {
		in[i] = true
	}
	var a *ScaleLOO
	for k := 0; o.Criterion != GCV && k+1 < len(bounds); k++ {
		part, err := p.NewLOO()
		if err != nil {
			t.Fatal(err)
		}
		var rows []int
		for i := bounds[k]; i < bounds[k+1]; i++ {
			if in[i] {
				rows = append(rows, i)
			}
		}
		if len(rows) > 0 {
			rx, ry := linalg.NewDense(len(rows), x.Cols, nil), linalg.NewDense(len(rows), y.Cols, nil)
			for r, i := range rows {
				copy(rx.Row(r), x.Row(i))
				copy(ry.Row(r), y.Row(i))
			}
			if err := part.Add(rx, ry); err != nil {
				t.Fatal(err)
			}
		}
		if wire {
			got, _ := p.NewLOO()
			ship(part, got)
			part = got
		}
		if a == nil {
			a = part
		} else if err := a.Merge(part); err != nil {
			t.Fatal(err)
		}
	}
	var ad *ScaleAdjoint
	for k := 0; k+1 < len(bounds); k++ {
		part, err := p.NewAdjoint(a)
		if err != nil {
			t.Fatal(err)
		}
		var marks []bool
		if o.Criterion != GCV && idx != nil {
			marks = in[bounds[k]:bounds[k+1]]
		}
		if err := part.Add(shard(k, x), shard(k, y), marks); err != nil {
			t.Fatal(err)
		}
		if wire {
			got, _ := p.NewAdjoint(a)
			ship(part, got)
			part = got
		}
		if ad == nil {
			ad = part
		} else if err := ad.Merge(part); err != nil {
			t.Fatal(err)
		}
	}
	ev, err := ad.Result()
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// TestScaleShards: the passes run on two shards and merged give the value
// and gradient of Evaluate to 1e-12, and the same split twice, the second
// time with every shard's sums encoded and decoded, gives the same bits,
// for every case.
func TestScaleShards(t *testing.T) {
	for _, c := range scaleCases() {
		x, y, o := c.data()
		ev, err := o.Evaluate(x, y, ardTheta)
		if err != nil {
			t.Fatal(err)
		}
		got := scalePasses(t, o, x, y, ardTheta, []int{37}, false)
		again := scalePasses(t, o, x, y, ardTheta, []int{37}, true)
		if r := relDiff(append(got.Gradient, got.Value), append(ev.Gradient, ev.Value)); r > 1e-12 {
			t.Errorf("%s: two shards merged give J %.15g, ∇J %v; one pass J %.15g, ∇J %v (rel %.2g)", c.name, got.Value, got.Gradient, ev.Value, ev.Gradient, r)
		}
		if !sameBits(append(got.Gradient, got.Value), append(again.Gradient, again.Value)) {
			t.Errorf("%s: the same split twice gives different bits", c.name)
		}
		if one := scalePasses(t, o, x, y, ardTheta, nil, true); !sameBits(append(one.Gradient, one.Value), append(ev.Gradient, ev.Value)) {
			t.Errorf("%s: the passes on one shard give J %v, ∇J %v; Evaluate %v, %v", c.name, one.Value, one.Gradient, ev.Value, ev.Gradient)
		}
	}
}

// TestScaleDeterminism: Evaluate is bit-identical at GOMAXPROCS 1, 2 and
// 8, on blocks small enough that the passes take several.
func TestScaleDeterminism(t *testing.T) {
	defer func(e int) { passElems = e }(passElems)
	passElems = 40 * 12
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, c := range scaleCases() {
		x, y, o := c.data()
		var first []float64
		for _, procs := range []int{1, 2, 8} {
			runtime.GOMAXPROCS(procs)
			ev, err := o.Evaluate(x, y, ardTheta)
			if err != nil {
				t.Fatal(err)
			}
			got := append(ev.Gradient, ev.Value, ev.StdErr)
			if first == nil {
				first = got
			} else if !sameBits(got, first) {
				t.Errorf("%s: GOMAXPROCS=%d gives %v, 1 gives %v", c.name, procs, got, first)
			}
		}
	}
}

// TestScaleSingular: a λ at which the fit interpolates is an error that
// wraps linalg.ErrNotPositiveDefinite.
func TestScaleSingular(t *testing.T) {
	x, y := ardData(40, 1, false)
	o := ScaleObjective{Centers: x.Slice(0, 40, 0, 3).Clone()}
	theta := []float64{math.Log(0.05), math.Log(0.05), math.Log(0.05), math.Log(1e-150)}
	_, err := o.Evaluate(x, y, theta)
	if !errors.Is(err, linalg.ErrNotPositiveDefinite) {
		t.Errorf("λ = 1e-150 with every row a centre: %v, want linalg.ErrNotPositiveDefinite", err)
	}
}

// TestScaleRefusals: the passes refuse the sums of another θ, path or
// pass A, truncated encodings, marks that cannot be rows of S, and a
// result before every row (or every row of S) was added; each error wraps
// ErrInput.
func TestScaleRefusals(t *testing.T) {
	x, y := ardData(60, 1, false)
	o := ScaleObjective{Centers: x.Slice(0, 10, 0, 3).Clone(), Intercept: regress.FreeIntercept, Subset: 20, Seed: 1}
	other := append([]float64(nil), ardTheta...)
	other[0] += 0.1
	build := func(theta []float64) (*ScaleStats, *ScalePath, *ScaleLOO, *ScaleAdjoint) {
		st, err := o.NewStats(theta)
		if err == nil {
			err = st.Add(x, y)
		}
		if err != nil {
			t.Fatal(err)
		}
		p, err := NewScalePath(st)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := p.NewLOO()
		sx, sy := pickRows(x, y, SelectNystrom{Subset: 20, Seed: 1}.SubsetRows(x.Rows))
		if err := a.Add(sx, sy); err != nil {
			t.Fatal(err)
		}
		ad, err := p.NewAdjoint(a)
		if err != nil {
			t.Fatal(err)
		}
		return st, p, a, ad
	}
	st, p, a, ad := build(ardTheta)
	st2, p2, a2, ad2 := build(other)
	enc := func(v interface{ MarshalBinary() ([]byte, error) }) []byte {
		b, err := v.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	fresh, _ := o.NewStats(ardTheta)
	freshA, _ := p.NewLOO()
	freshB, _ := p.NewAdjoint(a)
	all := make([]bool, x.Rows)
	for i := range all {
		all[i] = true
	}
	gcv := ScaleObjective{Centers: o.Centers, Criterion: GCV}
	gst, _ := gcv.NewStats(ardTheta)
	gst.Add(x, y)
	gp, _ := NewScalePath(gst)
	gad, _ := gp.NewAdjoint(nil)
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"stats of another θ merged", st.Merge(st2)},
		{"stats of another θ decoded", fresh.UnmarshalBinary(enc(st2))},
		{"truncated stats", fresh.UnmarshalBinary(enc(st)[:100])},
		{"pass-A sums of another path merged", a.Merge(a2)},
		{"pass-A sums of another path decoded", freshA.UnmarshalBinary(enc(a2))},
		{"truncated pass-A sums", freshA.UnmarshalBinary(enc(a)[:len(enc(a))-8])},
		{"pass-B sums of another path merged", ad.Merge(ad2)},
		{"pass-B sums of another path decoded", freshB.UnmarshalBinary(enc(ad2))},
		{"pass A of another path", errOf(p.NewAdjoint(a2))},
		{"pass A for GCV", errOf(gp.NewAdjoint(a))},
		{"no pass A for GCV's NewLOO", errOf(gp.NewLOO())},
		{"rows of S marked for GCV", gad.Add(x, y, all)},
		{"more rows of S than pass A had", freshB.Add(x, y, all)},
		{"marks of the wrong length", freshB.Add(x, y, all[:5])},
		{"result before every row", errOf(freshB.Result())},
		{"result without the rows of S", func() error {
			b, _ := p.NewAdjoint(a)
			if err := b.Add(x, y, nil); err != nil {
				return err
			}
			_, err := b.Result()
			return err
		}()},
		{"stats of no rows", errOf(NewScalePath(fresh))},
		{"θ of the wrong length", errOf(o.NewStats(ardTheta[:3]))},
		{"θ beyond the float64 range", errOf(o.NewStats([]float64{0, 0, 400, 0}))},
	} {
		if !errors.Is(tc.err, ErrInput) {
			t.Errorf("%s: %v, want an error wrapping ErrInput", tc.name, tc.err)
		}
	}
	_ = p2
}

// errOf returns the error of a call with two results.
func errOf[T any](_ T, err error) error { return err }

// TestScaleGradientLaplacian: with Kernel the Laplacian, whose rows and
// derivatives come from kernels.Scaled alone, the objective's gradient
// equals the five-point difference of its value to 1e-6 relative to the
// largest entry, in every intercept mode, over every row, a subset and
// for GCV; and its value equals NystromPath's MSE of the Laplacian of
// width 1 on the rows and centres divided by σ.
func TestScaleGradientLaplacian(t *testing.T) {
	{
		x, y, o := scaleCases()[0].data()
		o.Kernel = kernels.Polynomial{Degree: 2, Offset: 1}
		if _, err := o.Evaluate(x, y, ardTheta); !errors.Is(err, ErrInput) || !errors.Is(err, kernels.ErrParameter) {
			t.Errorf("a polynomial kernel: error %v, want ErrInput and kernels.ErrParameter", err)
		}
	}
	for _, c := range scaleCases()[:7] {
		x, y, o := c.data()
		o.Kernel = kernels.Laplacian{Sigma: 1}
		ev, err := o.Evaluate(x, y, ardTheta)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		fd := scaleFD(t, o, x, y, ardTheta)
		if rf := relDiff(ev.Gradient, fd); rf > 1e-6 {
			t.Errorf("%s: gradient %v, finite differences %v (rel %.2g)", c.name, ev.Gradient, fd, rf)
		}
		if o.Criterion != LOOMSE || o.Subset != 0 {
			continue
		}
		d := x.Cols
		sigma := make([]float64, d)
		for j := range sigma {
			sigma[j] = math.Exp(ardTheta[j])
		}
		div := func(a *linalg.Dense) *linalg.Dense {
			b := a.Clone()
			for i := 0; i < b.Rows; i++ {
				for j, v := range b.Row(i) {
					b.Set(i, j, v/sigma[j])
				}
			}
			return b
		}
		xs, cs := div(x), div(o.Centers)
		st, err := regress.NewNystromStats(kernels.Laplacian{Sigma: 1}, cs)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Add(xs, y); err != nil {
			t.Fatal(err)
		}
		p, err := NewNystromPath(st, o.Intercept, []float64{math.Exp(ardTheta[d])})
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Add(xs, y); err != nil {
			t.Fatal(err)
		}
		mse, _ := p.MSE()
		if math.Abs(ev.Value-mse[0]) > 1e-12*mse[0] {
			t.Errorf("%s: J = %.15g, NystromPath's MSE on the scaled rows %.15g", c.name, ev.Value, mse[0])
		}
	}
}
