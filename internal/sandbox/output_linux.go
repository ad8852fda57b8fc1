package sandbox

import (
	"bytes"
	"io"
	"time"
)

// tailSize is how much of the end of an output that went over its limit is
// kept, in memory: a flood costs no disk.
const tailSize = 64 << 10

// outputSink passes a run's output on up to the limit, keeps its tail, and
// timestamps its lines.
type outputSink struct {
	w       io.Writer
	limit   int64
	onLine  func([]byte, time.Duration, time.Duration)
	run     *run
	total   int64
	tail    []byte // ring buffer once over the limit
	tailPos int
	wrapped bool
	partial []byte
	cut     bool // the limit was reached
}

func newOutputSink(w io.Writer, limit int64, onLine func([]byte, time.Duration, time.Duration), r *run) *outputSink {
	if w == nil {
		w = io.Discard
	}
	return &outputSink{w: w, limit: limit, onLine: onLine, run: r}
}

func (o *outputSink) copyFrom(r io.Reader) {
	buf := make([]byte, 64<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			o.write(buf[:n])
		}
		if err != nil {
			break
		}
	}
	if o.onLine != nil && len(o.partial) > 0 {
		wall := time.Since(o.run.start)
		o.onLine(o.partial, wall, o.run.cpuNow())
	}
}

// write passes output on (to the writer, and line by line to OnLine) up to
// the limit, and keeps the tail of what goes beyond it.
func (o *outputSink) write(b []byte) {
	start := o.total
	o.total += int64(len(b))
	if o.limit <= 0 || o.total <= o.limit {
		o.pass(b)
		return
	}
	if !o.cut {
		head := o.limit - start
		o.pass(b[:head])
		b = b[head:]
		o.cut = true
		o.run.terminate(Output)
	}
	o.keepTail(b)
}

func (o *outputSink) pass(b []byte) {
	if o.onLine != nil {
		o.lines(b)
	}
	_, _ = o.w.Write(b)
}

func (o *outputSink) keepTail(b []byte) {
	if o.tail == nil {
		o.tail = make([]byte, tailSize)
	}
	if len(b) >= tailSize {
		copy(o.tail, b[len(b)-tailSize:])
		o.tailPos, o.wrapped = 0, true
		return
	}
	n := copy(o.tail[o.tailPos:], b)
	if n < len(b) {
		copy(o.tail, b[n:])
		o.wrapped = true
	}
	o.tailPos = (o.tailPos + len(b)) % tailSize
}

// tailBytes returns the kept end of the output, in order.
func (o *outputSink) tailBytes() []byte {
	if o.tail == nil {
		return nil
	}
	if !o.wrapped {
		return append([]byte(nil), o.tail[:o.tailPos]...)
	}
	return append(append([]byte(nil), o.tail[o.tailPos:]...), o.tail[:o.tailPos]...)
}

func (o *outputSink) lines(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			if len(o.partial) < 1<<20 {
				o.partial = append(o.partial, b...)
			}
			return
		}
		line := b[:i]
		if len(o.partial) > 0 {
			line = append(o.partial, line...)
			o.partial = o.partial[:0]
		}
		wall := time.Since(o.run.start)
		o.onLine(line, wall, o.run.cpuNow())
		b = b[i+1:]
	}
}
