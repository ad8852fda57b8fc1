//go:build linux && cgo

package firstproc

// The C file holds everything; this import makes cgo compile and link it.

import "C"
