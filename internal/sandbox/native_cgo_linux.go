//go:build cgo

package sandbox

// The engine is C code that runs before the Go runtime starts (see
// internal/sandbox/native); linking it is all it takes.
import _ "github.com/smtarena/smtarena/internal/sandbox/native"

const haveNative = true
