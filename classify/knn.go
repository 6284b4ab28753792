package classify

import (
	"math"

	"rkhs/internal/check"
	"rkhs/internal/codec"
	"rkhs/internal/parallel"
	"rkhs/kernels"
	"rkhs/linalg"
)

// KNN is k-nearest-neighbour classification (and regression, see
// KNNModel.Mean) with the distance the kernel induces in its feature
// space (Igel's Algorithm 2),
//
//	d(x, z) = ‖φ(x) − φ(z)‖ = √(k(x, x) − 2k(x, z) + k(z, z)),
//
// which for the linear kernel is the Euclidean distance and for the
// Gaussian kernel a monotone function of it.
//
// Neighbourhood: the K training points nearest to x and every other
// training point tied with the K-th of them, so ties at the boundary are
// all included (as in Igel's algorithm, whose inner step adds the whole
// set of minimizers) and the answer does not depend on the order of the
// training points. Distances are compared as squared distances, computed
// k(x, x) − 2k(x, z) + k(z, z) with negative rounding clamped to 0.
//
// Vote: the class with the most neighbours; among tied classes, the one
// whose neighbours have the smallest sum of distances (summed in training
// order); if that ties too, the smallest label.
type KNN struct {
	Kernel kernels.Kernel
	K      int // number of neighbours, 1 ≤ K < n
}

// KNNModel is a fitted k-NN rule: the training data and the kernel. It
// holds copies of X and the labels; Predict and Mean only read them, so a
// model is safe for concurrent use. It also caches each label's class and
// k(xⱼ, xⱼ), so the exported fields must not be changed after Fit.
type KNNModel struct {
	Kernel  kernels.Kernel
	K       int
	X       *linalg.Dense // the n training points (a copy)
	Labels  []float64     // their labels (a copy)
	Classes []float64     // the distinct labels, ascending
	// FeatureNames and TargetName name the columns of the training data,
	// as regress.Model's do: one name per feature and the label's, nil
	// and "" without a header; saved with the model, not read by Predict.
	FeatureNames []string
	TargetName   string
	// Standardization, if not nil, maps raw features to the scale the
	// model was fitted on, as regress.Model's: the methods that take rows
	// apply it first, and X holds standardized rows; nil after
	// Fit (set it after fitting on standardized rows); saved with the model.
	Standardization *kernels.Standardization

	class []int     // index in Classes of every label
	self  []float64 // k(xⱼ, xⱼ) for every training point
}

// Fit stores the training data for k-NN. Labels may be any finite values
// with at least two distinct ones; K must satisfy 1 ≤ K < n (with K = n
// every point would get the majority class of the whole set).
//
// Cost: a copy of X and n kernel evaluations k(xⱼ, xⱼ).
//
// Errors: a *linalg.InputError wrapping ErrInput for nil, empty, malformed
// or non-finite X (NaN or ±Inf also linalg.ErrNotFinite), labels of the
// wrong length or not finite, a single class, K out of range (it has no
// default), a nil kernel or invalid kernel parameters (which also wrap
// kernels.ErrParameter). x and labels are not modified.
func (c KNN) Fit(x *linalg.Dense, labels []float64) (*KNNModel, error) {
	const op = "KNN.Fit"
	if err := checkFit(op, c.Kernel, x, labels); err != nil {
		return nil, err
	}
	n := x.Rows
	if c.K < 1 || c.K >= n {
		return nil, inputError(op, "K", "%d, must satisfy 1 ≤ K < n = %d", c.K, n)
	}
	classes := classesOf(labels)
	if len(classes) < 2 {
		return nil, inputError(op, "labels", "only one class (%v); need two or more", classes[0])
	}
	m := &KNNModel{
		Kernel:  c.Kernel,
		K:       c.K,
		X:       x.Clone(),
		Labels:  append([]float64(nil), labels...),
		Classes: classes,
		class:   classIndex(labels, classes),
		self:    selfKernel(c.Kernel, x),
	}
	return m, nil
}

// selfKernel returns k(xᵢ, xᵢ) for every row of x.
func selfKernel(k kernels.Kernel, x *linalg.Dense) []float64 {
	s := make([]float64, x.Rows)
	for i := range s {
		xi := x.Row(i)
		s[i] = k.Eval(xi, xi)
	}
	return s
}

