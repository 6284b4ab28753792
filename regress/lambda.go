package regress

// The λ convention of rkhs: the coefficients of kernel RLS on n training
// points solve (K + nλI)c = y, the minimiser of
// (1/n)Σᵢ(yᵢ − f(xᵢ))² + λ‖f‖². The functions below convert other
// libraries' parameters to this λ.

// LambdaFromAlpha returns λ = α/n for scikit-learn's KernelRidge and Ridge,
// which solve (K + αI)c = y (without the 1/n on the loss), and likewise for
// the (K + λI) convention of Rifkin's notes and of GURLS's unscaled
// variants: there λ_unscaled = α.
func LambdaFromAlpha(alpha float64, n int) float64 { return alpha / float64(n) }

// AlphaFromLambda is the inverse of LambdaFromAlpha: α = nλ.
func AlphaFromLambda(lambda float64, n int) float64 { return lambda * float64(n) }

// LambdaFromC returns λ = 1/(2nC) for LIBSVM's C, which weighs the sum of
// losses against ½‖f‖²: C·Σᵢ loss + ½‖f‖² has the same minimiser as
// (1/n)Σᵢ loss + λ‖f‖² when λ = 1/(2nC). The correspondence is exact for the
// objectives; an SVM's hinge loss and RLS's square loss are different
// problems, so it only gives a comparable amount of regularization.
func LambdaFromC(c float64, n int) float64 { return 1 / (2 * float64(n) * c) }
