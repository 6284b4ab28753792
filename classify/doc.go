// Package classify holds kernel classifiers built on rkhs/kernels and
// rkhs/regress:
//
//   - Perceptron: the kernel perceptron in dual form, α counting mistakes.
//   - KNN: k nearest neighbours under the kernel-induced distance
//     √(k(x,x) − 2k(x,z) + k(z,z)), majority vote (or the mean label, for
//     regression).
//   - RLS: regularized least squares classification, binary (labels coded
//     ±1, prediction the sign of f) or one-vs-all (one ±1 column per class,
//     all sharing one Cholesky factorization).
//   - Logistic: kernel logistic regression by gradient descent on the
//     representer coefficients, with predicted probabilities.
//   - SVM: the hinge-loss support vector machine by the subgradient method,
//     keeping the best iterate.
//   - Falkon: RLS classification (the codings of RLS) for large n, through
//     regress.Falkon: Nyström centres, preconditioned conjugate gradient,
//     the kernel matrix never stored; its model is an RLSModel.
//   - SelectRLS, SelectNystrom: σ and λ of RLS classification chosen by
//     the exact leave-one-out error rate over a grid; SelectScales: one
//     Gaussian length scale per feature learnt from the grid's choice on
//     the leave-one-out error of the ±1 codes (loo.SelectScales).
//
// Every method has the same shape: a configuration value type whose Fit(x,
// labels) returns a model, and models with Predict(x) returning labels
// from the training label set, plus Scores(x) (decision values) where they
// are defined and Probabilities(x) for Logistic. Accuracy scores
// predictions against labels. Any kernels.Kernel works.
// Models hold copies of what they need and only read them after Fit, so
// they are safe for concurrent use.
//
// # Conventions
//
// Data are linalg.Dense matrices, one example per row. Labels are any
// finite float64 values (−1/+1, 0/1, 1…10); the classes of a model are the
// distinct labels in ascending order (−0 and 0 are one class). Binary
// methods code the first (smaller) class −1 and the second +1, predict the
// second where the decision value f(x) > 0 and the first where f(x) ≤ 0.
// One-vs-all scores have one column per class, in ascending order of the
// classes.
//
// λ is the rkhs convention: the objectives are (1/n)Σᵢ loss(yᵢ, f(xᵢ)) +
// λ‖f‖², ‖f‖² = cᵀKc for f = Σᵢ cᵢ k(·, xᵢ), so that the square loss gives
// (K + nλI)c = y exactly as in package regress.
//
// Decision values and distances at new points come from cross-kernel
// blocks (kernels.Rows: one matrix product per block for the kernels of
// package kernels), never pair by pair; training uses the Gram matrix from
// kernels.Gram.
//
// # Options
//
// Options follow the zero-value rule of rkhs (see package rkhs): a zero
// MaxPasses, MaxIter or Tol selects its documented default, and 0 is a seed
// like any other; λ, the kernel's parameters and k of KNN have no default,
// and 0 is an error. RLS chooses λ by leave-one-out only when asked
// (ChooseLambda). The offset b of every method is a regress.Intercept, as
// in package regress: NoIntercept (the zero value), FreeIntercept (not
// penalized) or PenalizedIntercept (the kernel k + 1, b = Σᵢcᵢ); each
// method documents which it has (a perceptron has no penalty, the SVM's
// step needs one).
//
// # Failure
//
// Data-dependent failure returns an error; nothing in this package panics
// on data or on a nil, malformed or zero-value argument. Bad input — nil,
// empty or malformed X (negative dimensions, Stride < Cols, Data too
// short), NaN or ±Inf, labels of the wrong length, one class only, three
// classes given to a binary-only method, λ ≤ 0, k out of range, an
// intercept mode the method does not have, invalid kernel parameters, a
// nil or zero-value model — is a *linalg.InputError that names the call
// and the argument and wraps ErrInput (and kernels.ErrParameter for kernel
// parameters, linalg.ErrNotFinite for NaN or ±Inf). A kernel matrix that
// is not numerically positive definite in RLS wraps
// linalg.ErrNotPositiveDefinite. A fit whose n×n kernel matrix (RLS,
// Perceptron, Logistic, SVM) would exceed the memory limit returns a
// *linalg.MemoryError (linalg.ErrTooLarge) before allocating it; k-NN
// never forms one. Iterative methods that stop at their
// limit (Perceptron on non-separable data, Logistic before its tolerance)
// are not errors: the model says so (Converged false). No function
// modifies its arguments.
//
// # Determinism
//
// The results depend only on the inputs and the configuration, seeds
// included: products are split over goroutines by output rows only, so
// they are bit-identical for any GOMAXPROCS.
package classify
