package regress

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"rkhs/internal/testmat"
	"rkhs/kernels"
	"rkhs/linalg"
)

// statsProblem is a data set of n rows, d features and q outputs with a
// smooth target plus noise, and m centres drawn from its rows.
func statsProblem(n, d, q, m int) (x, y, c *linalg.Dense) {
	x = randDense(11, n, d)
	noise := randDense(12, n, q)
	y = linalg.NewDense(n, q, nil)
	for i := 0; i < n; i++ {
		r := x.Row(i)
		for k := 0; k < q; k++ {
			v := 2 + float64(k)
			for j, xj := range r {
				v += float64(j+k+1) * xj * xj
			}
			y.Set(i, k, v+0.1*noise.At(i, k))
		}
	}
	c = linalg.NewDense(m, d, nil)
	for j, i := range drawCenters(n, m, 5) {
		copy(c.Row(j), x.Row(i))
	}
	return x, y, c
}

// drawCenters returns m distinct indices in [0, n) in increasing order:
// the first m of CenterOrder(n, seed), the centres Nystrom draws from
// distinct rows.
func drawCenters(n, m int, seed uint64) []int {
	perm := CenterOrder(n, seed)[:m]
	slices.Sort(perm)
	return perm
}

// addSplit summarises the rows of x and y in the groups given by cuts (row
// indices where a new shard starts), one NystromStats per shard, merged in
// order.
func addSplit(t *testing.T, k kernels.Kernel, c, x, y *linalg.Dense, cuts []int) *NystromStats {
	t.Helper()
	total, err := NewNystromStats(k, c)
	if err != nil {
		t.Fatal(err)
	}
	bounds := append(append([]int{0}, cuts...), x.Rows)
	for s := 0; s+1 < len(bounds); s++ {
		shard, err := NewNystromStats(k, c)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := bounds[s], bounds[s+1]
		if hi > lo {
			if err := shard.Add(x.Slice(lo, hi, 0, x.Cols), y.Slice(lo, hi, 0, y.Cols)); err != nil {
				t.Fatal(err)
			}
		}
		if err := total.Merge(shard); err != nil {
			t.Fatal(err)
		}
	}
	return total
}

// TestNystromStatsEqualsNystrom: the fit from merged statistics equals
// Nystrom.Fit with the same centres, whatever the split (one shard, a
// one-row shard, an empty one, shards across the 256-row workspace):
// coefficients to 1e-10 relative in every intercept mode when K_mm is
// moderately conditioned (σ = 0.8, κ(K_mm) ≈ 6·10⁵); with κ(K_mm) ≈ 10⁹
// (σ = 1.5) predictions to 1e-10 and the coefficients of the modes that
// factor K_mm alike to 1e-9 (Nystrom.Fit on the rows in reverse order
// moves its own coefficients by 1e-10 there).
func TestNystromStatsEqualsNystrom(t *testing.T) {
	x, y, c := statsProblem(1100, 3, 2, 60)
	xc, yc := x.Clone(), y.Clone()
	splits := map[string][]int{
		"one shard":     nil,
		"one-row shard": {1},
		"empty shard":   {300, 300},
		"uneven":        {7, 263, 700, 1099},
	}
	for _, tc := range []struct {
		sigma   float64
		coefTol [3]float64 // by intercept mode; 0: not compared
	}{
		{0.8, [3]float64{1e-10, 1e-10, 1e-10}},
		{1.5, [3]float64{1e-9, 1e-9, 0}},
	} {
		k := kernels.Gaussian{Sigma: tc.sigma}
		for name, cuts := range splits {
			st := addSplit(t, k, c, x, y, cuts)
			if st.Rows() != x.Rows {
				t.Fatalf("%s: %d rows, want %d", name, st.Rows(), x.Rows)
			}
			for _, ic := range intercepts {
				want, err := Nystrom{Kernel: k, Lambda: 1e-4, Given: c, Intercept: ic}.Fit(x, y)
				if err != nil {
					t.Fatal(err)
				}
				got, err := st.Solve(1e-4, ic)
				if err != nil {
					t.Fatal(err)
				}
				if tol := tc.coefTol[ic]; tol > 0 {
					if e := relDiff(got.Coef, want.Coef); e > tol {
						t.Errorf("σ = %g, %s, %v: coefficients differ by %.2g relative", tc.sigma, name, ic, e)
					}
				}
				if e := relDiff(predict(t, got, x), predict(t, want, x)); e > 1e-10 {
					t.Errorf("σ = %g, %s, %v: predictions differ by %.2g relative", tc.sigma, name, ic, e)
				}
			}
		}
	}
	if relDiff(x, xc) != 0 || relDiff(y, yc) != 0 {
		t.Error("the data were modified")
	}
}

