// Package avx holds what rkhs needs to live beside the SIMD kernels of a
// GOEXPERIMENT=simd build on amd64: a way to put the vector registers back
// in the state that legacy SSE code expects.
//
// Go compiles scalar float64 arithmetic to legacy (non-VEX) SSE
// instructions, at every GOAMD64 level, and math.Exp is SSE assembly. On
// Intel CPUs such instructions run slowly while the upper halves of the
// vector registers are "dirty" — written by AVX or AVX-512 code and not
// cleared since by VZEROUPPER. The SIMD kernels of rkhs clear them before
// they return, but in a GOEXPERIMENT=simd build the runtime's asynchronous
// preemption (runtime.asyncPreempt, Go 1.26) saves and restores the full
// ZMM (or YMM) registers of the goroutine it interrupts and does not clear
// them: any scalar loop that is preempted then runs dirty until something
// executes VZEROUPPER. On the Intel Xeon of docs/notes/dirty-upper-halves.md
// that made math.Exp
// 150 times slower (900 ns instead of 6) and a kernel RLS fit with n=8000
// 2.4 times slower (10.2 s instead of 4.2 s; GODEBUG=asyncpreemptoff=1
// removes the effect).
//
// Long scalar loops in rkhs therefore call ClearUpper every few hundred
// elements: a preemption can then slow down at most that much work. In
// every other build ClearUpper does nothing and is inlined away.
package avx
