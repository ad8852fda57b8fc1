package keyset

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

func TestTable(t *testing.T) {
	h := NewHasher()
	tab := New(0)
	want := map[Hash]int{}
	for i := range 100000 {
		k := h.Of(fmt.Sprint("key", i%70000))
		v, dup := tab.Add(k, i)
		first, had := want[k]
		if dup != had || (had && v != first) || (!had && v != i) {
			t.Fatalf("Add %d: %d %v, want %d %v", i, v, dup, first, had)
		}
		if !had {
			want[k] = i
		}
	}
	if tab.Len() != len(want) {
		t.Errorf("Len %d, want %d", tab.Len(), len(want))
	}
	for k, v := range want {
		if got, ok := tab.Get(k); !ok || got != v {
			t.Fatalf("Get: %d %v, want %d", got, ok, v)
		}
	}
	if _, ok := tab.Get(h.Of("absent")); ok {
		t.Error("an absent key found")
	}
	// hashes that collide in their low bits, and the zero hash
	var empty Table
	for i := range 100 {
		if _, dup := empty.Add(Hash{uint64(i) << 40, uint64(i)}, i); dup {
			t.Fatalf("hash %d taken for another", i)
		}
	}
	if v, dup := empty.Add(Hash{3 << 40, 3}, 7); !dup || v != 3 {
		t.Errorf("second add: %d %v", v, dup)
	}
	if _, ok := empty.Get(Hash{}); !ok {
		t.Error("the zero hash is not found")
	}
	// Set changes a value that is there, and adds one that is not
	empty.Set(Hash{3 << 40, 3}, 9)
	empty.Set(Hash{5, 5}, 11)
	for k, want := range map[Hash]int{{3 << 40, 3}: 9, {5, 5}: 11, {4 << 40, 4}: 4} {
		if v, ok := empty.Get(k); !ok || v != want {
			t.Errorf("after Set, Get %v: %d %v, want %d", k, v, ok, want)
		}
	}
	if empty.Len() != 101 {
		t.Errorf("Len after Set %d, want 101", empty.Len())
	}
	// Reserve makes room, keeping what is there
	before := len(empty.slots)
	empty.Reserve(5000)
	if len(empty.slots) < 10000 || len(empty.slots) <= before || empty.Len() != 101 {
		t.Errorf("after Reserve(5000): %d slots (from %d), %d hashes", len(empty.slots), before, empty.Len())
	}
	if v, ok := empty.Get(Hash{3 << 40, 3}); !ok || v != 9 {
		t.Errorf("after Reserve, Get: %d %v", v, ok)
	}
}

func BenchmarkAdd(b *testing.B) {
	h := NewHasher()
	keys := make([]Hash, 200000)
	for i := range keys {
		keys[i] = h.Of(fmt.Sprint("smtcomp\x1f2024\x1funsat-core\x1fcvc5\x1f\x1fnon-incremental/QF_UF/fam/", i, ".smt2\x1f"))
	}
	b.Run("table", func(b *testing.B) {
		for b.Loop() {
			t := New(0)
			for i, k := range keys {
				t.Add(k, i)
			}
		}
	})
	b.Run("table-sized", func(b *testing.B) {
		for b.Loop() {
			t := New(len(keys))
			for i, k := range keys {
				t.Add(k, i)
			}
		}
	})
	b.Run("map-sized", func(b *testing.B) {
		for b.Loop() {
			m := make(map[Hash]int, len(keys))
			for i, k := range keys {
				if _, ok := m[k]; !ok {
					m[k] = i
				}
			}
		}
	})
	b.Run("map", func(b *testing.B) {
		for b.Loop() {
			m := map[Hash]int{}
			for i, k := range keys {
				if _, ok := m[k]; !ok {
					m[k] = i
				}
			}
		}
	})
}

// TestMappedTable: a table big enough to have slots of their own memory
// holds its hashes through resizes, from Go's heap to mapped memory and
// from one mapping to the next, and gives its mapping back once it is no
// longer used.
func TestMappedTable(t *testing.T) {
	h := NewHasher()
	tab := New(1000) // on the heap; mapped from 1 MB of slots on
	for i := range 300000 {
		if _, dup := tab.Add(h.Of(fmt.Sprint("k", i)), i); dup {
			t.Fatalf("key %d taken for another", i)
		}
	}
	for i := range 300000 {
		if v, ok := tab.Get(h.Of(fmt.Sprint("k", i))); !ok || v != i {
			t.Fatalf("Get %d: %d %v", i, v, ok)
		}
	}
	if runtime.GOOS != "linux" {
		return // mapped on Linux only (slots_linux.go)
	}
	if tab.mem == nil || tab.mem.b == nil {
		t.Fatal("a table of 300,000 hashes is not mapped")
	}
	mem := tab.mem
	tab = nil
	deadline := time.Now().Add(10 * time.Second)
	for !mem.freed.Load() {
		if time.Now().After(deadline) {
			t.Fatal("the mapping of a table no longer used is not given back")
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}
