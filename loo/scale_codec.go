package loo

import (
	"math"

	"rkhs/internal/check"
	"rkhs/internal/wire"
	"rkhs/regress"
)

// The sums of the passes of a ScaleObjective cross process boundaries in
// binary encodings, so that each pass can run on many workers and be
// merged (see "Mergeable sums" in the package documentation). A worker
// of pass 0 makes its ScaleStats with ScaleObjective.NewStats at the θ of
// the evaluation and ships its statistics; a worker of pass A or B builds
// the ScalePath from the merged statistics with NewScalePath — bit for
// bit the same path everywhere, the computation being deterministic — and
// ships only its sums. Decoding needs a value made the same way (the same
// objective and θ; the same path; for pass B the same pass-A sums), whose
// fingerprint the encoding must match. All words are little-endian.
//
//	ScaleStats:   "rkhsARS1", d, the bits of θ (d + 1), the intercept mode,
//	              the criterion, Subset and Seed as uint64, the length of
//	              the statistics' encoding, then regress.NystromStats's
//	              encoding of the statistics of the scaled rows.
//	ScaleLOO:     "rkhsARA1", the path's fingerprint (n, q, m, d, the
//	              intercept mode, the criterion, the bits of θ, a 64-bit
//	              FNV-1a hash of W), the rows and the wrong count as
//	              uint64, then as float64 bits Σr², Σ(Σ_ℓ r²)², Σe², s_α
//	              (q), [Φ̂ | ŝ_β] (m(q + 1), row-major) and the lower
//	              triangle of Ω̂ row by row (m(m + 1)/2): about 4m² bytes.
//	ScaleAdjoint: "rkhsARB1", the path's fingerprint, a 64-bit FNV-1a hash
//	              of the matrices NewAdjoint formed, the rows and the rows
//	              of S as uint64, then g (d) and t (m) as float64 bits.

// Magic words of the encodings.
const (
	scaleStatsMagic   = "rkhsARS1"
	scaleLOOMagic     = "rkhsARA1"
	scaleAdjointMagic = "rkhsARB1"
)

// header returns the words of the statistics' objective and θ.
func (s *ScaleStats) header() []uint64 {
	h := []uint64{uint64(len(s.theta) - 1)}
	for _, v := range s.theta {
		h = append(h, math.Float64bits(v))
	}
	return append(h, uint64(s.obj.Intercept), uint64(s.obj.Criterion), uint64(s.obj.Subset), s.obj.Seed)
}

// MarshalBinary encodes the statistics with the objective and θ (see the
// layout at the top of this file). It implements
// encoding.BinaryMarshaler. An error wraps ErrInput for a nil or zero
// ScaleStats.
func (s *ScaleStats) MarshalBinary() ([]byte, error) {
	const op = "ScaleStats.MarshalBinary"
	if err := s.ready(op); err != nil {
		return nil, err
	}
	st, err := s.stats.MarshalBinary()
	if err != nil {
		return nil, regressError(op, "ScaleStats", err)
	}
	w := wire.NewWriter(len(scaleStatsMagic) + 8*(len(s.theta)+6) + len(st))
	w.Header(scaleStatsMagic, append(s.header(), uint64(len(st)))...)
	w.Bytes(st)
	return w.Encoding(), nil
}

// UnmarshalBinary replaces the statistics of s by those MarshalBinary
// encoded: s must have been made by ScaleObjective.NewStats for the same
// objective and θ (checked: the words of both, and the scaled centres of
// the statistics). Decoding the encoding of fresh statistics resets s;
// merging the statistics of two workers is UnmarshalBinary into one and
// Merge of another. It implements encoding.BinaryUnmarshaler. On error s
// is unchanged; errors wrap ErrInput: a nil or zero s, a truncated or
// malformed encoding, statistics of another objective or θ, and the
// errors of regress.NystromStats.UnmarshalBinary (a *linalg.MemoryError
// when its matrices do not fit).
func (s *ScaleStats) UnmarshalBinary(b []byte) error {
	const op = "ScaleStats.UnmarshalBinary"
	if err := s.ready(op); err != nil {
		return err
	}
	r := wire.NewReader(b)
	r.Magic(scaleStatsMagic, "a ScaleStats's sums")
	r.Expect("the statistics of another objective or θ", s.header()...)
	size, enc := r.U64(), r.Bytes(r.Len())
	switch err := r.Done(); {
	case err != nil:
		return check.Wrap(ErrInput, op, "data", err)
	case size != uint64(len(enc)):
		return inputError(op, "data", "%d bytes of statistics, the header says %d", len(enc), size)
	}
	var st regress.NystromStats
	if err := st.UnmarshalBinary(enc); err != nil {
		return regressError(op, "data", renameOp(err, "NystromStats.UnmarshalBinary", op))
	}
	if c := st.Centers(); c == nil || !sameBits(c.Data, s.sk.Centers().Data) || c.Rows != s.sk.Centers().Rows || st.Kernel() != s.sk.Kernel() {
		return inputError(op, "data", "the statistics of other centres or another kernel")
	}
	s.stats = &st
	return nil
}

// MarshalBinary encodes the sums of pass A with the fingerprint of their
// path (see the layout at the top of this file); the path itself is not
// encoded. It implements encoding.BinaryMarshaler. Errors wrap ErrInput
// for a nil or zero ScaleLOO, or are the error of a failed Add.
func (a *ScaleLOO) MarshalBinary() ([]byte, error) {
	if err := a.ready("ScaleLOO.MarshalBinary"); err != nil {
		return nil, err
	}
	m, h := a.omega.Rows, a.p.header()
	w := wire.NewWriter(len(scaleLOOMagic) + 8*(len(h)+5+len(a.salpha)+len(a.phi.Data)+m*(m+1)/2))
	w.Header(scaleLOOMagic, append(h, uint64(a.rows), uint64(a.wrong))...)
	w.Floats([]float64{a.sse, a.sse2, a.rss}, a.salpha, a.phi.Data)
	for k := 0; k < m; k++ {
		w.Floats(a.omega.Row(k)[:k+1])
	}
	return w.Encoding(), nil
}

