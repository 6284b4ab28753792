module rkhs

go 1.24
