//go:build !cgo

package sandbox

// Without cgo the binary has no engine for runs (it is C code, see
// internal/sandbox/native), and Run says so.
const haveNative = false
