//go:build cgo

package sandbox

// The run's first process is C code that runs before the Go runtime starts
// (see internal/sandbox/firstproc); linking it is all it takes.
import _ "github.com/smtarena/smtarena/internal/sandbox/firstproc"

const haveFirstProc = true
