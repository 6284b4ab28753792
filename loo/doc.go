// Package loo computes leave-one-out errors of kernel regularized least
// squares for whole paths of the regularization parameter from one
// eigendecomposition of the kernel matrix, and selects parameters by
// leave-one-out, hold-out or k-fold cross-validation.
//
// λ enters as K + nλI, n the number of training rows, as everywhere in rkhs.
package loo
