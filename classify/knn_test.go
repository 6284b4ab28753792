package classify

import (
	"math"
	"slices"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
)

// gridData returns n points with integer coordinates in [−2, 2]^d and
// labels drawn from classes: many exact distance ties, and all arithmetic
// of the linear kernel exact.
func gridData(seed uint64, n, d int, classes []float64) (*linalg.Dense, []float64) {
	rnd := newRand(seed)
	x := linalg.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, float64(rnd.IntN(5)-2))
		}
		y[i] = classes[rnd.IntN(len(classes))]
	}
	return x, y
}

// knnNaiveResult holds naive predictions and means, and how often the
// boundary and the vote were tied.
type knnNaiveResult struct {
	labels, means                    []float64
	boundaryTies, sumTies, labelTies int
}

// knnNaive is Euclidean k-NN written directly: squared distances by loops,
// the neighbourhood {j : d²ⱼ ≤ K-th smallest d²} found by sorting, votes
// with ties broken by the smaller distance sum and then the smaller label.
func knnNaive(xtr *linalg.Dense, ytr []float64, k int, x *linalg.Dense) knnNaiveResult {
	var r knnNaiveResult
	n := xtr.Rows
	for i := 0; i < x.Rows; i++ {
		d2 := make([]float64, n)
		for j := 0; j < n; j++ {
			for c := 0; c < x.Cols; c++ {
				e := x.At(i, c) - xtr.At(j, c)
				d2[j] += e * e
			}
		}
		sorted := slices.Clone(d2)
		slices.Sort(sorted)
		t := sorted[k-1]
		if k < n && sorted[k] == t {
			r.boundaryTies++
		}
		count := map[float64]int{}
		sum := map[float64]float64{}
		var mean float64
		var m int
		for j := 0; j < n; j++ {
			if d2[j] <= t {
				count[ytr[j]]++
				sum[ytr[j]] += math.Sqrt(d2[j])
				mean += ytr[j]
				m++
			}
		}
		r.means = append(r.means, mean/float64(m))
		labels := make([]float64, 0, len(count))
		for l := range count {
			labels = append(labels, l)
		}
		slices.Sort(labels)
		top := 0
		for _, l := range labels {
			top = max(top, count[l])
		}
		var tied []float64
		for _, l := range labels {
			if count[l] == top {
				tied = append(tied, l)
			}
		}
		best := tied[0]
		if len(tied) > 1 {
			r.sumTies++
			for _, l := range tied[1:] {
				if sum[l] < sum[best] {
					best = l
				}
			}
			for _, l := range tied {
				if l != best && sum[l] == sum[best] {
					r.labelTies++
					break
				}
			}
		}
		r.labels = append(r.labels, best)
	}
	return r
}

// TestKNNLinearEqualsEuclidean: with the linear kernel the kernel-induced
// distance is the Euclidean one; on integer data every value is exact, so
// predictions and means must agree exactly, ties included. The sizes give
// the prediction two blocks of cross-kernel rows.
func TestKNNLinearEqualsEuclidean(t *testing.T) {
	classes := []float64{10, 1, 5}
	xtr, ytr := gridData(1, 1100, 4, classes)
	x, _ := gridData(2, 1000, 4, classes)
	s := snap(xtr, ytr)
	for _, k := range []int{1, 2, 5, 12, 1099} {
		m, err := KNN{Kernel: kernels.Linear{}, K: k}.Fit(xtr, ytr)
		if err != nil {
			t.Fatal(err)
		}
		got := mustPredict(t, m, x)
		mean, err := m.Mean(x)
		if err != nil {
			t.Fatal(err)
		}
		want := knnNaive(xtr, ytr, k, x)
		for i := range got {
			if got[i] != want.labels[i] {
				t.Fatalf("K=%d row %d: predicted %v, naive Euclidean k-NN %v", k, i, got[i], want.labels[i])
			}
			if mean[i] != want.means[i] {
				t.Fatalf("K=%d row %d: mean %v, naive %v", k, i, mean[i], want.means[i])
			}
		}
		t.Logf("K=%d: %d boundary ties, %d vote ties, %d resolved by label", k, want.boundaryTies, want.sumTies, want.labelTies)
		if k > 1 && k < 1099 && (want.boundaryTies == 0 || want.sumTies == 0) {
			t.Errorf("K=%d: the data gave no ties to test", k)
		}
	}
	s.unchanged(t, xtr, ytr)
}

// TestKNNVoteTies: hand-made neighbourhoods for each tie-breaking rule.
func TestKNNVoteTies(t *testing.T) {
	// Training points on a line; query at 0.
	xtr := linalg.NewDense(6, 1, []float64{-1, 1, 2, -3, 3, 10})
	q := linalg.NewDense(1, 1, []float64{0})
	for _, tc := range []struct {
		name   string
		labels []float64
		k      int
		want   float64
	}{
		// K=2: the two points at distance 1 have labels 7 and 3: counts tie,
		// sums tie, the smaller label wins.
		{"label", []float64{7, 3, 0, 0, 0, 0}, 2, 3},
		// K=4: distances 1, 1, 2, 3 (and 3 again, tied at the boundary, so
		// five neighbours): class 7 has {1, 2}, class 3 has {1, 3}, class 0
		// has {3}: 7 and 3 tie at two votes, 7 has the smaller sum.
		{"sum", []float64{3, 7, 7, 3, 0, 0}, 4, 7},
		// Boundary tie adds a vote: K=4 takes both points at distance 3.
		{"boundary", []float64{1, 2, 3, 4, 4, 9}, 4, 4},
		{"majority", []float64{5, 5, 1, 1, 1, 1}, 5, 1},
	} {
		m, err := KNN{Kernel: kernels.Linear{}, K: tc.k}.Fit(xtr, tc.labels)
		if err != nil {
			t.Fatal(err)
		}
		if got := mustPredict(t, m, q)[0]; got != tc.want {
			t.Errorf("%s: predicted %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestKNNGaussianDistance: for the Gaussian kernel d² = 2 − 2exp(−‖x−z‖²/2σ²)
// is increasing in the Euclidean distance, so on points without ties the
// neighbours and hence the predictions equal Euclidean k-NN.
func TestKNNGaussianDistance(t *testing.T) {
	xtr, ytr := blobs(5, 200, 4, 0.5, 1, 2)
	x, _ := blobs(6, 50, 4, 0.5, 1, 2)
	m, err := KNN{Kernel: kernels.Gaussian{Sigma: 3}, K: 5}.Fit(xtr, ytr)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := mustPredict(t, m, x), knnNaive(xtr, ytr, 5, x).labels; !slices.Equal(got, want) {
		t.Errorf("Gaussian k-NN %v, Euclidean %v", got, want)
	}
}

func TestKthSmallest(t *testing.T) {
	rnd := newRand(7)
	for trial := 0; trial < 200; trial++ {
		n := 1 + rnd.IntN(40)
		d := make([]float64, n)
		for i := range d {
			d[i] = float64(rnd.IntN(10)) // duplicates
		}
		k := 1 + rnd.IntN(n)
		sorted := slices.Clone(d)
		slices.Sort(sorted)
		if got := kthSmallest(make([]float64, k), d); got != sorted[k-1] {
			t.Fatalf("kthSmallest(k=%d, %v) = %v, want %v", k, d, got, sorted[k-1])
		}
	}
}
