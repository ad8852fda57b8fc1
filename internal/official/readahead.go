package official

import (
	"io"
	"sync"
)

// readAhead reads a reader in a goroutine of its own, a few buffers ahead
// of its user: decompressing the smtcomp tool's gzipped JSON (a quarter of
// the cost of reading it) then runs on another core than the parsing.
// Close stops the goroutine; errors of the reader come in their place in
// the stream, after the bytes read before them.
type readAhead struct {
	full chan []byte // buffers read, in order
	free chan []byte
	done chan struct{}
	wg   sync.WaitGroup
	err  error  // the reader's error, set before full is closed
	cur  []byte // the unread part of held
	held []byte // the buffer being read from
	once sync.Once
}

func newReadAhead(r io.Reader, size, n int) *readAhead {
	a := &readAhead{full: make(chan []byte, n), free: make(chan []byte, n+1), done: make(chan struct{})}
	for range n + 1 {
		a.free <- make([]byte, size)
	}
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		defer close(a.full)
		for {
			var b []byte
			select {
			case b = <-a.free:
			case <-a.done:
				return
			}
			k := 0
			var err error
			for k < len(b) && err == nil {
				var m int
				m, err = r.Read(b[k:])
				k += m
			}
			if k > 0 {
				select {
				case a.full <- b[:k]:
				case <-a.done:
					return
				}
			}
			if err != nil {
				a.err = err
				return
			}
		}
	}()
	return a
}

func (a *readAhead) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if len(a.cur) == 0 {
		if a.held != nil {
			a.free <- a.held[:cap(a.held)]
			a.held = nil
		}
		b, ok := <-a.full
		if !ok {
			return 0, a.err
		}
		a.held, a.cur = b, b
	}
	n := copy(p, a.cur)
	a.cur = a.cur[n:]
	return n, nil
}

// Close stops reading ahead and waits for the goroutine to end.
func (a *readAhead) Close() {
	a.once.Do(func() { close(a.done) })
	a.wg.Wait()
}
