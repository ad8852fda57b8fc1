package sandbox

import (
	"bytes"
	"os"
	"strconv"
	"sync"
	"time"
)

// counter reads one number of a cgroup file through a descriptor kept open
// (pread at offset 0): the run's CPU time is read for every output line
// when lines are timestamped, and opening the file each time cost more
// than the solver's own work on incremental benchmarks (thousands of lines
// a second).
type counter struct {
	path string
	key  string // the line's key in a "key value" file; "" for a file holding one number
	unit time.Duration

	mu  sync.Mutex
	f   *os.File
	buf [512]byte
}

func (c *counter) read() (time.Duration, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.f == nil {
		f, err := os.Open(c.path)
		if err != nil {
			return 0, err
		}
		c.f = f
	}
	n, err := c.f.ReadAt(c.buf[:], 0)
	if n == 0 && err != nil {
		return 0, err
	}
	b := c.buf[:n]
	if c.key != "" {
		for len(b) > 0 {
			line := b
			if i := bytes.IndexByte(b, '\n'); i >= 0 {
				line, b = b[:i], b[i+1:]
			} else {
				b = nil
			}
			if k, v, ok := bytes.Cut(line, []byte{' '}); ok && string(k) == c.key {
				b = v
				break
			}
		}
	}
	v, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64)
	return time.Duration(v) * c.unit, err
}

func (c *counter) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.f != nil {
		c.f.Close()
		c.f = nil
	}
}
