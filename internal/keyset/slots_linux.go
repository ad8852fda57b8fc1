package keyset

import (
	"syscall"
	"unsafe"
)

// makeSlots returns n free slots. A large table (an import's are 12 MB for
// 200,000 keys) is mapped apart from Go's heap, written by the system at
// once (MAP_POPULATE), not page by page as it is first touched: in the
// heap, its allocation made the importing goroutine pay for a collection
// on the spot (an assist of megabytes), and clearing it took a page fault
// per 4 KB, with a flush of both processors' mappings where a probe had
// read the page first; a collection starting meanwhile could not stop the
// goroutine in that clear, and signalled it again and again (one import
// in four spent 50 ms making the table, rather than 5). The slots hold no
// pointers: the collector need not see them.
func makeSlots(n int) (slots []slot, mapped []byte) {
	size := n * int(unsafe.Sizeof(slot{}))
	if size < mappedSlots {
		return heapSlots(n), nil
	}
	b, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE|syscall.MAP_POPULATE)
	if err != nil {
		// No memory to map: Go's heap will say so, or do.
		return heapSlots(n), nil
	}
	return unsafe.Slice((*slot)(unsafe.Pointer(unsafe.SliceData(b))), n), b
}

func unmap(b []byte) { _ = syscall.Munmap(b) }