// Predict returns the majority label among the neighbours of every row of
// x (see KNN for neighbourhoods and ties).
//
// Cost: the m×n cross-kernel matrix against the n training points, built
// by kernels.Rows a block of rows at a time (8 MiB at most: one Gemm per
// block, 2mnd flops, for Linear, Polynomial and Gaussian), then
// O(n log K) per row for the selection, and one evaluation k(x, x) per
// row (the diagonal is not a block product); rows are split over goroutines
// and each row's answer is computed by one goroutine, so the result does
// not depend on GOMAXPROCS.
//
// Errors: a *linalg.InputError wrapping ErrInput if x is nil, malformed,
// holds NaN or ±Inf (also linalg.ErrNotFinite) or has a different number of
// columns than the training data, or if m is nil or its fields do not form
// a model (as the zero KNNModel, or one changed after Fit).
func (m *KNNModel) Predict(x *linalg.Dense) ([]float64, error) {
	if err := m.check("KNNModel.Predict", x); err != nil {
		return nil, err
	}
	out := make([]float64, x.Rows)
	err := m.neighbourhoods("KNNModel.Predict", x, func(s *knnScratch, i int, d2 []float64, t float64) {
		counts, sums := s.counts, s.sums
		clear(counts)
		clear(sums)
		for j, d := range d2 {
			if d <= t {
				c := m.class[j]
				counts[c]++
				sums[c] += math.Sqrt(d)
			}
		}
		best := 0 // classes ascend, so a strict comparison keeps the smallest label on a full tie
		for c := 1; c < len(counts); c++ {
			if counts[c] > counts[best] || counts[c] == counts[best] && sums[c] < sums[best] {
				best = c
			}
		}
		out[i] = m.Classes[best]
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Mean returns, for every row of x, the mean label of its neighbours: k-NN
// regression when the labels are real-valued targets. Neighbourhoods, cost
// and errors are those of Predict; labels are summed in training order.
func (m *KNNModel) Mean(x *linalg.Dense) ([]float64, error) {
	if err := m.check("KNNModel.Mean", x); err != nil {
		return nil, err
	}
	out := make([]float64, x.Rows)
	err := m.neighbourhoods("KNNModel.Mean", x, func(_ *knnScratch, i int, d2 []float64, t float64) {
		var s float64
		var cnt int
		for j, d := range d2 {
			if d <= t {
				s += m.Labels[j]
				cnt++
			}
		}
		out[i] = s / float64(cnt)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// check reports a model that checkModel rejects, and invalid points x.
func (m *KNNModel) check(op string, x *linalg.Dense) error {
	if err := m.checkModel(op); err != nil {
		return err
	}
	return checkPredict(op, x, m.X.Cols)
}

// checkModel reports a nil model or fields that do not form one: a nil or
// invalid kernel, X nil, malformed or not finite, labels, classes and K
// that disagree with X, the caches of Fit missing or changed.
func (m *KNNModel) checkModel(op string) error {
	if m == nil {
		return inputError(op, "KNNModel", "nil model")
	}
	if err := checkKernel(op, "KNNModel.Kernel", m.Kernel); err != nil {
		return err
	}
	if err := check.Data(ErrInput, op, "KNNModel.X", m.X, 1); err != nil {
		return err
	}
	n := m.X.Rows
	if m.K < 1 || m.K >= n || len(m.Labels) != n || len(m.class) != n || len(m.self) != n || len(m.Classes) < 2 {
		return inputError(op, "KNNModel", "K = %d, %d labels and %d classes for %d training points, or fields changed after Fit", m.K, len(m.Labels), len(m.Classes), n)
	}
	return codec.CheckStandardization(ErrInput, op, "KNNModel", m.Standardization, m.X.Cols)
}

// knnScratch is one goroutine's workspace.
type knnScratch struct {
	heap   []float64 // the K smallest squared distances seen, as a max-heap
	counts []int     // votes per class
	sums   []float64 // distance sums per class
}

// neighbourhoods computes, for every row i of x, the squared distances d2
// to all training points and the threshold t, the K-th smallest of them,
// and calls visit(s, i, d2, t); the neighbourhood of row i is {j : d2[j]
// ≤ t}. Calls for different i may run concurrently, each with its own
// scratch s and its own d2 (a row of the cross-kernel block, overwritten).
// x must have been checked.
func (m *KNNModel) neighbourhoods(op string, x *linalg.Dense, visit func(s *knnScratch, i int, d2 []float64, t float64)) error {
	nx, n := x.Rows, m.X.Rows
	if nx == 0 {
		return nil
	}
	x, err := m.Standardization.Apply(x)
	if err != nil {
		return kernelError(op, err)
	}
	rows, err := kernels.NewRows(m.Kernel, x, m.X)
	if err != nil {
		return kernelError(op, err)
	}
	selfX := selfKernel(m.Kernel, x)

	const rowWork = 16 // rough cost per distance: transform, heap test, vote
	// Blocks of about 2²⁰ cross-kernel values (8 MiB), enough rows to split
	// over every core.
	bs := kernels.BlockRows(n, kernels.GemmBlockElems)
	maxP := parallel.Team(min(bs, nx), float64(min(bs, nx))*float64(n)*rowWork, minParallelWork)
	scratch := make([]knnScratch, maxP)
	for w := range scratch {
		scratch[w] = knnScratch{heap: make([]float64, m.K), counts: make([]int, len(m.Classes)), sums: make([]float64, len(m.Classes))}
	}
	for i0, c := range rows.Blocks(bs) {
		b := c.Rows
		p := min(maxP, parallel.Team(b, float64(b)*float64(n)*rowWork, minParallelWork))
		chunks := parallel.NewChunks(b, p, 1)
		parallel.For(p, chunks.Count(), parallel.Func(func(w, ch int) {
			s := &scratch[w]
			lo, hi := chunks.Bounds(ch)
			for r := lo; r < hi; r++ {
				d2, sx := c.Row(r), selfX[i0+r]
				for j, kxz := range d2 {
					d2[j] = max(sx-2*kxz+m.self[j], 0)
				}
				visit(s, i0+r, d2, kthSmallest(s.heap, d2))
			}
		}))
	}
	return nil
}

// kthSmallest returns the len(heap)-th smallest value of d (1 ≤ len(heap)
// ≤ len(d)), keeping the smallest values seen so far in heap as a
// max-heap: O(len(d)·log len(heap)) comparisons.
func kthSmallest(heap, d []float64) float64 {
	k := len(heap)
	copy(heap, d[:k])
	for i := k/2 - 1; i >= 0; i-- {
		siftDown(heap, i)
	}
	// Invariant: heap holds the k smallest of d[:j], heap[0] the largest of them.
	for _, v := range d[k:] {
		if v < heap[0] {
			heap[0] = v
			siftDown(heap, 0)
		}
	}
	return heap[0]
}

// siftDown restores the max-heap property below node i.
func siftDown(h []float64, i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && h[c+1] > h[c] {
			c++
		}
		if h[i] >= h[c] {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// minParallelWork is the number of multiply-adds below which the
// neighbourhood pass runs on the calling goroutine (starting goroutines
// costs microseconds, the time of a few 10⁴ multiply-adds).
const minParallelWork = 1 << 15