// TestNystromStatsMergeOrder: merging is associative within rounding, and
// a fixed order of Add and Merge gives bit-identical statistics, also
// across GOMAXPROCS.
func TestNystromStatsMergeOrder(t *testing.T) {
	testmat.SkipSingleThreaded(t)
	x, y, c := statsProblem(900, 4, 1, 300)
	k := kernels.Gaussian{Sigma: 2}
	part := func(lo, hi int) *NystromStats {
		return addSplit(t, k, c, x.Slice(lo, hi, 0, 4), y.Slice(lo, hi, 0, 1), nil)
	}
	// (a + b) + c and a + (b + c).
	left := part(0, 200)
	mustMerge(t, left, part(200, 650))
	mustMerge(t, left, part(650, 900))
	bc := part(200, 650)
	mustMerge(t, bc, part(650, 900))
	right := part(0, 200)
	mustMerge(t, right, bc)
	if e := relDiff(full(left.mm), full(right.mm)); e > 1e-14 {
		t.Errorf("M of (a+b)+c and a+(b+c) differ by %.2g relative", e)
	}
	if e := relDiff(left.cy, right.cy); e > 1e-14 {
		t.Errorf("C of (a+b)+c and a+(b+c) differ by %.2g relative", e)
	}

	cuts := []int{1, 300, 301, 850}
	one := encode(t, addSplit(t, k, c, x, y, cuts))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, p := range []int{1, 2, 5} {
		runtime.GOMAXPROCS(p)
		if again := encode(t, addSplit(t, k, c, x, y, cuts)); !bytes.Equal(again, one) {
			t.Errorf("GOMAXPROCS=%d: the same adds and merges gave other statistics", p)
		}
	}
}

func mustMerge(t *testing.T, a, b *NystromStats) {
	t.Helper()
	if err := a.Merge(b); err != nil {
		t.Fatal(err)
	}
}

