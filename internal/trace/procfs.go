package trace

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// clockTick is the unit of the times in /proc/PID/stat (USER_HZ, 100 on
// every Linux ABI).
const clockTick = 10 * time.Millisecond

// treeCPU returns the CPU time used so far by the process pid and its
// descendants, from /proc: each thread's schedstat (nanoseconds), and the
// times of the children each process has already waited for (clock ticks).
// It returns 0 where there is no /proc. Processes that left the tree (a
// daemon that re-parented itself) are not counted; the sandbox counts them.
func treeCPU(pid int) time.Duration {
	var total time.Duration
	buf := make([]byte, 0, 1024)
	stack := []int{pid}
	for n := 0; len(stack) > 0 && n < 10000; n++ {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		dir := "/proc/" + strconv.Itoa(p)
		if b, err := readInto(buf, dir+"/stat"); err == nil {
			// Fields after the command name in parentheses: 16 and 17
			// of the file are cutime and cstime.
			if i := bytes.LastIndexByte(b, ')'); i >= 0 {
				f := bytes.Fields(b[i+1:])
				if len(f) > 14 {
					cu, _ := strconv.ParseInt(string(f[13]), 10, 64)
					cs, _ := strconv.ParseInt(string(f[14]), 10, 64)
					total += time.Duration(cu+cs) * clockTick
				}
			}
		}
		d, err := os.Open(dir + "/task")
		if err != nil {
			continue
		}
		tids, _ := d.Readdirnames(-1)
		d.Close()
		for _, tid := range tids {
			tdir := dir + "/task/" + tid
			if b, err := readInto(buf, tdir+"/schedstat"); err == nil {
				if i := bytes.IndexByte(b, ' '); i > 0 {
					ns, _ := strconv.ParseInt(string(b[:i]), 10, 64)
					total += time.Duration(ns)
				}
			}
			if b, err := readInto(buf, tdir+"/children"); err == nil {
				for _, f := range bytes.Fields(b) {
					if c, err := strconv.Atoi(string(f)); err == nil {
						stack = append(stack, c)
					}
				}
			}
		}
	}
	return total
}

// readInto reads a small file into buf's storage.
func readInto(buf []byte, name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf = buf[:cap(buf)]
	n := 0
	for n < len(buf) {
		m, err := f.Read(buf[n:])
		n += m
		if err != nil || m == 0 {
			break
		}
	}
	return buf[:n], nil
}
