//go:build goexperiment.simd && amd64

package linalg

import (
	"testing"
	"unsafe"

	"simd/archsimd"
)

// TestAlignedAccumulators: for a buffer at every 8-byte offset from a page
// boundary (the last ones put [8]Float64x8 across it), aligned8 and
// aligned4 return accumulators on a 64- (32-) byte boundary that lie
// wholly inside the buffer, so the fence stores of loopAVX512 and loopAVX2
// never split a page.
func TestAlignedAccumulators(t *testing.T) {
	mem := make([]byte, 3*4096)
	page := int(-uintptr(unsafe.Pointer(&mem[0])) & 4095) // first page boundary in mem
	for off := page + 4096 - 1024; off < page+4096+64; off += 8 {
		p := unsafe.Pointer(&mem[off])
		lo := uintptr(p)
		a8 := uintptr(unsafe.Pointer(aligned8((*[9]archsimd.Float64x8)(p))))
		if a8%64 != 0 || a8 < lo || a8+8*64 > lo+9*64 {
			t.Errorf("aligned8 at offset %d from a page: %#x for a buffer at %#x", off-page, a8, lo)
		}
		a4 := uintptr(unsafe.Pointer(aligned4((*[9]archsimd.Float64x4)(p))))
		if a4%32 != 0 || a4 < lo || a4+8*32 > lo+9*32 {
			t.Errorf("aligned4 at offset %d from a page: %#x for a buffer at %#x", off-page, a4, lo)
		}
	}
}
