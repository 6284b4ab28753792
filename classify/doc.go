// Package classify holds kernel classifiers built on rkhs/kernels and
// rkhs/regress: the kernel perceptron, kernel k-nearest neighbours, RLS
// classifiers (binary and one-vs-all), kernel logistic regression and the
// kernel support vector machine.
package classify