func encode(t *testing.T, s *NystromStats) []byte {
	t.Helper()
	b, err := s.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// full returns the symmetric matrix whose lower triangle is that of a.
func full(a *linalg.Dense) *linalg.Dense {
	f := a.Clone()
	for i := 0; i < f.Rows; i++ {
		for j := i + 1; j < f.Cols; j++ {
			f.Set(i, j, f.At(j, i))
		}
	}
	return f
}

// TestNystromStatsOperator: the operator of the statistics (the test
// oracle statsOperator) agrees with the streamed products of kernels.Rows
// on the same data, and Falkon.FitOperator on it reaches the solution of
// NystromStats.Solve.
func TestNystromStatsOperator(t *testing.T) {
	x, y, c := statsProblem(500, 2, 2, 40)
	k := kernels.Laplacian{Sigma: 1}
	st := addSplit(t, k, c, x, y, []int{100})
	rows, err := kernels.NewRows(k, x, c)
	if err != nil {
		t.Fatal(err)
	}
	v := randDense(3, 40, 2)
	want := rows.NormalMulTo(nil, v)
	got := linalg.NewDense(40, 2, nil)
	op := newStatsOperator(st)
	if err := op.NormalMul(got, v); err != nil {
		t.Fatal(err)
	}
	if e := relDiff(got, want); e > 1e-12 {
		t.Errorf("NormalMul differs from Rows.NormalMulTo by %.2g relative", e)
	}
	n, kty, kt1, sumY, err := op.Summary()
	if err != nil {
		t.Fatal(err)
	}
	ones := linalg.NewDense(500, 1, nil)
	for i := range ones.Data {
		ones.Data[i] = 1
	}
	wantKty := rows.MulTransTo(nil, y)
	wantKt1 := rows.MulTransTo(nil, ones)
	if n != 500 || relDiff(kty, wantKty) > 1e-12 || relDiff(linalg.NewDense(40, 1, kt1), wantKt1) > 1e-12 {
		t.Errorf("Summary: n = %d, KᵀY and Kᵀ1 off by %.2g, %.2g", n, relDiff(kty, wantKty), relDiff(linalg.NewDense(40, 1, kt1), wantKt1))
	}
	wantSum := []float64{0, 0}
	for i := 0; i < 500; i++ {
		wantSum[0] += y.At(i, 0)
		wantSum[1] += y.At(i, 1)
	}
	if e := relDiff(linalg.NewDense(1, 2, sumY), linalg.NewDense(1, 2, wantSum)); e > 1e-13 {
		t.Errorf("Summary: 1ᵀY = %v, want %v", sumY, wantSum)
	}
	for _, ic := range []Intercept{NoIntercept, FreeIntercept} {
		direct, err := st.Solve(1e-3, ic)
		if err != nil {
			t.Fatal(err)
		}
		cg, err := Falkon{Kernel: k, Lambda: 1e-3, Intercept: ic, MaxIter: 200}.FitOperator(c, op)
		if err != nil {
			t.Fatal(err)
		}
		xt := randDense(9, 30, 2)
		if r := relDiff(predict(t, cg, xt), predict(t, direct, xt)); r > 1e-8 || cg.Stopped != StopTol {
			t.Errorf("%v: FitOperator on the statistics differs from Solve by %.3g relative (stopped by %v)", ic, r, cg.Stopped)
		}
	}
}

// TestNystromStatsCodec: a decoded copy re-encodes to the same bytes and
// solves identically; damaged, truncated and foreign files are refused.
func TestNystromStatsCodec(t *testing.T) {
	x, y, c := statsProblem(300, 2, 1, 20)
	k := kernels.Gaussian{Sigma: 1}
	st := addSplit(t, k, c, x, y, []int{150})
	b := encode(t, st)
	var back NystromStats
	if err := back.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encode(t, &back), b) {
		t.Error("decode then encode changed the bytes")
	}
	f1, _ := st.Solve(1e-3, FreeIntercept)
	f2, err := back.Solve(1e-3, FreeIntercept)
	if err != nil || relDiff(f1.Coef, f2.Coef) != 0 {
		t.Errorf("decoded statistics solve differently (err %v)", err)
	}
	// Centres 1e-9 apart need a jitter; the decoded copy recomputes L
	// with the same δ.
	near := linalg.NewDense(3, 2, []float64{0, 0, 1e-9, 0, 1, 1})
	js, _ := NewNystromStats(k, near)
	if js.jitter == 0 {
		t.Fatal("no jitter for centres 1e-9 apart")
	}
	_ = js.Add(x, y)
	var jback NystromStats
	if err := jback.UnmarshalBinary(encode(t, js)); err != nil {
		t.Fatal(err)
	}
	j1, _ := js.Solve(1e-3, NoIntercept)
	j2, err := jback.Solve(1e-3, NoIntercept)
	if err != nil || relDiff(j1.Coef, j2.Coef) != 0 || j2.Jitter != js.jitter {
		t.Errorf("decoded statistics with a jitter solve differently (err %v)", err)
	}
	empty, _ := NewNystromStats(k, c)
	if err := empty.UnmarshalBinary(b); err != nil {
		t.Errorf("into statistics of the same kernel and centres: %v", err)
	}

	other, _ := NewNystromStats(kernels.Gaussian{Sigma: 2}, c)
	moved := c.Clone()
	moved.Data[0] += 1e-9
	otherC, _ := NewNystromStats(k, moved)
	damaged := bytes.Clone(b)
	damaged[len(damaged)/2] ^= 1
	for _, tc := range []struct {
		name string
		into *NystromStats
		data []byte
		want string
	}{
		{"another kernel", other, b, "another kernel or centre set"},
		{"another centre set", otherC, b, "another kernel or centre set"},
		{"damaged", &NystromStats{}, damaged, "checksum"},
		{"truncated", &NystromStats{}, b[:len(b)-9], "checksum"},
		{"empty", &NystromStats{}, nil, "not Nyström statistics"},
		{"model file", &NystromStats{}, []byte(`{"format":"rkhs.regress.Model"}`), "not Nyström statistics"},
	} {
		// Snapshot the receiver itself: its encoding, or for the zero
		// value (which has none) the fact that it is the zero value.
		zero := reflect.DeepEqual(*tc.into, NystromStats{})
		var before []byte
		if !zero {
			before = encode(t, tc.into)
		}
		err := tc.into.UnmarshalBinary(tc.data)
		if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an ErrInput saying %q", tc.name, err, tc.want)
		}
		if zero && !reflect.DeepEqual(*tc.into, NystromStats{}) || !zero && !bytes.Equal(encode(t, tc.into), before) {
			t.Errorf("%s: the receiver changed", tc.name)
		}
	}
}

