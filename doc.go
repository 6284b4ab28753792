// Package rkhs is regularized least squares in a reproducing kernel Hilbert
// space, and the family of kernel methods around it, in pure Go with no
// dependencies beyond the standard library. This package holds no code: it
// maps the module and states, once, the conventions every package follows.
//
// # Packages
//
//   - [rkhs/linalg]: dense linear algebra written for this module — the
//     row-major view Dense; Gemm and Syrk (blocked, packed matrix products
//     in the layers of BLIS, with goroutine parallelism); Trsm and Trsv;
//     Cholesky (blocked, with solves, log-determinant and diag(A⁻¹));
//     EigenSym (Householder tridiagonalization, divide and conquer) and
//     EigenSymJacobi (high relative accuracy); QR (blocked Householder);
//     SVD (Householder bidiagonalization and divide and conquer, the
//     default; or QR preconditioning and one-sided Jacobi, for high
//     relative accuracy); Dot and Nrm2; the error types every package uses
//     (InputError, NotFiniteError, …).
//   - [rkhs/kernels]: Linear, Polynomial, Gaussian and Laplacian kernels
//     and any type with an Eval method; Gram and Cross matrices; Rows, the
//     kernel matrix produced a block of rows at a time (Rows.Blocks), and
//     Widths, the blocks of several widths of one radial kernel from one
//     distance computation; Moments and Standardization, the features'
//     mean and scale gathered a block (or a machine) at a time.
//   - [rkhs/regress]: kernel RLS (RLS, by Cholesky) with no, a free or a
//     penalized intercept; LinearRLS and LinearPath for the linear kernel;
//     Nystrom; Spectral, one eigendecomposition for every spectral filter
//     (TikhonovFilter, TruncatedSVDFilter, IteratedTikhonovFilter,
//     LandweberFilter, NuFilter) and for Tikhonov on the augmented matrix
//     [K 1] (FitAugmented); the matrix-free fitters Landweber, NuMethod,
//     CGLS and CG; Falkon, Nyström by preconditioned conjugate gradient
//     with K_nm streamed in row blocks, for n far beyond one n×n or n×m
//     matrix, and the NystromOperator it runs on; NystromStats, the m×m
//     sufficient statistics of a Nyström fit, added a block of rows at a
//     time (NystromStats.AddKernelRows) and merged across goroutines or
//     machines, and NystromCenters, the centres every Nyström fit draws;
//     MSE, PredictAll; model files.
//   - [rkhs/loo]: exact leave-one-out residuals for whole λ paths (RLS,
//     Augmented, Linear, Nystrom), hat-matrix residuals and GCV for every
//     filter (Filters), grids of λ and σ, splits; and the choice of σ and
//     λ: SelectRLS (one eigendecomposition per σ) and, at any n,
//     SelectNystrom, which streams the rows twice for every σ of a grid
//     around the median distance (MedianDistance, MedianDistanceOf) and scores
//     every λ on the λ path of each σ (NystromPath, NewNystromPath,
//     UsableNystromPath), the choice made by one rule (Table.Best) that
//     every selection of the module shares. Its package documentation
//     gives the files to read, in order, from the command to the chosen
//     model. One length scale per feature is learnt by gradient descent
//     on the exact leave-one-out error (ScaleObjective, SelectScales).
//   - [rkhs/interval]: prediction intervals with a finite-sample coverage
//     guarantee — jackknife+ and CV+ (Barber, Candès, Ramdas and
//     Tibshirani, 2021) from the exact leave-one-out and fold models of
//     RLS, a λ path and Nyström, with no refits — the Gaussian-process
//     standard deviation from the same weights, and conformal label sets
//     for classes.
//   - [rkhs/classify]: kernel perceptron, k-NN, RLS classification (binary
//     and one-vs-all; Falkon for large n), kernel logistic regression and
//     the kernel SVM; the choice of σ and λ for classes (SelectRLS,
//     SelectNystrom) and the rule that tells classes from a continuous
//     target (CheckClasses); Accuracy; model files.
//   - [rkhs/model]: the model file rkhs and rkhs-beam write: load any
//     fitted model of regress, classify or interval by its format,
//     predict with it, write it and its predictions as the commands do.
//   - [rkhs/report]: what a selection chose and why, for people: the
//     leave-one-out table with the choice marked, the length scales
//     ranked, the warnings (edge of a grid, flat table, tiny data) and SVG
//     pictures of the table, the descent and an interval's calibration.
//   - [rkhs/optimize]: LBFGS, a projected limited-memory BFGS minimizer of
//     smooth functions in a box, for choosing many parameters at once.
//   - [rkhs/dataset]: reading and writing LIBSVM and CSV data sets.
//   - [rkhs/datasets]: the bundled data sets, by name (see its README).
//   - rkhs/cmd/rkhs: the command — fit, loo, predict, classify, and paper,
//     which reproduces the experiment of Prato and Zanni (2012); its
//     rules shared with rkhs-beam (module rkhs/beam, the same fits on
//     Apache Beam) live in rkhs/internal/cli.
//
// # Conventions
//
// Storage: matrices are row-major views ([rkhs/linalg.Dense]), one example
// per row. Eigenvalues come in ascending order, singular values in
// descending order.
//
// λ: the regularization parameter enters as K + nλI, where n is the number
// of training rows: kernel RLS minimizes (1/n)Σᵢ(yᵢ − f(xᵢ))² + λ‖f‖² and
// its coefficients solve (K + nλI)c = y. regress.LambdaFromAlpha and
// LambdaFromC convert other libraries' parameters.
//
// Zero values: the zero value of an option means its documented default —
// a limit on iterations or passes (MaxIter, MaxPasses), a tolerance (Tol;
// for the regress solvers, no tolerance test), a step size (Eta), ν; and 0
// is a seed like any other. The quantities that set how much to
// regularize have no default, and 0 is an error that names the field: λ,
// the kernel's parameters (σ, the degree), the number of iterations of an
// early-stopping method (MaxIter of regress.Landweber, NuMethod and CGLS,
// Steps of the iterative filters), the number of Nyström centres and k of
// k-NN. Where the iteration count is only a budget (regress.CG, whose λ
// regularizes; optimize.LBFGS) it has a default. classify.RLS chooses λ by leave-one-out
// only when asked (ChooseLambda).
//
// Intercepts: the offset b of f(x) = Σᵢcᵢk(x, xᵢ) + b is a
// regress.Intercept in every package — NoIntercept (the zero value),
// FreeIntercept (b not penalized) or PenalizedIntercept (the kernel k + 1,
// b = Σᵢcᵢ) — and each method documents the modes it has. Models name it
// Intercept. Intercept.Validate rejects an unknown mode, and every package
// reports that error on its own call and argument.
//
// Destinations: routines whose name ends in To write their result into a
// destination the caller gives and return it; an empty destination (nil or
// the zero Dense) is allocated.
//
// # Failure
//
// Package linalg is the BLAS/LAPACK layer: misuse — impossible shapes,
// malformed views (negative dimensions, a Stride smaller than Cols, Data
// too short for the view) — panics with a message that starts with
// "linalg:", at the entry of the routine; failure that depends on the
// numbers (not positive definite, no convergence, NaN or ±Inf) is an error.
//
// The packages above it (kernels, regress, loo, interval, classify,
// optimize, dataset) validate every argument they are given: nil,
// malformed, empty or non-finite matrices, nil or invalid kernels, invalid
// parameters, nil or zero-value models and decompositions are errors,
// never panics. Errors about arguments are *linalg.InputError values that
// name the call (Op) and the argument (Arg), say why (Reason), and wrap
// the package's sentinel (regress.ErrInput, classify.ErrInput,
// loo.ErrInput, interval.ErrInput, optimize.ErrInput,
// kernels.ErrParameter, kernels.ErrData) and the cause, if any; dataset,
// whose arguments are files, returns its
// *dataset.ParseError (malformed input) and *dataset.DataError (a Data its
// writers cannot write). NaN or ±Inf, in data or in a numeric parameter,
// is tested the same way whichever package saw it, linalg's
// factorizations included:
//
//	errors.Is(err, linalg.ErrNotFinite)
//
// A computation that fails on valid input wraps linalg.ErrNotPositiveDefinite
// (for example a λ too small for the kernel's rounding errors) or
// linalg.ErrNoConvergence. A problem too large for memory is refused
// before anything large is allocated: every method that forms an n×n or
// n×m matrix computes its peak memory first and returns a
// *linalg.MemoryError — not inside an InputError, since no argument is
// wrong — that says what it needs, the limit and which limit that is (the
// Go memory limit when the program set one; otherwise, on Linux, the
// cgroup limit or the physical memory; always the address space of the
// target). Test for it with
//
//	errors.Is(err, linalg.ErrTooLarge)
//
// The exceptions, documented where they apply: a non-empty destination of
// the wrong shape is a programming error and panics, as in linalg; and the
// index and grid helpers of package loo and dataset.Data.Split and Subset,
// whose arguments are sizes, fractions and indices that a program fixes
// rather than data, panic on impossible ones, as make does on a negative
// size. The tests at the root of the module hold these conventions as
// tables with a row for every exported function and method, or a stated
// reason why none applies.
// Arguments are never modified unless the documentation says so.
//
// # Determinism
//
// Results do not depend on the number of goroutines: large operations
// split only their output over goroutines, so the same inputs give
// bit-identical outputs for any GOMAXPROCS. They can differ between builds
// (GOAMD64=v3, GOEXPERIMENT=simd), which use fused multiply-adds or vector
// sums: in the last bits for the direct methods, by more for iterative
// ones, which amplify rounding (CG after 30 iterations can differ in the
// third digit).
//
// # References
//
// The methods, and the equations comments refer to, are those of:
//
//   - M. Prato and L. Zanni (2012). A practical use of regularization for
//     supervised learning with kernel methods. RLS with a free intercept
//     (their eq. 7) and a penalized one (eq. 8), Tikhonov on the augmented
//     matrix [K 1], CGLS on [K 1] with early stopping (eq. 9), and the
//     experiment of rkhs paper.
//   - R. Rifkin (2007). Regularized least squares. Lecture notes, MIT
//     9.520. Cholesky and eigendecomposition routes, exact leave-one-out
//     from the eigendecomposition, the linear kernel through the thin SVD,
//     the subset of regressors (Nyström).
//   - A. Rudi, L. Carratino and L. Rosasco (2017). FALKON: An optimal large
//     scale kernel method. NeurIPS. Nyström centres, the preconditioner
//     from chol(K_mm + εmI) and chol(TTᵀ/m + λI), conjugate gradient with
//     K_nm in blocks (regress.Falkon).
//   - G. Meanti, L. Carratino, L. Rosasco and A. Rudi (2020). Kernel methods
//     through the roof: handling billions of points efficiently. NeurIPS.
//     The streamed products and the out-of-core setting.
//   - L. Rosasco (2008). Spectral regularization. Lecture notes, MIT 9.520.
//     Filters G_λ(σ): Tikhonov, truncated SVD, iterated Tikhonov,
//     Landweber, the ν-method.
//   - L. Rosasco (2017). Tikhonov regularization and kernels. Lecture notes,
//     RegML 2017. Kernel logistic regression and the SVM by gradient and
//     subgradient descent on the representer coefficients.
//   - C. Igel. Basic kernel methods. Lecture notes, Statistical Methods for
//     Machine Learning, University of Copenhagen. The kernel perceptron
//     (Algorithm 1) and kernel k-NN (Algorithm 2).
//   - H. W. Engl, M. Hanke and A. Neubauer (1996). Regularization of Inverse
//     Problems. Kluwer. The ν-method.
//   - S. Shalev-Shwartz, Y. Singer and N. Srebro (2007). Pegasos: Primal
//     Estimated sub-GrAdient SOlver for SVM. ICML. The step 1/(2λt).
//   - G. H. Golub, M. Heath and G. Wahba (1979). Generalized
//     cross-validation as a method for choosing a good ridge parameter.
//     Technometrics 21(2). GCV.
//   - A. Tacchetti, P. K. Mallapragada, M. Santoro and L. Rosasco (2013).
//     GURLS: a least squares library for supervised learning. JMLR 14. The
//     λ grid over the spectrum.
//   - F. G. Van Zee and R. A. van de Geijn (2015). BLIS: a framework for
//     rapidly instantiating BLAS functionality. ACM TOMS 41(3). The layers
//     of the matrix products.
//   - E. Anderson et al. (1999). LAPACK Users' Guide, 3rd ed. SIAM. The
//     factorizations and their test ratios.
//   - C.-W. Hsu, C.-C. Chang and C.-J. Lin (2003). A practical guide to
//     support vector classification. The setting of the LIBSVM figures in
//     BENCHMARKS.md.
package rkhs
