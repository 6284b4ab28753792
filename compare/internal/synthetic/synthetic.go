// Package synthetic holds what the scale programs of compare share: the
// synthetic regression problem, the process's memory and CPU figures and
// the start of the measured part.
package synthetic

import (
	"math"
	"math/rand/v2"
	"os"
	"runtime/debug"
	"runtime/pprof"
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

// F3 is the synthetic problem of the length scales' programs, a function
// of 3 of the 10 features: sin(πx₁) + x₂·cos(πx₃); x₄ … x₁₀ are noise.
func F3(x []float64) float64 { return math.Sin(math.Pi*x[0]) + x[1]*math.Cos(math.Pi*x[2]) }

// Rows3 is Rows for F3.
func Rows3(rows int, s1, s2 uint64) (*linalg.Dense, *linalg.Dense) {
	x, y := Rows(rows, s1, s2)
	rnd := rand.New(rand.NewPCG(s2, s1))
	for i := range rows {
		y.Set(i, 0, F3(x.Row(i))+0.1*rnd.NormFloat64())
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

// CPUSeconds returns the process's CPU time, user and system, in seconds
// from /proc/self/stat (clock ticks of 1/100 s, Linux's USER_HZ), NaN
// where there is none (not Linux).
func CPUSeconds() float64 {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return math.NaN()
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:]) // fields from the 3rd, state
	if len(f) < 13 {
		return math.NaN()
	}
	u, _ := strconv.ParseFloat(f[11], 64)
	k, _ := strconv.ParseFloat(f[12], 64)
	return (u + k) / 100
}

// ResetPeak resets the peak resident size, VmHWM, to the resident size now
// (Linux: writing 5 to /proc/self/clear_refs; a no-op elsewhere).
func ResetPeak() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// Begin starts the measured part of a program: it returns to the system
// what loading the data freed and resets the peak resident size (Linux:
// writing 5 to /proc/self/clear_refs), so that VmHWM read afterwards is the
// peak of the work with the data in memory, and returns the resident size
// now (MiB). With profile not empty it also starts a CPU profile into that
// file; stop ends it (a no-op otherwise).
func Begin(profile string) (rssData float64, stop func(), err error) {
	debug.FreeOSMemory()
	ResetPeak()
	rssData = Status("VmRSS")
	if profile == "" {
		return rssData, func() {}, nil
	}
	f, err := os.Create(profile)
	if err != nil {
		return 0, nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return 0, nil, err
	}
	return rssData, func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// RowsGrowing is Rows with noise that grows with the first feature:
// y = F(x) + (0.05 + 0.1·(x₁ + 1))·ε, a standard deviation from 0.05 at
// x₁ = −1 to 0.25 at x₁ = 1 (0.15 on average), for intervals, whose width
// should follow it.
func RowsGrowing(rows int, s1, s2 uint64) (*linalg.Dense, *linalg.Dense) {
	rnd := rand.New(rand.NewPCG(s1, s2))
	x, y := linalg.NewDense(rows, 10, nil), linalg.NewDense(rows, 1, nil)
	for i := range rows {
		r := x.Row(i)
		for j := range r {
			r[j] = 2*rnd.Float64() - 1
		}
		y.Set(i, 0, F(r)+(0.05+0.1*(r[0]+1))*rnd.NormFloat64())
	}
	return x, y
}