// TestNystromStatsErrors: bad arguments are errors naming the problem,
// and leave the statistics unchanged.
func TestNystromStatsErrors(t *testing.T) {
	x, y, c := statsProblem(50, 2, 1, 5)
	k := kernels.Gaussian{Sigma: 1}
	st := addSplit(t, k, c, x, y, nil)
	before := encode(t, st)
	dup := c.Clone()
	copy(dup.Row(3), dup.Row(1))
	nan := x.Clone()
	nan.Set(4, 1, nan.At(4, 1)/0*0)
	other, _ := NewNystromStats(kernels.Laplacian{Sigma: 1}, c)
	_ = other.Add(x, y)
	two, _ := NewNystromStats(k, c)
	_ = two.Add(x, linalg.NewDense(50, 2, nil))
	var zero NystromStats
	fresh, _ := NewNystromStats(k, c)
	rows, _ := kernels.NewRows(k, x, c)
	kb := rows.BlockTo(nil, 0, 10)
	kbNaN := kb.Clone()
	kbNaN.Set(2, 3, math.Inf(1))
	yb := y.Slice(0, 10, 0, 1)
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"duplicate centres", errOf(NewNystromStats(k, dup)), "rows 1 and 3 are identical"},
		{"no centres", errOf(NewNystromStats(k, linalg.NewDense(0, 2, nil))), "no rows"},
		{"nil kernel", errOf(NewNystromStats(nil, c)), "Kernel"},
		{"user kernel", errOf(NewNystromStats(plusOne{k}, c)), "no Spec"},
		{"width", st.Add(linalg.NewDense(3, 3, nil), linalg.NewDense(3, 1, nil)), "3 columns, the centres have 2"},
		{"outputs", st.Add(x, linalg.NewDense(50, 2, nil)), "2 columns, the statistics have 1 outputs"},
		{"rows of Y", st.Add(x, linalg.NewDense(49, 1, nil)), "49 rows"},
		{"no rows", st.Add(linalg.NewDense(0, 2, nil), linalg.NewDense(0, 1, nil)), "no rows"},
		{"NaN", st.Add(nan, y), "NaN"},
		{"another kernel", st.Merge(other), "another kernel or centre set"},
		{"other outputs", st.Merge(two), "2 outputs, want 1"},
		{"zero value", st.Merge(&zero), "zero value"},
		{"zero Add", zero.Add(x, y), "zero value"},
		{"kernel rows: zero value", zero.AddKernelRows(kb, yb, nil), "zero value"},
		{"kernel rows: nil", st.AddKernelRows(nil, yb, nil), "kb"},
		{"kernel rows: width", st.AddKernelRows(linalg.NewDense(10, 4, nil), yb, nil), "4 columns, the statistics have 5 centres"},
		{"kernel rows: rows of yb", st.AddKernelRows(kb, y.Slice(0, 9, 0, 1), nil), "9 rows, kb has 10"},
		{"kernel rows: outputs", st.AddKernelRows(kb, linalg.NewDense(10, 2, nil), nil), "2 columns, the statistics have 1 outputs"},
		{"kernel rows: Inf", st.AddKernelRows(kbNaN, yb, nil), "Inf"},
		{"kernel rows: work", st.AddKernelRows(kb, yb, make([]float64, NystromWorkLen(5, 1)-1)), "NystromWorkLen(5, 1)"},
		{"zero Solve", errOf(zero.Solve(1, NoIntercept)), "zero value"},
		{"no rows to solve", errOf(fresh.Solve(1, NoIntercept)), "no rows"},
		{"λ = 0", errOf(st.Solve(0, NoIntercept)), "lambda"},
		{"mode", errOf(st.Solve(1, Intercept(7))), "unknown mode"},
	} {
		if !errors.Is(tc.err, ErrInput) || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an ErrInput saying %q", tc.name, tc.err, tc.want)
		}
	}
	if !bytes.Equal(encode(t, st), before) {
		t.Error("a failed call changed the statistics")
	}
	if _, err := zero.MarshalBinary(); !errors.Is(err, ErrInput) {
		t.Errorf("MarshalBinary of the zero value: %v", err)
	}

	// Too large for the memory limit: said before allocating.
	old := debug.SetMemoryLimit(1 << 20)
	_, err := NewNystromStats(k, randDense(1, 400, 2)) // 3·400² doubles
	debug.SetMemoryLimit(old)
	var me *linalg.MemoryError
	if !errors.Is(err, linalg.ErrTooLarge) || !errors.As(err, &me) {
		t.Errorf("400 centres under a 1 MiB limit: got %v, want a MemoryError", err)
	}
}

