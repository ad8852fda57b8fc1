package sandbox

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// backend measures and bounds the process tree of one run. The kernel does
// the accounting in the cgroup backends; the fallback polls /proc.
type backend interface {
	name() string
	accurate() bool
	// add puts the run's first process (and so its descendants) under the
	// backend.
	add(pid int) error
	// usage returns the CPU time of the tree so far.
	usage() (user, sys time.Duration, err error)
	peak() int64
	// hit reports a limit the kernel enforced: Memory (an OOM kill) or
	// Pids (a fork refused).
	hit() Reason
	// kill sends SIGKILL to every process of the run.
	kill()
	destroy() error
}

func readInt(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
}

func writeFile(path, value string) error {
	if err := os.WriteFile(path, []byte(value), 0o644); err != nil {
		return fmt.Errorf("cgroup: write %s: %w", path, err)
	}
	return nil
}

// keyValue reads a "key value" line file such as cpu.stat or
// memory.events.
func keyValue(path, key string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 2 && f[0] == key {
			return strconv.ParseInt(f[1], 10, 64)
		}
	}
	return 0, fmt.Errorf("%s: no %s", path, key)
}

func coreList(cores []int) string {
	s := make([]string, len(cores))
	for i, c := range cores {
		s[i] = strconv.Itoa(c)
	}
	return strings.Join(s, ",")
}

// pids lists the processes in a cgroup.procs file.
func cgroupPids(path string) []int {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []int
	for _, f := range strings.Fields(string(b)) {
		if p, err := strconv.Atoi(f); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// removeDir removes an emptied cgroup, waiting for the kernel to let go of
// exiting tasks: the run's first process is usually still exiting when its
// run is over, for well under a millisecond, so the waits start short.
func removeDir(dir string) error {
	var err error
	wait := 100 * time.Microsecond
	for deadline := time.Now().Add(time.Second); ; {
		if err = os.Remove(dir); err == nil || errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("cgroup: remove %s: %w", dir, err)
		}
		time.Sleep(wait)
		wait = min(2*wait, 10*time.Millisecond)
	}
}

// cgroup2 is a cgroup in a delegated v2 subtree: memory.max with
// memory.oom.group, memory.peak, pids.max, cpu.stat, cgroup.kill.
type cgroup2 struct {
	dir string
	cpu *counter // cpu.stat usage_usec, for cpuTotal
}

func newCgroup2(parent, id string, l Limits) (*cgroup2, error) {
	dir := filepath.Join(parent, id)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cgroup2: %w", err)
	}
	c := &cgroup2{dir: dir, cpu: &counter{path: filepath.Join(dir, "cpu.stat"), key: "usage_usec", unit: time.Microsecond}}
	set := func(file, value string) error { return writeFile(filepath.Join(dir, file), value) }
	var err error
	if l.MemoryBytes > 0 {
		err = errors.Join(err, set("memory.max", strconv.FormatInt(l.MemoryBytes, 10)),
			set("memory.swap.max", "0"), set("memory.oom.group", "1"))
	}
	if l.Pids > 0 {
		err = errors.Join(err, set("pids.max", strconv.Itoa(l.Pids)))
	}
	if len(l.Cores) > 0 {
		err = errors.Join(err, set("cpuset.cpus", coreList(l.Cores)))
	}
	if err != nil {
		c.destroy()
		return nil, err
	}
	return c, nil
}

func (c *cgroup2) name() string   { return "cgroup2" }
func (c *cgroup2) accurate() bool { return true }

func (c *cgroup2) add(pid int) error {
	return writeFile(filepath.Join(c.dir, "cgroup.procs"), strconv.Itoa(pid))
}

func (c *cgroup2) usage() (user, sys time.Duration, err error) {
	u, err1 := keyValue(filepath.Join(c.dir, "cpu.stat"), "user_usec")
	s, err2 := keyValue(filepath.Join(c.dir, "cpu.stat"), "system_usec")
	return time.Duration(u) * time.Microsecond, time.Duration(s) * time.Microsecond, errors.Join(err1, err2)
}

func (c *cgroup2) peak() int64 {
	n, _ := readInt(filepath.Join(c.dir, "memory.peak"))
	return n
}

func (c *cgroup2) hit() Reason {
	if n, _ := keyValue(filepath.Join(c.dir, "memory.events"), "oom_kill"); n > 0 {
		return Memory
	}
	if n, _ := keyValue(filepath.Join(c.dir, "pids.events"), "max"); n > 0 {
		return Pids
	}
	return ""
}

func (c *cgroup2) kill() {
	if writeFile(filepath.Join(c.dir, "cgroup.kill"), "1") != nil {
		killAll(cgroupPids(filepath.Join(c.dir, "cgroup.procs")))
	}
}

// cpuTotal is the tree's CPU time, cheaply (see counter).
func (c *cgroup2) cpuTotal() (time.Duration, error) { return c.cpu.read() }

func (c *cgroup2) destroy() error {
	c.cpu.close()
	c.kill()
	return removeDir(c.dir)
}

// cgroup1 is one cgroup per v1 controller: cpuacct for CPU time, memory
// for the limit and peak, pids, cpuset for cores, freezer to kill a tree
// that forks while it is being killed.
type cgroup1 struct {
	dirs  map[string]string // controller -> directory
	cpu   *counter          // cpuacct.usage, for cpuTotal
	first int               // the run's first process
}

var v1Controllers = []string{"cpuacct", "memory", "pids", "freezer", "cpuset"}