// UnmarshalBinary replaces the sums of a by those MarshalBinary encoded
// from the sums of the same path: a must have been made by NewLOO of a
// path built from the same statistics (checked by the fingerprint).
// Decoding the encoding of fresh sums resets a; merging the sums of two
// workers is UnmarshalBinary into one and Merge of another. It implements
// encoding.BinaryUnmarshaler. On error a is unchanged; errors wrap
// ErrInput: a nil or zero a, a truncated or malformed encoding, the sums
// of another path, or sums that no rows give (negative or not finite
// sums of squares, more rows than the statistics summarise).
func (a *ScaleLOO) UnmarshalBinary(b []byte) error {
	const op = "ScaleLOO.UnmarshalBinary"
	if a == nil || a.p == nil {
		return inputError(op, "ScaleLOO", "nil or zero value: make it with ScalePath.NewLOO")
	}
	m, q := a.omega.Rows, len(a.salpha)
	r := wire.NewReader(b)
	r.Magic(scaleLOOMagic, "a ScaleLOO's sums")
	r.Expect("the sums of another path: other statistics or θ", a.p.header()...)
	rows, wrong := r.U64(), r.U64()
	sums, salpha, phi, tri := r.Floats(3), r.Floats(q), r.Floats(m*(q+1)), r.Floats(m*(m+1)/2)
	if err := r.Done(); err != nil {
		return check.Wrap(ErrInput, op, "data", err)
	}
	if rows > uint64(a.p.n) || wrong > rows {
		return inputError(op, "data", "%d rows (%d wrong), the statistics summarise %d", rows, wrong, a.p.n)
	}
	if err := finiteSums(op, sums, salpha, phi, tri); err != nil {
		return err
	}
	if sums[0] < 0 || sums[1] < 0 || sums[2] < 0 {
		return inputError(op, "data", "negative sums of squares")
	}
	copy(a.salpha, salpha)
	copy(a.phi.Data, phi)
	for k := 0; k < m; k++ {
		tri = tri[copy(a.omega.Row(k)[:k+1], tri):]
	}
	a.rows, a.wrong = int(rows), int(wrong)
	a.sse, a.sse2, a.rss = sums[0], sums[1], sums[2]
	a.err = nil
	return nil
}

// MarshalBinary encodes the sums of pass B with the fingerprints of their
// path and of the pass-A sums they were made from (see the layout at the
// top of this file). It implements encoding.BinaryMarshaler. Errors wrap
// ErrInput for a nil or zero ScaleAdjoint, or are the error of a failed
// Add.
func (ad *ScaleAdjoint) MarshalBinary() ([]byte, error) {
	if err := ad.ready("ScaleAdjoint.MarshalBinary"); err != nil {
		return nil, err
	}
	h := ad.p.header()
	w := wire.NewWriter(len(scaleAdjointMagic) + 8*(len(h)+3+len(ad.g)+len(ad.t)))
	w.Header(scaleAdjointMagic, append(h, ad.hash, uint64(ad.rows), uint64(ad.sRows))...)
	w.Floats(ad.g, ad.t)
	return w.Encoding(), nil
}

// UnmarshalBinary replaces the sums of ad by those MarshalBinary encoded
// from the sums of a ScaleAdjoint made the same way: of a path built from
// the same statistics, with the same pass-A sums (checked by the
// fingerprints). Decoding the encoding of fresh sums resets ad; merging
// the sums of two workers is UnmarshalBinary into one and Merge of
// another. It implements encoding.BinaryUnmarshaler. On error ad is
// unchanged; errors wrap ErrInput: a nil or zero ad, a truncated or
// malformed encoding, the sums of another path or other pass-A sums, sums
// not finite or of more rows than the statistics (or pass A) summarise.
func (ad *ScaleAdjoint) UnmarshalBinary(b []byte) error {
	const op = "ScaleAdjoint.UnmarshalBinary"
	if ad == nil || ad.p == nil {
		return inputError(op, "ScaleAdjoint", "nil or zero value: make it with ScalePath.NewAdjoint")
	}
	r := wire.NewReader(b)
	r.Magic(scaleAdjointMagic, "a ScaleAdjoint's sums")
	r.Expect("the sums of another path or other leave-one-out sums", append(ad.p.header(), ad.hash)...)
	rows, sRows := r.U64(), r.U64()
	g, t := r.Floats(len(ad.g)), r.Floats(len(ad.t))
	if err := r.Done(); err != nil {
		return check.Wrap(ErrInput, op, "data", err)
	}
	if rows > uint64(ad.p.n) || sRows > uint64(ad.loo) || sRows > rows {
		return inputError(op, "data", "%d rows (%d of S), the statistics summarise %d (%d of S)", rows, sRows, ad.p.n, ad.loo)
	}
	if err := finiteSums(op, g, t); err != nil {
		return err
	}
	ad.rows, ad.sRows, ad.g, ad.t, ad.err = int(rows), int(sRows), g, t, nil
	return nil
}

// finiteSums reports the first NaN or ±Inf among the decoded sums vs.
func finiteSums(op string, vs ...[]float64) error {
	for _, v := range vs {
		if err := check.Vector(ErrInput, op, "data", v); err != nil {
			return err
		}
	}
	return nil
}
