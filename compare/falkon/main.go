// Command falkon measures regress.Falkon (and, beside it, the direct
// regress.Nystrom and exact regress.RLS) on the data sets of the
// "Large data" section of BENCHMARKS.md: time, test error and peak memory.
// It can also write the data and the centres it used as raw float64 files
// for compare/reference.py (job nystroem), which fits scikit-learn's
// Nystroem + Ridge on the same data with the same centres.
//
//	go run ./falkon -data synth -n 100000 -m 4000 -iters 20
//	go run ./falkon -data cal -method rls
//	go run ./falkon -data beijing -m 2000 -dump /tmp/beijing
//
// Data (-data):
//
//   - synth: the synthetic regression problem, written down here so that
//     anyone can regenerate it: x uniform on [−1, 1]¹⁰ and
//     y = sin(πx₁) + x₂·cos(πx₃) + x₄²/2 − x₅x₆/2 + (x₇ + x₈ + x₉ + x₁₀)/4 +
//     0.1·ε, ε standard normal; -n training rows from a PCG generator
//     seeded (1, 2) and 10,000 test rows from one seeded (3, 4).
//   - cal: ../shared/data/large/cal_housing.csv (20,640 rows, 8 features),
//     features standardized with the training means and deviations, the
//     target in units of $100,000; every fifth row (i mod 5 = 4) is the
//     test set.
//   - beijing: the 12 files of ../shared/data/large/beijing_air_quality,
//     PM2.5 from the time (year, month and hour as a cosine and a sine,
//     day of month) and the weather (TEMP, PRES, DEWP, RAIN, WSPM, the wind
//     direction wd as a cosine and a sine); rows with a missing value in
//     any of these dropped; standardized; every fifth row is the test set.
//   - skin: ../shared/data/large/skin/Skin_NonSkin.txt.gz, B, G, R / 255,
//     labels 1 (skin) and 2; every fifth row is the test set; classified
//     by classify.Falkon (accuracy instead of MSE).
//
// Peak memory is the process's VmHWM (Linux /proc/self/status) at the end,
// reset after the data are loaded, and the resident size at that point is
// printed beside it: their difference is what the fit added.
package main

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"rkhs/classify"
	"rkhs/compare/internal/synthetic"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

var (
	dataFlag = flag.String("data", "synth", "synth, cal, beijing or skin")
	dir      = flag.String("dir", "../../shared/data/large", "the large data sets")
	n        = flag.Int("n", 100000, "training rows (synth)")
	m        = flag.Int("m", 4000, "centres")
	iters    = flag.Int("iters", 20, "CG iterations")
	sigma    = flag.Float64("sigma", 0, "Gaussian σ (0: the data set's default)")
	lambda   = flag.Float64("lambda", 0, "λ (0: the data set's default)")
	method   = flag.String("method", "falkon", "falkon, nystrom or rls")
	dump     = flag.String("dump", "", "write train/test/centres as raw float64 files with this prefix")
	verbose  = flag.Bool("v", false, "a line per iteration")
	profile  = flag.String("cpuprofile", "", "write a CPU profile of the fit to this file")
)

type set struct {
	xtr, ytr, xte, yte *linalg.Dense
	sigma, lambda      float64
	classes            bool
}