func newCgroup1(root, id string, l Limits) (*cgroup1, error) {
	c := &cgroup1{dirs: map[string]string{}}
	for _, ctl := range v1Controllers {
		if ctl == "cpuset" && len(l.Cores) == 0 {
			continue
		}
		base := filepath.Join(root, ctl, "smtarena")
		if err := os.Mkdir(base, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
			c.destroy()
			return nil, fmt.Errorf("cgroup1: %w", err)
		}
		if ctl == "cpuset" {
			// A new cpuset starts empty: inherit the parent's.
			for _, f := range []string{"cpuset.cpus", "cpuset.mems"} {
				if b, _ := os.ReadFile(filepath.Join(base, f)); len(bytes.TrimSpace(b)) == 0 {
					p, _ := os.ReadFile(filepath.Join(root, ctl, f))
					if err := writeFile(filepath.Join(base, f), string(bytes.TrimSpace(p))); err != nil {
						c.destroy()
						return nil, err
					}
				}
			}
		}
		dir := filepath.Join(base, id)
		if err := os.Mkdir(dir, 0o755); err != nil {
			c.destroy()
			return nil, fmt.Errorf("cgroup1: %w", err)
		}
		c.dirs[ctl] = dir
	}
	c.cpu = &counter{path: filepath.Join(c.dirs["cpuacct"], "cpuacct.usage"), unit: time.Nanosecond}
	set := func(ctl, file, value string) error { return writeFile(filepath.Join(c.dirs[ctl], file), value) }
	var err error
	if l.MemoryBytes > 0 {
		v := strconv.FormatInt(l.MemoryBytes, 10)
		err = errors.Join(err, set("memory", "memory.limit_in_bytes", v))
		if _, e := os.Stat(filepath.Join(c.dirs["memory"], "memory.memsw.limit_in_bytes")); e == nil {
			err = errors.Join(err, set("memory", "memory.memsw.limit_in_bytes", v))
		}
	}
	if l.Pids > 0 {
		err = errors.Join(err, set("pids", "pids.max", strconv.Itoa(l.Pids)))
	}
	if len(l.Cores) > 0 {
		mems, _ := os.ReadFile(filepath.Join(root, "cpuset", "cpuset.mems"))
		err = errors.Join(err, set("cpuset", "cpuset.mems", string(bytes.TrimSpace(mems))),
			set("cpuset", "cpuset.cpus", coreList(l.Cores)))
	}
	if err != nil {
		c.destroy()
		return nil, err
	}
	return c, nil
}

func (c *cgroup1) name() string   { return "cgroup1" }
func (c *cgroup1) accurate() bool { return true }

func (c *cgroup1) add(pid int) error {
	c.first = pid
	var err error
	for _, dir := range c.dirs {
		err = errors.Join(err, writeFile(filepath.Join(dir, "cgroup.procs"), strconv.Itoa(pid)))
	}
	return err
}

// usage reads cpuacct.usage, the exact total in nanoseconds; the kernel
// splits it into user and system time by sampling at each tick, so the split
// is scaled to the exact total.
func (c *cgroup1) usage() (user, sys time.Duration, err error) {
	total, err := readInt(filepath.Join(c.dirs["cpuacct"], "cpuacct.usage"))
	if err != nil {
		return 0, 0, err
	}
	u, err1 := readInt(filepath.Join(c.dirs["cpuacct"], "cpuacct.usage_user"))
	s, err2 := readInt(filepath.Join(c.dirs["cpuacct"], "cpuacct.usage_sys"))
	if err1 != nil || err2 != nil || u+s == 0 {
		return 0, time.Duration(total), nil
	}
	user = time.Duration(float64(total) * float64(u) / float64(u+s))
	return user, time.Duration(total) - user, nil
}

func (c *cgroup1) peak() int64 {
	n, _ := readInt(filepath.Join(c.dirs["memory"], "memory.max_usage_in_bytes"))
	return n
}

func (c *cgroup1) hit() Reason {
	if n, _ := keyValue(filepath.Join(c.dirs["memory"], "memory.oom_control"), "oom_kill"); n > 0 {
		return Memory
	}
	if b, err := os.ReadFile(filepath.Join(c.dirs["pids"], "pids.events")); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 && f[0] == "max" && f[1] != "0" {
			return Pids
		}
	}
	return ""
}

// kill freezes the tree so that nothing forks, kills every task, and thaws
// it so that the kills are delivered. An empty cgroup is left alone: nothing
// can join it, and freezing is dear (the kernel patches its own code when
// the first cgroup freezes and the last one thaws: a third of the CPU time
// of a short run went there).
func (c *cgroup1) kill() {
	fr := c.dirs["freezer"]
	if fr == "" {
		killAll(cgroupPids(filepath.Join(c.dirs["cpuacct"], "cgroup.procs")))
		return
	}
	if pids := cgroupPids(filepath.Join(fr, "cgroup.procs")); len(pids) == 0 || len(pids) == 1 && pids[0] == c.first {
		// The first process forks no more once it has reported.
		killAll(pids)
		return
	}
	state := filepath.Join(fr, "freezer.state")
	if writeFile(state, "FROZEN") == nil {
		for i := 0; i < 100; i++ {
			if b, _ := os.ReadFile(state); strings.TrimSpace(string(b)) != "FREEZING" {
				break
			}
			time.Sleep(time.Millisecond)
		}
	}
	killAll(cgroupPids(filepath.Join(fr, "cgroup.procs")))
	_ = writeFile(state, "THAWED")
}

// cpuTotal is the tree's CPU time, cheaply (see counter).
func (c *cgroup1) cpuTotal() (time.Duration, error) { return c.cpu.read() }

func (c *cgroup1) destroy() error {
	if c.cpu != nil {
		c.cpu.close()
	}
	if len(c.dirs) > 0 {
		c.kill()
	}
	var err error
	for _, dir := range c.dirs {
		err = errors.Join(err, removeDir(dir))
	}
	return err
}