// FuzzNystromStatsUnmarshal: the decoder never panics, and what it
// accepts encodes back to the same bytes.
func FuzzNystromStatsUnmarshal(f *testing.F) {
	x, y, c := statsProblem(40, 2, 1, 3)
	k := kernels.Gaussian{Sigma: 1}
	st, _ := NewNystromStats(k, c)
	empty, _ := st.MarshalBinary()
	f.Add(empty)
	_ = st.Add(x, y)
	full, _ := st.MarshalBinary()
	f.Add(full)
	f.Add(full[:40])
	f.Fuzz(func(t *testing.T, b []byte) {
		var s NystromStats
		if err := s.UnmarshalBinary(b); err != nil {
			return
		}
		again, err := s.MarshalBinary()
		if err != nil || !bytes.Equal(again, b) {
			t.Fatalf("accepted data re-encode differently (err %v)", err)
		}
	})
}

// TestNystromStatsReset: statistics reset after some rows summarise the
// next rows exactly as new ones do.
func TestNystromStatsReset(t *testing.T) {
	x, y, c := statsProblem(400, 2, 1, 10)
	k := kernels.Gaussian{Sigma: 1}
	st := addSplit(t, k, c, x.Slice(0, 150, 0, 2), y.Slice(0, 150, 0, 1), nil)
	st.Reset()
	if st.Rows() != 0 || st.Outputs() != 0 {
		t.Fatalf("after Reset: %d rows, %d outputs", st.Rows(), st.Outputs())
	}
	if err := st.Add(x.Slice(150, 400, 0, 2), linalg.NewDense(250, 2, nil)); err != nil {
		t.Fatalf("a new number of outputs after Reset: %v", err)
	}
	st.Reset()
	if err := st.Add(x.Slice(150, 400, 0, 2), y.Slice(150, 400, 0, 1)); err != nil {
		t.Fatal(err)
	}
	fresh := addSplit(t, k, c, x.Slice(150, 400, 0, 2), y.Slice(150, 400, 0, 1), nil)
	if !bytes.Equal(encode(t, st), encode(t, fresh)) {
		t.Error("reset statistics differ from new ones on the same rows")
	}
}