func main() {
	flag.Parse()
	log.SetFlags(0)
	var s set
	switch *dataFlag {
	case "synth":
		s = synth(*n)
	case "cal":
		s = cal(filepath.Join(*dir, "cal_housing.csv"))
	case "beijing":
		s = beijing(filepath.Join(*dir, "beijing_air_quality"))
	case "skin":
		s = skin(filepath.Join(*dir, "skin", "Skin_NonSkin.txt.gz"))
	default:
		log.Fatalf("unknown -data %q", *dataFlag)
	}
	if *sigma > 0 {
		s.sigma = *sigma
	}
	if *lambda > 0 {
		s.lambda = *lambda
	}
	rssData, stop, err := synthetic.Begin(*profile)
	check(err)
	defer stop()
	k := kernels.Gaussian{Sigma: s.sigma}
	fmt.Printf("data %s: n=%d d=%d test=%d sigma=%g lambda=%g method=%s m=%d iters=%d GOMAXPROCS=%d %s\n",
		*dataFlag, s.xtr.Rows, s.xtr.Cols, s.xte.Rows, s.sigma, s.lambda, *method, *m, *iters, runtime.GOMAXPROCS(0), runtime.Version())
	start := time.Now()
	var model interface {
		Predict(*linalg.Dense) (*linalg.Dense, error)
	}
	var centers *linalg.Dense
	var accuracy float64
	switch {
	case s.classes:
		labels := s.ytr.Data // n×1, stride 1
		f := classify.Falkon{Kernel: k, Lambda: s.lambda, Centers: *m, Seed: 1, Intercept: regress.FreeIntercept, MaxIter: *iters}
		if *verbose {
			f.Callback = func(it int, r float64, _ *classify.RLSModel) bool {
				fmt.Printf("  iter %d %.3fs residual %.4g\n", it, time.Since(start).Seconds(), r)
				return true
			}
		}
		fit, err := f.Fit(s.xtr, labels)
		check(err)
		centers = fit.Model.Centers
		elapsed := time.Since(start)
		p, err := fit.Predict(s.xte)
		check(err)
		accuracy, err = classify.Accuracy(s.yte.Data, p)
		check(err)
		fmt.Printf("fit %.2fs iterations=%d accuracy=%.5f\n", elapsed.Seconds(), fit.Iterations, accuracy)
	case *method == "falkon":
		f := &regress.Falkon{Kernel: k, Lambda: s.lambda, Centers: *m, Seed: 1, Intercept: regress.FreeIntercept, MaxIter: *iters}
		if *verbose {
			f.Callback = func(it int, r float64, _ *regress.Model) bool {
				fmt.Printf("  iter %d %.3fs residual %.4g\n", it, time.Since(start).Seconds(), r)
				return true
			}
		}
		fit, err := f.Fit(s.xtr, s.ytr)
		check(err)
		model, centers = fit, fit.Centers
	case *method == "nystrom":
		fit, err := regress.Nystrom{Kernel: k, Lambda: s.lambda, Centers: *m, Seed: 1, Intercept: regress.FreeIntercept}.Fit(s.xtr, s.ytr)
		check(err)
		model, centers = fit, fit.Centers
	case *method == "rls":
		fit, err := regress.RLS{Kernel: k, Lambda: s.lambda, Intercept: regress.FreeIntercept}.Fit(s.xtr, s.ytr)
		check(err)
		model = fit
	default:
		log.Fatalf("unknown -method %q", *method)
	}
	if model != nil {
		elapsed := time.Since(start)
		p, err := model.Predict(s.xte)
		check(err)
		mse, err := regress.MSE(s.yte, p)
		check(err)
		fmt.Printf("fit %.2fs test_mse=%.6g\n", elapsed.Seconds(), mse)
	}
	fmt.Printf("rss_data %.0f MiB peak_rss %.0f MiB (fit added %.0f MiB)\n", rssData, synthetic.Status("VmHWM"), synthetic.Status("VmHWM")-rssData)
	if *dump != "" {
		for name, a := range map[string]*linalg.Dense{"xtr": s.xtr, "ytr": s.ytr, "xte": s.xte, "yte": s.yte, "centres": centers} {
			if a != nil {
				write(*dump+"."+name+".f64", a)
			}
		}
		fmt.Printf("wrote %s.{xtr,ytr,xte,yte,centres}.f64 (d=%d)\n", *dump, s.xtr.Cols)
	}
}

func synth(rows int) set {
	xtr, ytr := synthetic.Rows(rows, 1, 2)
	xte, yte := synthetic.Rows(10000, 3, 4)
	return set{xtr, ytr, xte, yte, 2, 1e-6, false}
}

