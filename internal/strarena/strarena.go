package strarena

import (
	"strings"
	"unsafe"
)

// Arena makes strings of their own out of chunks of 64 KB. Nothing in a
// chunk changes once a string is made of it: a string lives as long as
// its chunk, which lives as long as any string made of it. The zero Arena
// is ready to use; an Arena is for one goroutine at a time.
type Arena struct{ chunk []byte }

// chunkSize is the size of an Arena's allocations; strings longer than a
// quarter of it get one of their own.
const chunkSize = 64 << 10

// String returns a copy of b.
func (a *Arena) String(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > cap(a.chunk)-len(a.chunk) {
		if len(b) > chunkSize/4 {
			return string(b)
		}
		a.chunk = make([]byte, 0, chunkSize)
	}
	n := len(a.chunk)
	a.chunk = append(a.chunk, b...)
	return unsafe.String(&a.chunk[n], len(b))
}

// Clone returns a copy of s that shares no memory with it.
func (a *Arena) Clone(s string) string {
	if len(s) > chunkSize/4 {
		return strings.Clone(s)
	}
	return a.String(unsafe.Slice(unsafe.StringData(s), len(s)))
}
