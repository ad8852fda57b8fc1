package sandbox

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// procPoll is the backend without cgroups: it finds the run's processes in
// /proc (by PID namespace, or as descendants of the first process) and
// sums their accounting. Processes that start and end between two polls
// are only counted once reaped; so results are marked less accurate.
type procPoll struct {
	mu      sync.Mutex
	root    int
	ns      string
	peakRSS int64
	limit   Limits
	hitWhat Reason
}

func newProcPoll(l Limits) *procPoll { return &procPoll{limit: l} }

func (p *procPoll) name() string   { return "fallback" }
func (p *procPoll) accurate() bool { return false }

func (p *procPoll) add(pid int) error {
	p.root = pid
	self, _ := os.Readlink("/proc/self/ns/pid")
	if ns, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/ns/pid"); err == nil && ns != self {
		p.ns = ns
	}
	return nil
}

// procStat is what polling reads of one process.
type procStat struct {
	pid, ppid              int
	user, sys, cuser, csys int64 // clock ticks
	rssPages               int64
	threads                int64
}

func readStat(pid string) (procStat, bool) {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return procStat{}, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 22 {
		return procStat{}, false
	}
	n := func(k int) int64 { v, _ := strconv.ParseInt(f[k], 10, 64); return v }
	id, _ := strconv.Atoi(pid)
	// Fields after the command: state(0) ppid(1) ... utime(11) stime(12)
	// cutime(13) cstime(14) ... rss(21).
	return procStat{pid: id, ppid: int(n(1)), user: n(11), sys: n(12), cuser: n(13), csys: n(14), threads: n(17), rssPages: n(21)}, true
}

// members returns the run's live processes.
func (p *procPoll) members() []procStat {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var all []procStat
	for _, e := range ents {
		name := e.Name()
		if name[0] < '0' || name[0] > '9' {
			continue
		}
		if p.ns != "" {
			if ns, err := os.Readlink("/proc/" + name + "/ns/pid"); err != nil || ns != p.ns {
				continue
			}
		}
		if st, ok := readStat(name); ok {
			all = append(all, st)
		}
	}
	if p.ns != "" {
		return all
	}
	// Without a namespace: the descendants of the root.
	in := map[int]bool{p.root: true}
	var out []procStat
	for changed := true; changed; {
		changed = false
		for _, st := range all {
			if !in[st.pid] && in[st.ppid] {
				in[st.pid] = true
				changed = true
			}
		}
	}
	for _, st := range all {
		if in[st.pid] {
			out = append(out, st)
		}
	}
	return out
}

const clockTick = 10 * time.Millisecond // USER_HZ is 100 on Linux

func (p *procPoll) usage() (user, sys time.Duration, err error) {
	var u, s, rss, threads int64
	for _, st := range p.members() {
		u += st.user + st.cuser
		s += st.sys + st.csys
		rss += st.rssPages
		threads += st.threads
	}
	rss *= int64(os.Getpagesize())
	p.mu.Lock()
	if rss > p.peakRSS {
		p.peakRSS = rss
	}
	if p.limit.MemoryBytes > 0 && rss > p.limit.MemoryBytes {
		p.hitWhat = Memory
	}
	// RLIMIT_NPROC refuses forks at the limit; at the limit, the run has
	// hit it (threads count, as for pids.max).
	if p.limit.Pids > 0 && threads >= int64(p.limit.Pids) && p.hitWhat == "" {
		p.hitWhat = Pids
	}
	p.mu.Unlock()
	return time.Duration(u) * clockTick, time.Duration(s) * clockTick, nil
}

func (p *procPoll) peak() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.peakRSS
}

func (p *procPoll) hit() Reason {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hitWhat
}

func (p *procPoll) kill() {
	for i := 0; i < 3; i++ {
		ms := p.members()
		if len(ms) == 0 {
			return
		}
		pids := make([]int, len(ms))
		for j, m := range ms {
			pids[j] = m.pid
		}
		killAll(pids)
	}
}

func (p *procPoll) destroy() error { p.kill(); return nil }
