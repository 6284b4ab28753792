package rkhs_test

import (
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"

	"rkhs/internal/testmat"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// coresRatio is how much more heap a job may take at GOMAXPROCS = 16 than
// at 2 in TestMemoryCores: the workspaces that grow with the goroutines
// (a packed block of A per goroutine of a product, a kernel block per
// goroutine of a streamed pass) are bounded by totals that do not, and
// what is left, what sixteen goroutines hold against two (their stacks
// are not heap), is well within 15%.
const coresRatio = 1.15

// coresJobs are the jobs of TestMemoryCores, on n = 10,000 rows of 10
// features and m = 400 centres: the choice of σ and λ by exact
// leave-one-out (2 σ × 10 λ, the leave-one-out pass on 2000 rows) for
// regression and for classes (±1 codes), Falkon (5 iterations), and the
// statistics of a Nyström fit added in two passes.
func coresJobs(t *testing.T) []struct {
	name string
	run  func() error
} {
	const n, d = 10000, 10
	rnd := rand.New(rand.NewPCG(1, 2))
	x := linalg.NewDense(n, d, nil)
	y := linalg.NewDense(n, 1, nil)
	codes := linalg.NewDense(n, 1, nil)
	for i := range n {
		row := x.Row(i)
		for j := range row {
			row[j] = 2*rnd.Float64() - 1
		}
		f := math.Sin(math.Pi*row[0]) + row[1]*row[2]
		y.Set(i, 0, f+0.1*rnd.NormFloat64())
		codes.Set(i, 0, math.Copysign(1, f))
	}
	centers, err := regress.NystromCenters(x, 400, 1)
	if err != nil {
		t.Fatal(err)
	}
	gauss := func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }
	sel := loo.SelectNystrom{Kernel: gauss, Centers: centers, Sigmas: []float64{0.5, 2},
		Lambdas: loo.Geometric(1e-8, 1e-2, 10), Intercept: regress.FreeIntercept, Subset: 2000}
	classes := sel
	classes.Criterion = loo.LOOErrorRate
	return []struct {
		name string
		run  func() error
	}{
		{"SelectNystrom LOOMSE", func() error { return errOf(sel.Fit(x, y)) }},
		{"SelectNystrom LOOErrorRate", func() error { return errOf(classes.Fit(x, codes)) }},
		{"Falkon", func() error {
			return errOf(regress.Falkon{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-6, Given: centers,
				Intercept: regress.FreeIntercept, MaxIter: 5}.Fit(x, y))
		}},
		{"NystromStats.Add", func() error {
			s, err := regress.NewNystromStats(kernels.Gaussian{Sigma: 1}, centers)
			if err == nil {
				err = s.Add(x.Slice(0, n/2, 0, d), y.Slice(0, n/2, 0, 1))
			}
			if err == nil {
				err = s.Add(x.Slice(n/2, n, 0, d), y.Slice(n/2, n, 0, 1))
			}
			return err
		}},
	}
}

// TestMemoryCores: the memory a job takes does not grow with the number
// of cores: at GOMAXPROCS = 16 it is at most coresRatio times what the
// same job takes at GOMAXPROCS = 2. On a machine of two cores the sixteen
// goroutines share them, but they allocate what they would on sixteen.
//
// The measure is the peak of the heap while the job runs with the garbage
// collector off (debug.SetGCPercent(-1)), from an empty heap and empty
// workspace pools: everything the job allocates, the workspaces of its
// goroutines included, every allocation counted once. It is the same from
// run to run. With the collector on, the peak lies between the live heap
// and twice that, and where a run lands depends on when a collection
// happens to start: two runs of the same job at GOMAXPROCS = 2 differed
// by a third, and even with a collection every 5% of growth the live heap
// that collections found differed by a fifth between runs, too much for a
// bound of 15% to be tested on a run or two. A workspace per goroutine, or
// a copy of a pooled workspace per P, is allocated, and shows here.
func TestMemoryCores(t *testing.T) {
	if testing.Short() {
		t.Skip("runs each job twice: seconds")
	}
	testmat.SkipSingleThreaded(t)
	if testmat.Race {
		t.Skip("the race detector adds its own memory per goroutine")
	}
	for _, job := range coresJobs(t) {
		t.Run(job.name, func(t *testing.T) {
			var peak [2]uint64
			for i, procs := range []int{2, 16} {
				var err error
				peak[i] = allocated(procs, func() { err = job.run() })
				if err != nil {
					t.Fatalf("GOMAXPROCS=%d: %v", procs, err)
				}
			}
			t.Logf("%.1f MiB at GOMAXPROCS=2, %.1f MiB at 16 (%.3f×)", mib(peak[0]), mib(peak[1]), float64(peak[1])/float64(peak[0]))
			if float64(peak[1]) > coresRatio*float64(peak[0]) {
				t.Errorf("%.1f MiB at GOMAXPROCS=16, want at most %.2f × %.1f MiB, its heap at 2", mib(peak[1]), coresRatio, mib(peak[0]))
			}
		})
	}
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

// allocated runs f at GOMAXPROCS = procs with the garbage collector off and
// returns the peak of the heap's objects while it ran (their bytes at its
// end, nothing being collected) less the heap's objects before it started.
// Collections first free what the workspace pools kept of earlier jobs (a
// pool lets go of an entry at the second collection that finds it
// unused).
func allocated(procs int, f func()) uint64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	for range 2 {
		runtime.GC()
		time.Sleep(10 * time.Millisecond) // for the pools to hear of it
	}
	runtime.GC()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	base := heapObjects()
	f()
	return heapObjects() - base
}

// heapObjects returns the bytes of the heap's objects, live or not yet
// collected (runtime.MemStats' HeapAlloc), read without stopping the
// world.
func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
