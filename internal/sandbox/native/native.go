//go:build linux && cgo

package native

// The C files hold everything; this import makes cgo compile and link them.

import "C"
