package trace

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"time"
)

// clockTick is the unit of the times in /proc/PID/stat (USER_HZ, 100 on
// every Linux ABI).
const clockTick = 10 * time.Millisecond

// procTree measures the CPU time of a process and its descendants from
// /proc: each thread's schedstat (nanoseconds), and the times of the
// children each process has already waited for (clock ticks, from its
// stat). It is read twice per check-sat, so the files stay open between
// readings and are read again with pread. Processes that left the tree (a
// daemon that re-parented itself) are not counted; the sandbox counts them.
type procTree struct {
	root  int
	procs map[int]*procEntry
	buf   []byte
}

type procEntry struct {
	stat  *os.File
	tasks *os.File // the task directory
	tids  map[string]*taskEntry
	seen  bool
}

type taskEntry struct {
	sched, children *os.File
	seen            bool
}

func newProcTree(root int) *procTree {
	return &procTree{root: root, procs: map[int]*procEntry{}, buf: make([]byte, 4096)}
}

// cpu returns the tree's CPU time so far; 0 where there is no /proc.
func (t *procTree) cpu() time.Duration {
	var total time.Duration
	for _, p := range t.procs {
		p.seen = false
	}
	stack := []int{t.root}
	for n := 0; len(stack) > 0 && n < 10000; n++ {
		pid := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		p := t.proc(pid)
		if p == nil || p.seen {
			continue
		}
		p.seen = true
		if b, ok := t.pread(p.stat); ok {
			// Fields after the command name in parentheses: 16 and 17 of
			// the file are cutime and cstime.
			if i := bytes.LastIndexByte(b, ')'); i >= 0 {
				f := bytes.Fields(b[i+1:])
				if len(f) > 14 {
					cu, _ := strconv.ParseInt(string(f[13]), 10, 64)
					cs, _ := strconv.ParseInt(string(f[14]), 10, 64)
					total += time.Duration(cu+cs) * clockTick
				}
			}
		}
		if _, err := p.tasks.Seek(0, io.SeekStart); err != nil {
			continue
		}
		names, _ := p.tasks.Readdirnames(-1)
		for _, e := range p.tids {
			e.seen = false
		}
		dir := "/proc/" + strconv.Itoa(pid) + "/task/"
		for _, tid := range names {
			e := p.tids[tid]
			if e == nil {
				e = &taskEntry{}
				e.sched, _ = os.Open(dir + tid + "/schedstat")
				e.children, _ = os.Open(dir + tid + "/children")
				p.tids[tid] = e
			}
			e.seen = true
			if b, ok := t.pread(e.sched); ok {
				if i := bytes.IndexByte(b, ' '); i > 0 {
					ns, _ := strconv.ParseInt(string(b[:i]), 10, 64)
					total += time.Duration(ns)
				}
			}
			if b, ok := t.pread(e.children); ok {
				for _, f := range bytes.Fields(b) {
					if c, err := strconv.Atoi(string(f)); err == nil {
						stack = append(stack, c)
					}
				}
			}
		}
		for tid, e := range p.tids {
			if !e.seen {
				e.close()
				delete(p.tids, tid)
			}
		}
	}
	for pid, p := range t.procs {
		if !p.seen {
			p.close()
			delete(t.procs, pid)
		}
	}
	return total
}

// proc returns the entry of a process, opening its files the first time.
func (t *procTree) proc(pid int) *procEntry {
	if p := t.procs[pid]; p != nil {
		return p
	}
	dir := "/proc/" + strconv.Itoa(pid)
	tasks, err := os.Open(dir + "/task")
	if err != nil {
		return nil
	}
	p := &procEntry{tasks: tasks, tids: map[string]*taskEntry{}}
	p.stat, _ = os.Open(dir + "/stat")
	t.procs[pid] = p
	return p
}

// pread reads a small /proc file again from its start.
func (t *procTree) pread(f *os.File) ([]byte, bool) {
	if f == nil {
		return nil, false
	}
	n, err := f.ReadAt(t.buf, 0)
	if n == 0 && err != nil {
		return nil, false
	}
	return t.buf[:n], true
}

func (t *procTree) close() {
	for pid, p := range t.procs {
		p.close()
		delete(t.procs, pid)
	}
}

func (p *procEntry) close() {
	for _, e := range p.tids {
		e.close()
	}
	p.tasks.Close()
	if p.stat != nil {
		p.stat.Close()
	}
}

func (e *taskEntry) close() {
	if e.sched != nil {
		e.sched.Close()
	}
	if e.children != nil {
		e.children.Close()
	}
}
