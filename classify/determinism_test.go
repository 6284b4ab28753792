package classify

import (
	"math"
	"runtime"
	"sync"
	"testing"

	"rkhs/internal/parallel"
	"rkhs/internal/testmat"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// fingerprint fits every classifier and returns all its numbers: the
// coefficients, and predictions, scores, probabilities and means at x; and,
// for each classifier, how many loops ran on more than one goroutine while
// it was fitted and asked.
func fingerprint(t *testing.T, xtr *linalg.Dense, ytr []float64, x *linalg.Dense) ([]float64, map[string]int64) {
	t.Helper()
	var out []float64
	split := map[string]int64{}
	last := parallel.Splits()
	stage := func(name string) {
		now := parallel.Splits()
		split[name], last = now-last, now
	}
	k := kernels.Gaussian{Sigma: 2}
	add := func(v []float64, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v...)
	}
	scores := func(d *linalg.Dense, err error) ([]float64, error) {
		if err != nil {
			return nil, err
		}
		return d.Data, nil
	}
	p, err := Perceptron{Kernel: k, Intercept: regress.FreeIntercept, Shuffle: true, Seed: 3, MaxPasses: 5}.Fit(xtr, ytr)
	add(p.Coef, err)
	add(p.Predict(x))
	stage("Perceptron")
	kn, err := KNN{Kernel: k, K: 6}.Fit(xtr, ytr)
	add(nil, err)
	add(kn.Predict(x))
	add(kn.Mean(x))
	stage("KNN")
	r, err := RLS{Kernel: k, Lambda: 1e-3, OneVsAll: true}.Fit(xtr, ytr)
	add(nil, err)
	add(scores(r.Scores(x)))
	add(r.Predict(x))
	stage("RLS")
	l, err := Logistic{Kernel: k, Lambda: 1e-3, Intercept: regress.FreeIntercept, MaxIter: 60}.Fit(xtr, ytr)
	add(append(l.Coef, l.Intercept, l.Lipschitz), err)
	add(l.Probabilities(x))
	stage("Logistic")
	s, err := SVM{Kernel: k, Lambda: 1e-3, Intercept: regress.PenalizedIntercept, MaxIter: 60}.Fit(xtr, ytr)
	add(append(s.Coef, s.Intercept), err)
	add(scores(s.Scores(x)))
	stage("SVM")
	return out, split
}

// TestDeterministicAcrossGOMAXPROCS: every number every classifier
// produces is bit-identical for GOMAXPROCS 1, 2 and 8. The sizes are above
// the thresholds where products and k-NN selection run in parallel, and the
// test checks that they did: with GOMAXPROCS above 1, every classifier ran
// some of its loops on several goroutines (and none did with 1).
func TestDeterministicAcrossGOMAXPROCS(t *testing.T) {
	testmat.SkipSingleThreaded(t)
	xtr, ytr := blobs(50, 400, 5, 0.5, -1, 1)
	x, _ := blobs(51, 1500, 5, 0.5, -1, 1)
	old := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(old)
	var ref []float64
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		if got := runtime.GOMAXPROCS(0); got != procs {
			t.Fatalf("GOMAXPROCS is %d after setting %d", got, procs)
		}
		fp, split := fingerprint(t, xtr, ytr, x)
		for name, n := range split {
			if (procs == 1) != (n == 0) {
				t.Errorf("GOMAXPROCS=%d: %s ran %d loops on several goroutines", procs, name, n)
			}
		}
		if procs == 1 {
			ref = fp
			continue
		}
		if len(fp) != len(ref) {
			t.Fatalf("GOMAXPROCS=%d: %d numbers, %d with 1", procs, len(fp), len(ref))
		}
		for i := range fp {
			if math.Float64bits(fp[i]) != math.Float64bits(ref[i]) {
				t.Fatalf("GOMAXPROCS=%d: number %d is %v, %v with GOMAXPROCS=1", procs, i, fp[i], ref[i])
			}
		}
	}
}

// TestConcurrentPredict: one model predicting from several goroutines at
// once gives each of them the serial answer (run with -race to check
// that prediction only reads the model).
func TestConcurrentPredict(t *testing.T) {
	xtr, ytr := blobs(52, 300, 4, 0.5, 1, 2)
	x, _ := blobs(53, 500, 4, 0.5, 1, 2)
	for _, f := range fitters(kernels.Gaussian{Sigma: 2}) {
		m, err := f.fit(xtr, ytr)
		if err != nil {
			t.Fatal(err)
		}
		pr := m.(interface {
			Predict(*linalg.Dense) ([]float64, error)
		})
		want := mustPredict(t, pr, x)
		var wg sync.WaitGroup
		got := make([][]float64, 4)
		for g := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[g], _ = pr.Predict(x)
			}()
		}
		wg.Wait()
		for g := range got {
			if !sameBits(got[g], want) {
				t.Errorf("%s: goroutine %d got different predictions", f.name, g)
			}
		}
	}
}
