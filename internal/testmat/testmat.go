// Package testmat holds the test fixtures shared by rkhs's packages:
// random matrices with padded strides, matrices with chosen spectra, naive
// reference products, norms and scaled residuals.
//
// Everything here is written for clarity, not speed: it is the oracle the
// fast code is checked against. Matrices are [Matrix] values whose fields
// are those of linalg.Dense, so a test converts with linalg.Dense(m) without
// testmat importing linalg (which would make an import cycle for linalg's own
// tests).
package testmat

import (
	"math"
	"math/rand/v2"
)

// Matrix is a row-major matrix: element (i, j) is Data[i*Stride+j].
type Matrix struct {
	Rows, Cols int
	Stride     int
	Data       []float64
}

// Pad is written into the padding of strided matrices (the elements between
// Cols and Stride of each row). Routines must neither read it (a result that
// used it would be wrong) nor write it ([PaddingIntact] checks).
const Pad = -1234.5678

// NewRand returns the fixed-seed generator tests use.
func NewRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }

// New returns a zero r×c matrix with stride c+pad whose padding is Pad.
func New(r, c, pad int) Matrix {
	m := Matrix{Rows: r, Cols: c, Stride: c + pad}
	if r > 0 {
		m.Data = make([]float64, (r-1)*m.Stride+c+pad)
	}
	for i := 0; i < r; i++ {
		for j := c; j < m.Stride; j++ {
			m.Data[i*m.Stride+j] = Pad
		}
	}
	return m
}

// Random returns an r×c matrix with stride c+pad and entries uniform in
// [−1, 1).
func Random(rnd *rand.Rand, r, c, pad int) Matrix {
	m := New(r, c, pad)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m.Set(i, j, 2*rnd.Float64()-1)
		}
	}
	return m
}

// At returns element (i, j).
func (m Matrix) At(i, j int) float64 { return m.Data[i*m.Stride+j] }

// Set sets element (i, j).
func (m Matrix) Set(i, j int, v float64) { m.Data[i*m.Stride+j] = v }

// Clone returns a deep copy with the same stride and padding.
func (m Matrix) Clone() Matrix {
	c := m
	c.Data = append([]float64(nil), m.Data...)
	return c
}

// Identical reports whether a and b hold bit-identical data, padding
// included (NaNs compare by their bits).
func Identical(a, b Matrix) bool {
	if a.Rows != b.Rows || a.Cols != b.Cols || a.Stride != b.Stride || len(a.Data) != len(b.Data) {
		return false
	}
	for i := range a.Data {
		if math.Float64bits(a.Data[i]) != math.Float64bits(b.Data[i]) {
			return false
		}
	}
	return true
}

// PaddingIntact reports whether every padding element of m is still Pad.
func PaddingIntact(m Matrix) bool {
	for i := 0; i < m.Rows; i++ {
		for j := m.Cols; j < m.Stride && i*m.Stride+j < len(m.Data); j++ {
			if m.Data[i*m.Stride+j] != Pad {
				return false
			}
		}
	}
	return true
}

// T returns the transpose of m in new compact storage.
func T(m Matrix) Matrix {
	t := New(m.Cols, m.Rows, 0)
	for i := 0; i < m.Rows; i++ {
		for j := 0; j < m.Cols; j++ {
			t.Set(j, i, m.At(i, j))
		}
	}
	return t
}

// Mul returns the product a·b computed by the textbook triple loop.
func Mul(a, b Matrix) Matrix {
	if a.Cols != b.Rows {
		panic("testmat: Mul: inner dimensions differ")
	}
	c := New(a.Rows, b.Cols, 0)
	for i := 0; i < a.Rows; i++ {
		for j := 0; j < b.Cols; j++ {
			var s float64
			for p := 0; p < a.Cols; p++ {
				s += a.At(i, p) * b.At(p, j)
			}
			c.Set(i, j, s)
		}
	}
	return c
}

// Abs returns the matrix of absolute values |m|, used for componentwise
// error bounds such as |fl(AB) − AB| ≤ γ_k·|A|·|B|.
func Abs(m Matrix) Matrix {
	c := New(m.Rows, m.Cols, 0)
	for i := 0; i < m.Rows; i++ {
		for j := 0; j < m.Cols; j++ {
			c.Set(i, j, math.Abs(m.At(i, j)))
		}
	}
	return c
}

// NormOne returns the 1-norm (largest column sum of absolute values).
func NormOne(m Matrix) float64 {
	var best float64
	for j := 0; j < m.Cols; j++ {
		var s float64
		for i := 0; i < m.Rows; i++ {
			s += math.Abs(m.At(i, j))
		}
		best = math.Max(best, s)
	}
	return best
}

// NormMax returns the largest absolute value of an element.
func NormMax(m Matrix) float64 {
	var best float64
	for i := 0; i < m.Rows; i++ {
		for j := 0; j < m.Cols; j++ {
			best = math.Max(best, math.Abs(m.At(i, j)))
		}
	}
	return best
}

// Sub returns a − b.
func Sub(a, b Matrix) Matrix {
	c := New(a.Rows, a.Cols, 0)
	for i := 0; i < a.Rows; i++ {
		for j := 0; j < a.Cols; j++ {
			c.Set(i, j, a.At(i, j)-b.At(i, j))
		}
	}
	return c
}

// Lower returns the lower triangle of the square matrix m (diagonal
// included) with zeros above it, in compact storage.
func Lower(m Matrix) Matrix {
	c := New(m.Rows, m.Cols, 0)
	for i := 0; i < m.Rows; i++ {
		for j := 0; j <= i && j < m.Cols; j++ {
			c.Set(i, j, m.At(i, j))
		}
	}
	return c
}

// Eps is the machine epsilon of float64 used in scaled residuals (2⁻⁵²).
const Eps = 0x1p-52
