//go:build linux && cgo

// Package firstproc is the first process of a sandboxed run, written in C
// (firstproc_linux.c): a constructor that runs before the Go runtime when
// the binary is started as a run's first process, and exits when the run is
// over. It is C so that a run pays neither for the Go runtime's start nor
// for the package initialisers of a large binary. internal/sandbox imports
// it for that side effect; the protocol is described in the C file.
package firstproc
