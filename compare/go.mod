module rkhs/compare

go 1.24.0

require rkhs v0.0.0

require gonum.org/v1/gonum v0.17.0

replace rkhs => ../