// split puts every fifth row (i mod 5 = 4) in the test set, standardizes
// the features with the training statistics and returns the set.
func split(x [][]float64, y []float64, sigma, lambda float64, classes bool) set {
	var tr, te []int
	for i := range x {
		if i%5 == 4 {
			te = append(te, i)
		} else {
			tr = append(tr, i)
		}
	}
	d := len(x[0])
	mean, sd := make([]float64, d), make([]float64, d)
	for _, i := range tr {
		for j, v := range x[i] {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(len(tr))
	}
	for _, i := range tr {
		for j, v := range x[i] {
			sd[j] += (v - mean[j]) * (v - mean[j])
		}
	}
	for j := range sd {
		sd[j] = math.Sqrt(sd[j] / float64(len(tr)))
		if sd[j] == 0 {
			sd[j] = 1
		}
	}
	build := func(idx []int) (*linalg.Dense, *linalg.Dense) {
		xs, ys := linalg.NewDense(len(idx), d, nil), linalg.NewDense(len(idx), 1, nil)
		for r, i := range idx {
			for j, v := range x[i] {
				xs.Set(r, j, (v-mean[j])/sd[j])
			}
			ys.Set(r, 0, y[i])
		}
		return xs, ys
	}
	xtr, ytr := build(tr)
	xte, yte := build(te)
	return set{xtr, ytr, xte, yte, sigma, lambda, classes}
}

func cal(path string) set {
	f, err := os.Open(path)
	check(err)
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	check(err)
	var x [][]float64
	var y []float64
	for _, r := range recs[1:] {
		v := floats(r)
		x = append(x, v[:8])
		y = append(y, v[8]/1e5)
	}
	return split(x, y, 1, 1e-6, false)
}

var compass = map[string]float64{"N": 0, "NNE": 1, "NE": 2, "ENE": 3, "E": 4, "ESE": 5, "SE": 6, "SSE": 7,
	"S": 8, "SSW": 9, "SW": 10, "WSW": 11, "W": 12, "WNW": 13, "NW": 14, "NNW": 15}

func beijing(dir string) set {
	files, err := filepath.Glob(filepath.Join(dir, "PRSA_Data_*.csv.gz"))
	check(err)
	var x [][]float64
	var y []float64
	for _, name := range files {
		f, err := os.Open(name)
		check(err)
		z, err := gzip.NewReader(f)
		check(err)
		r := csv.NewReader(z)
		head, err := r.Read()
		check(err)
		col := map[string]int{}
		for i, h := range head {
			col[h] = i
		}
		for {
			rec, err := r.Read()
			if err == io.EOF {
				break
			}
			check(err)
			get := func(name string) (float64, bool) {
				v, err := strconv.ParseFloat(rec[col[name]], 64)
				return v, err == nil
			}
			var row []float64
			ok := true
			for _, c := range []string{"year", "month", "day", "hour", "TEMP", "PRES", "DEWP", "RAIN", "WSPM", "PM2.5"} {
				v, good := get(c)
				ok = ok && good
				row = append(row, v)
			}
			wd, good := compass[rec[col["wd"]]]
			if !ok || !good {
				continue
			}
			month, hour := 2*math.Pi*(row[1]-1)/12, 2*math.Pi*row[3]/24
			a := 2 * math.Pi * wd / 16
			x = append(x, []float64{row[0], math.Cos(month), math.Sin(month), row[2], math.Cos(hour), math.Sin(hour),
				row[4], row[5], row[6], row[7], row[8], math.Cos(a), math.Sin(a)})
			y = append(y, row[9])
		}
		f.Close()
	}
	return split(x, y, 3, 1e-5, false)
}

func skin(path string) set {
	f, err := os.Open(path)
	check(err)
	defer f.Close()
	z, err := gzip.NewReader(f)
	check(err)
	var x [][]float64
	var y []float64
	sc := bufio.NewScanner(z)
	for sc.Scan() {
		v := floats(strings.Fields(sc.Text()))
		if len(v) != 4 {
			continue
		}
		x = append(x, []float64{v[0] / 255, v[1] / 255, v[2] / 255})
		y = append(y, v[3])
	}
	check(sc.Err())
	// The file is sorted by label: shuffle (fixed seed) before the split.
	rnd := rand.New(rand.NewPCG(5, 6))
	rnd.Shuffle(len(x), func(i, j int) { x[i], x[j], y[i], y[j] = x[j], x[i], y[j], y[i] })
	s := split(x, y, 0.5, 1e-5, true)
	return s
}

func floats(r []string) []float64 {
	v := make([]float64, len(r))
	for i, s := range r {
		var err error
		v[i], err = strconv.ParseFloat(strings.TrimSpace(s), 64)
		check(err)
	}
	return v
}

func write(path string, a *linalg.Dense) {
	f, err := os.Create(path)
	check(err)
	w := bufio.NewWriter(f)
	for i := range a.Rows {
		check(binary.Write(w, binary.LittleEndian, a.Row(i)))
	}
	check(w.Flush())
	check(f.Close())
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
