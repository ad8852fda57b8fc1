package strarena

import (
	"strings"
	"testing"
	"unsafe"
)

// TestArena: each string is a copy that later ones do not change, short
// ones share chunks, long ones get their own.
func TestArena(t *testing.T) {
	var a Arena
	buf := []byte("abc")
	s := a.String(buf)
	buf[0] = 'x'
	if s != "abc" {
		t.Fatalf("String: %q changed with its source", s)
	}
	var got []string
	for i := range 5000 {
		got = append(got, a.Clone(strings.Repeat(string(rune('a'+i%26)), i%40)))
	}
	for i, g := range got {
		if want := strings.Repeat(string(rune('a'+i%26)), i%40); g != want {
			t.Fatalf("string %d: %q, want %q", i, g, want)
		}
	}
	src := "shared"
	if c := a.Clone(src); unsafe.StringData(c) == unsafe.StringData(src) {
		t.Error("Clone shares its source's memory")
	}
	long := strings.Repeat("z", chunkSize)
	if c := a.Clone(long); c != long || unsafe.StringData(c) == unsafe.StringData(long) {
		t.Error("a long string is not copied on its own")
	}
	if a.String(nil) != "" || a.Clone("") != "" {
		t.Error("empty strings")
	}
}
