// Package synth holds what the scale programs of compare share: the
// synthetic regression problem and the process's memory figures.
package synthetic

import (
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"rkhs/linalg"
)

// F is the fixed smooth function of the synthetic problem:
// sin(πx₁) + x₂·cos(πx₃) + x₄²/2 − x₅x₆/2 + (x₇ + x₈ + x₉ + x₁₀)/4.
func F(x []float64) float64 {
	return math.Sin(math.Pi*x[0]) + x[1]*math.Cos(math.Pi*x[2]) + x[3]*x[3]/2 - x[4]*x[5]/2 + (x[6]+x[7]+x[8]+x[9])/4
}

// Rows returns rows examples of the synthetic problem from a PCG
// generator seeded (s1, s2): x uniform on [−1, 1]¹⁰, y = F(x) + 0.1·ε with
// ε standard normal.
func Rows(rows int, s1, s2 uint64) (*linalg.Dense, *linalg.Dense) {
	rnd := rand.New(rand.NewPCG(s1, s2))
	x, y := linalg.NewDense(rows, 10, nil), linalg.NewDense(rows, 1, nil)
	for i := range rows {
		r := x.Row(i)
		for j := range r {
			r[j] = 2*rnd.Float64() - 1
		}
		y.Set(i, 0, F(r)+0.1*rnd.NormFloat64())
	}
	return x, y
}

// Status returns a size field of /proc/self/status (VmRSS, VmHWM) in MiB,
// 0 where there is none (not Linux).
func Status(field string) float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, field+":") {
			kb, _ := strconv.ParseFloat(strings.Fields(line)[1], 64)
			return kb / 1024
		}
	}
	return 0
}
