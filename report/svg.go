package report

import (
	"fmt"
	"math"
	"strings"
)

// A small SVG line-plot writer, enough for the figures of `rkhs paper` and
// the selection curves of -plot: panels with a log or linear x axis, a log
// y axis, polylines and a legend.

// Series is one curve of a Panel: its name in the legend, its colour, its
// points, and the index of a point to circle (the choice), or −1. Only
// the points of both X and Y are drawn (the shorter's count).
type Series struct {
	Name   string
	Color  string
	X, Y   []float64
	Marker int
}

// Panel is one plot: a title, axis labels, a log or linear x axis (the y
// axis is logarithmic) and its curves. Points whose y is not positive and
// finite are left out. CountX marks an x axis of counts (iterations): its
// ticks are whole numbers, however short the range.
type Panel struct {
	Title, XLabel, YLabel string
	LogX, CountX          bool
	Series                []Series
}

const (
	panelW, panelH = 430, 300
	marginL        = 62
	marginR        = 14
	marginT        = 30
	marginB        = 46
)

// SVG draws the panels side by side on a white page.
func SVG(panels ...Panel) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">`+"\n", len(panels)*panelW, panelH)
	b.WriteString(`<rect width="100%" height="100%" fill="white"/>` + "\n")
	for i, p := range panels {
		drawPanel(&b, p, i*panelW)
	}
	b.WriteString("</svg>\n")
	return b.String()
}

func drawPanel(b *strings.Builder, p Panel, x0 int) {
	fx := func(v float64) float64 {
		if p.LogX {
			return math.Log10(v)
		}
		return v
	}
	xmin, xmax := math.Inf(1), math.Inf(-1)
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for _, s := range p.Series {
		for i := range min(len(s.X), len(s.Y)) {
			if math.IsNaN(s.Y[i]) || math.IsInf(s.Y[i], 0) || s.Y[i] <= 0 {
				continue
			}
			xmin, xmax = math.Min(xmin, fx(s.X[i])), math.Max(xmax, fx(s.X[i]))
			ymin, ymax = math.Min(ymin, math.Log10(s.Y[i])), math.Max(ymax, math.Log10(s.Y[i]))
		}
	}
	if math.IsInf(xmin, 0) {
		return
	}
	if ymax-ymin < 0.3 { // at least a factor 2 of vertical range
		mid := (ymax + ymin) / 2
		ymin, ymax = mid-0.15, mid+0.15
	}
	if xmax == xmin {
		xmax = xmin + 1
	}
	w, h := float64(panelW-marginL-marginR), float64(panelH-marginT-marginB)
	px := func(v float64) float64 { return float64(x0+marginL) + (fx(v)-xmin)/(xmax-xmin)*w }
	py := func(v float64) float64 { return float64(marginT) + (ymax-math.Log10(v))/(ymax-ymin)*h }

	fmt.Fprintf(b, `<text x="%d" y="18" font-weight="bold">%s</text>`+"\n", x0+marginL, esc(p.Title))
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%.0f" height="%.0f" fill="none" stroke="#444"/>`+"\n", x0+marginL, marginT, w, h)
	// x ticks: decades on a log axis, about five steps on a linear one.
	var xt []float64
	if p.LogX {
		for e := math.Ceil(xmin); e <= xmax; e += math.Max(1, math.Ceil((xmax-xmin)/6)) {
			xt = append(xt, math.Pow(10, e))
		}
	} else {
		step := niceStep((xmax - xmin) / 5)
		if p.CountX {
			step = math.Max(1, math.Round(step))
		}
		for k := math.Ceil(xmin / step); k*step <= xmax+1e-9*step; k++ {
			xt = append(xt, k*step) // k·step, not a sum of steps: no rounding drift
		}
	}
	for _, v := range xt {
		x := px(v)
		label := fmt.Sprintf("%.6g", v)
		if p.LogX {
			label = fmt.Sprintf("1e%d", int(math.Round(math.Log10(v))))
		}
		fmt.Fprintf(b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%.0f" stroke="#ddd"/>`+"\n", x, marginT, x, float64(marginT)+h)
		fmt.Fprintf(b, `<text x="%.1f" y="%.0f" text-anchor="middle">%s</text>`+"\n", x, float64(marginT)+h+14, label)
	}
	// y ticks: 1, 2, 5 × powers of ten inside the range.
	for e := math.Floor(ymin); e <= math.Ceil(ymax); e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, e)
			if lv := math.Log10(v); lv < ymin-1e-9 || lv > ymax+1e-9 {
				continue
			}
			y := py(v)
			fmt.Fprintf(b, `<line x1="%d" y1="%.1f" x2="%.0f" y2="%.1f" stroke="#eee"/>`+"\n", x0+marginL, y, float64(x0+marginL)+w, y)
			fmt.Fprintf(b, `<text x="%d" y="%.1f" text-anchor="end" dy="3">%.3g</text>`+"\n", x0+marginL-4, y, v)
		}
	}
	fmt.Fprintf(b, `<text x="%.0f" y="%d" text-anchor="middle">%s</text>`+"\n", float64(x0+marginL)+w/2, panelH-8, esc(p.XLabel))
	fmt.Fprintf(b, `<text transform="translate(%d,%.0f) rotate(-90)" text-anchor="middle">%s</text>`+"\n", x0+14, float64(marginT)+h/2, esc(p.YLabel))
	for k, s := range p.Series {
		var pts []string
		for i := range min(len(s.X), len(s.Y)) {
			if math.IsNaN(s.Y[i]) || math.IsInf(s.Y[i], 0) || s.Y[i] <= 0 {
				continue
			}
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(s.X[i]), py(s.Y[i])))
		}
		fmt.Fprintf(b, `<polyline fill="none" stroke="%s" stroke-width="1.6" points="%s"/>`+"\n", s.Color, strings.Join(pts, " "))
		if s.Marker >= 0 && s.Marker < min(len(s.X), len(s.Y)) && s.Y[s.Marker] > 0 {
			fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="4" fill="none" stroke="%s" stroke-width="1.6"/>`+"\n", px(s.X[s.Marker]), py(s.Y[s.Marker]), s.Color)
		}
		ly := marginT + 14 + 14*k
		fmt.Fprintf(b, `<line x1="%.0f" y1="%d" x2="%.0f" y2="%d" stroke="%s" stroke-width="2"/>`+"\n", float64(x0+marginL)+w-150, ly, float64(x0+marginL)+w-130, ly, s.Color)
		fmt.Fprintf(b, `<text x="%.0f" y="%d" dy="3">%s</text>`+"\n", float64(x0+marginL)+w-126, ly, esc(s.Name))
	}
}

func niceStep(raw float64) float64 {
	e := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*e >= raw {
			return m * e
		}
	}
	return 10 * e
}

func esc(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
