// Package split holds the one random splitter of rkhs, behind
// dataset.Data.Split and loo.Split: the same n, fraction and seed give the
// same split through either.
package split

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// Indices splits 0…n−1 at random into a training part of round(trainFrac·n)
// indices (halves rounded up) and a test part with the rest, both in
// increasing order. The draw is a permutation from a PCG generator seeded
// by seed (second word "split"), so a seed always gives the same split. It
// panics, naming caller, unless n ≥ 0 and 0 ≤ trainFrac ≤ 1.
func Indices(caller string, n int, trainFrac float64, seed uint64) (train, test []int) {
	if n < 0 {
		panic(fmt.Sprintf("%s: %d points", caller, n))
	}
	if !(trainFrac >= 0 && trainFrac <= 1) {
		panic(fmt.Sprintf("%s: trainFrac %v outside [0, 1]", caller, trainFrac))
	}
	perm := rand.New(rand.NewPCG(seed, 0x73706c6974)).Perm(n) // second word: "split"
	k := int(trainFrac*float64(n) + 0.5)
	train, test = perm[:k], perm[k:]
	slices.Sort(train)
	slices.Sort(test)
	return train, test
}