// TestNystromStatsAddGrouping: Add folds its rows in groups of
// NystromGroupRows whose features are solved four groups at a time; the
// statistics equal, bit for bit, those of the same rows added a group per
// Add (one group per solve), and those of AddKernelRows on blocks of
// K_nm of 256, 512 and 1024 rows (multiples of the group: the same
// groups); blocks of 1300 rows, not a multiple, are the statistics of one
// Add per 1300 rows (each call folds all of its rows, groups counted from
// its first).
func TestNystromStatsAddGrouping(t *testing.T) {
	const n = 5*NystromBatchRows/2 + 37 // full batches, then a partial group
	x, y, c := statsProblem(n, 3, 2, 40)
	k := kernels.Gaussian{Sigma: 1.5}
	one, err := NewNystromStats(k, c)
	if err != nil {
		t.Fatal(err)
	}
	if err := one.Add(x, y); err != nil {
		t.Fatal(err)
	}
	want := encode(t, one)
	each, _ := NewNystromStats(k, c)
	for lo := 0; lo < n; lo += NystromGroupRows {
		hi := min(lo+NystromGroupRows, n)
		if err := each.Add(x.Slice(lo, hi, 0, x.Cols), y.Slice(lo, hi, 0, y.Cols)); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(encode(t, each), want) {
		t.Error("a group per Add: other statistics than one Add")
	}
	rows, err := kernels.NewRows(k, x, c)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []int{256, 512, 1024, 1300} {
		blocks, _ := NewNystromStats(k, c)
		adds, _ := NewNystromStats(k, c)
		for i0, kb := range rows.Blocks(b) {
			yb := y.Slice(i0, i0+kb.Rows, 0, y.Cols)
			if err := blocks.AddKernelRows(kb, yb, nil); err != nil {
				t.Fatal(err)
			}
			if err := adds.Add(x.Slice(i0, i0+kb.Rows, 0, x.Cols), yb); err != nil {
				t.Fatal(err)
			}
		}
		got := encode(t, blocks)
		if !bytes.Equal(got, encode(t, adds)) {
			t.Errorf("AddKernelRows on blocks of %d rows: other statistics than one Add per block", b)
		}
		if b%NystromGroupRows == 0 && !bytes.Equal(got, want) {
			t.Errorf("AddKernelRows on blocks of %d rows: other statistics than one Add", b)
		}
	}
}

// TestNystromStatsSharedWork: the statistics of two kernels filled block
// by block in turn through one workspace (AddKernelRows with work; blocks
// of two batches, then a shorter one) equal those of one Add each, bit
// for bit, whatever the workspace held before each call; a workspace too
// short is an error that leaves the statistics unchanged.
func TestNystromStatsSharedWork(t *testing.T) {
	const n = 5*NystromBatchRows/2 + 37
	x, y, c := statsProblem(n, 3, 2, 40)
	ks := []kernels.Kernel{kernels.Gaussian{Sigma: 1.5}, kernels.Gaussian{Sigma: 0.7}}
	work := make([]float64, NystromWorkLen(c.Rows, y.Cols))
	var shared []*NystromStats
	var rows []*kernels.Rows
	for _, k := range ks {
		st, err := NewNystromStats(k, c)
		if err != nil {
			t.Fatal(err)
		}
		r, err := kernels.NewRows(k, x, c)
		if err != nil {
			t.Fatal(err)
		}
		shared, rows = append(shared, st), append(rows, r)
	}
	b := 2 * NystromBatchRows
	for lo := 0; lo < n; lo += b {
		hi := min(lo+b, n)
		for s, st := range shared {
			for i := range work {
				work[i] = math.NaN() // what the workspace held is ignored
			}
			if err := st.AddKernelRows(rows[s].BlockTo(nil, lo, hi), y.Slice(lo, hi, 0, y.Cols), work); err != nil {
				t.Fatal(err)
			}
		}
	}
	for s, k := range ks {
		one, _ := NewNystromStats(k, c)
		if err := one.Add(x, y); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(encode(t, shared[s]), encode(t, one)) {
			t.Errorf("kernel %d: a shared workspace gives other statistics than one Add", s)
		}
	}
	before := encode(t, shared[0])
	err := shared[0].AddKernelRows(rows[0].BlockTo(nil, 0, 10), y.Slice(0, 10, 0, y.Cols), work[:len(work)-1])
	if !errors.Is(err, ErrInput) || !bytes.Equal(encode(t, shared[0]), before) {
		t.Errorf("a workspace one value short: %v, statistics changed %v; want an ErrInput and no change", err, !bytes.Equal(encode(t, shared[0]), before))
	}
}

// TestNystromStatsHugeLabels: labels whose squares overflow are refused by
// Add and AddKernelRows, naming them, instead of summing to +Inf.
func TestNystromStatsHugeLabels(t *testing.T) {
	x := linalg.NewDense(4, 1, []float64{0, 1, 2, 3})
	y := linalg.NewDense(4, 1, []float64{1e300, -2e300, 3, 4})
	k := kernels.Gaussian{Sigma: 1}
	s, err := NewNystromStats(k, x.Slice(0, 2, 0, 1).Clone())
	if err != nil {
		t.Fatal(err)
	}
	var ie *linalg.InputError
	if err := s.Add(x, y); !errors.As(err, &ie) || ie.Arg != "Y" || !errors.Is(err, ErrInput) {
		t.Errorf("Add: %v, want an ErrInput on Y", err)
	}
	kb, _ := kernels.Cross(k, x, x.Slice(0, 2, 0, 1))
	if err := s.AddKernelRows(kb, y, nil); !errors.As(err, &ie) || ie.Arg != "yb" {
		t.Errorf("AddKernelRows: %v, want an ErrInput on yb", err)
	}
	if s.Rows() != 0 {
		t.Errorf("%d rows added", s.Rows())
	}
}
