//go:build !cgo

package sandbox

// Without cgo the binary has no first process for runs (it is C code, see
// internal/sandbox/firstproc), and Run says so.
const haveFirstProc = false
