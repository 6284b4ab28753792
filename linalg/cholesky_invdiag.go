package linalg

// invDiagBlock is the number of columns of L⁻¹ computed at a time by
// InverseDiagTo (a workspace of n·invDiagBlock values).
const invDiagBlock = 64

// InverseDiagTo writes the diagonal of A⁻¹ into dst and returns it; a nil
// dst is allocated, otherwise it must have length n.
//
// Since A⁻¹ = L⁻ᵀ·L⁻¹, (A⁻¹)_ii = Σ_k (L⁻¹)_ki² is the squared norm of
// column i of L⁻¹, and that column, the solution of L·x = e_i, is zero above
// row i. Columns are computed invDiagBlock at a time: for the block
// [j0, j1), L[j0:, j0:]·X = I[j0:, j0:j1] is solved with Trsm, skipping the
// rows known to be zero. The cost is about n³/3 flops and the workspace
// n·invDiagBlock values; A⁻¹ itself is never formed. (Leave-one-out
// formulas need exactly this diagonal.)
func (c *Cholesky) InverseDiagTo(dst []float64) []float64 {
	mustBeFactored(c.ok, "Cholesky.InverseDiagTo")
	n := c.l.Rows
	dst = vectorTo(dst, n, "Cholesky.InverseDiagTo")
	w := min(invDiagBlock, n)
	work := make([]float64, n*w)
	for j0 := 0; j0 < n; j0 += w {
		j1 := min(j0+w, n)
		m, k := n-j0, j1-j0
		x := Dense{Rows: m, Cols: k, Stride: k, Data: work[:m*k]}
		clear(x.Data)
		for c := 0; c < k; c++ {
			x.Data[c*k+c] = 1
		}
		trsm(Lower, NoTrans, c.l.view(j0, n, j0, n), x)
		for c := 0; c < k; c++ {
			var s float64
			// Rows above c are zero: column j0+c of L⁻¹ starts at row j0+c.
			for r := c; r < m; r++ {
				v := x.Data[r*k+c]
				s += v * v
			}
			dst[j0+c] = s
		}
	}
	return dst
}
