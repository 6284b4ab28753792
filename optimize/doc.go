// Package optimize minimizes smooth functions of a few dozen variables
// inside a box, economically in evaluations: for objectives such as the
// exact leave-one-out error of a kernel fit as a function of its log
// length scales and log λ, where one evaluation (value and gradient) is a
// pass over the data and costs far more than the optimizer's own work.
//
// LBFGS.Minimize is a projected limited-memory BFGS method for
//
//	minimize f(x) subject to lo ≤ x ≤ hi,
//
// with f's exact gradient supplied with its value; a bound may be ±Inf (no
// bound on that side), so the same call minimizes without constraints.
// See LBFGS for the method, its cost and its stopping rules, and Result
// for what a run returns.
//
// Options follow the zero-value rule of rkhs (see package rkhs): every
// option of LBFGS is a budget, a tolerance or a line-search constant, and
// its zero value selects its documented default.
//
// # Failure
//
// Errors about the arguments are *linalg.InputError values wrapping
// ErrInput that name the call and the argument: a nil objective, no
// variables, lo or hi of a length other than x0's, a lower bound above its
// upper bound, NaN or ±Inf in x0, NaN in a bound, a lower bound of +Inf or
// an upper bound of −Inf, a negative option or line-search constants
// outside 0 < C1 < C2 < 1. NaN or ±Inf, in x0, a bound or an option, also
// wraps linalg.ErrNotFinite, and so does an objective whose value or
// gradient is NaN or ±Inf at the starting point (the argument named is f).
// Elsewhere a NaN or ±Inf value or gradient is not an error: the line
// search treats the step as too long and backs off (Result.NonFinite
// counts these evaluations). A run that finds no acceptable step ends with
// StopLineSearch and the best point found, not an error. Nothing here
// panics on data, and the caller's slices are never modified.
//
// # Determinism
//
// There are no goroutines: the same objective, options and starting point
// give bit-identical iterates, evaluations and results.
//
// # References
//
//   - J. Nocedal (1980). Updating quasi-Newton matrices with limited
//     storage. Mathematics of Computation 35(151). The two-loop recursion.
//   - D. C. Liu and J. Nocedal (1989). On the limited memory BFGS method
//     for large scale optimization. Mathematical Programming 45. L-BFGS,
//     the initial scaling γ = sᵀy/yᵀy.
//   - D. P. Bertsekas (1982). Projected Newton methods for optimization
//     problems with simple constraints. SIAM J. Control and Optimization
//     20(2). The binding set, the Armijo rule along the projection arc.
//   - E. M. Gafni and D. P. Bertsekas (1984). Two-metric projection methods
//     for constrained optimization. SIAM J. Control and Optimization 22(6).
//     A scaled direction on the free variables, projected onto the box.
//   - D. Kim, S. Sra and I. S. Dhillon (2010). Tackling box-constrained
//     optimization via a new projected quasi-Newton approach. SIAM J.
//     Scientific Computing 32(6). L-BFGS on the free variables with the
//     binding set above.
//   - R. H. Byrd, P. Lu, J. Nocedal and C. Zhu (1995). A limited memory
//     algorithm for bound constrained optimization. SIAM J. Scientific
//     Computing 16(5). L-BFGS-B, the method this one is compared with (see
//     LBFGS): the projected-gradient stopping test, the relative-decrease
//     test, a step capped where the direction meets the box.
//   - J. Nocedal and S. J. Wright (2006). Numerical Optimization, 2nd ed.
//     Springer. The strong Wolfe line search (Algorithms 3.5 and 3.6) and
//     cubic interpolation (eq. 3.59).
package optimize
