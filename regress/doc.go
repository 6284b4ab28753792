// Package regress fits kernel regularized least squares (RLS): the function
// f(x) = Σᵢ cᵢ k(x, xᵢ) (+ b) that minimizes (1/n)Σᵢ (yᵢ − f(xᵢ))² + λ‖f‖²,
// whose coefficients solve (K + nλI)c = y.
//
// The λ convention is fixed throughout rkhs: λ enters as K + nλI, where n is
// the number of training rows.
package regress
