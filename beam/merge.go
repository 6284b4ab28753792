package rkhsbeam

import (
	"context"
	"encoding"
)

// Every pass of a job — the statistics (regress.NystromStats), the
// leave-one-out sums of a λ path (loo.NystromPath) and the three passes
// of the length scales (loo.ScaleStats, loo.ScaleLOO, loo.ScaleAdjoint) —
// emits the binary encoding of a mergeable sum per file, and one
// CombineFn, mergeFn, merges them: the protocol those sums follow (see
// "Mergeable sums" in package loo's documentation) is what it needs.

// sums is the protocol of a mergeable sum, as the combiner uses it:
// Merge adds the sums of other rows, MarshalBinary and UnmarshalBinary
// carry them between workers, and decoding refuses the sums of anything
// but what the value was made from.
type sums[T any] interface {
	Merge(T) error
	encoding.BinaryMarshaler
	encoding.BinaryUnmarshaler
}

// A maker makes, on a worker, empty sums to decode into, as the workers
// that emit them made theirs (from the merged statistics in the scratch
// directory, for the passes that need them). Its exported fields travel
// with the combiner.
type maker[T any] interface {
	newSums(ctx context.Context) (T, error)
}

// mergeFn merges the encoded sums of the files, in whatever order the
// runner combines them: both encodings decoded into sums M made, then
// Merge, then encoded again (the merged sums are the same to rounding
// whatever the order; see each type). The empty accumulator stands for
// no sums yet; singularSums, what a pass emits at a singular θ, absorb
// any others. Each instantiation is registered with the pass that uses
// it.
type mergeFn[T sums[T], M maker[T]] struct {
	Make M

	a, b T // made by Make once per instance, with made set
	made bool
}

func (f *mergeFn[T, M]) merge(ctx context.Context, a, b []byte) ([]byte, error) {
	switch {
	case len(a) == 0 || isSingular(b):
		return b, nil
	case len(b) == 0 || isSingular(a):
		return a, nil
	}
	if !f.made {
		x, err := f.Make.newSums(ctx)
		if err != nil {
			return nil, err
		}
		y, err := f.Make.newSums(ctx)
		if err != nil {
			return nil, err
		}
		f.a, f.b, f.made = x, y, true
	}
	if err := f.a.UnmarshalBinary(a); err != nil {
		return nil, err
	}
	if err := f.b.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	if err := f.a.Merge(f.b); err != nil {
		return nil, err
	}
	return f.a.MarshalBinary()
}

func (f *mergeFn[T, M]) CreateAccumulator() []byte { return []byte{} }

// The scratch files are read with a background context: a CombineFn's
// methods take none.
func (f *mergeFn[T, M]) AddInput(a, b []byte) ([]byte, error) {
	return f.merge(context.Background(), a, b)
}

func (f *mergeFn[T, M]) MergeAccumulators(a, b []byte) ([]byte, error) {
	return f.merge(context.Background(), a, b)
}

func (f *mergeFn[T, M]) ExtractOutput(a []byte) []byte { return a }
