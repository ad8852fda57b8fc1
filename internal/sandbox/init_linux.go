package sandbox

import (
	"bytes"
	"strconv"
	"syscall"
)

// initArg makes the smtarena binary (or a test binary) act as the first
// process of a run: PID 1 of the run's PID namespace. That process is the C
// code of internal/sandbox/firstproc, which runs before the Go runtime and
// exits when the run is over: it sets up the mounts, starts the solver as an
// unprivileged user, forwards signals to every process of the run, reaps
// orphans, and reports how the solver ended. When it exits the kernel kills
// whatever is left in the namespace, so no daemon outlives its run.
const initArg = "__smtarena-sandbox-init"

// initConfig is what the parent tells the first process, on fd 3.
type initConfig struct {
	Args      []string
	Env       []string
	Dir       string
	UID, GID  int // -1: keep
	Mounts    bool
	NewPID    bool
	BindPaths []string // paths under /tmp-like mounts to keep visible
	Cores     []int
	ASLimit   int64 // RLIMIT_AS for the fallback backend, 0 none
	Nproc     int   // RLIMIT_NPROC, 0 none
}

// encode writes the configuration as the first process reads it:
// "key=value" strings, each ended by a NUL (no argument, environment entry
// or path can hold a NUL).
func (c initConfig) encode() []byte {
	var b bytes.Buffer
	put := func(k, v string) {
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(v)
		b.WriteByte(0)
	}
	for _, a := range c.Args {
		put("arg", a)
	}
	for _, e := range c.Env {
		put("env", e)
	}
	put("dir", c.Dir)
	if c.UID >= 0 {
		put("uid", strconv.Itoa(c.UID))
	}
	if c.GID >= 0 {
		put("gid", strconv.Itoa(c.GID))
	}
	if c.Mounts {
		put("mounts", "1")
	}
	if c.NewPID {
		put("newpid", "1")
	}
	for _, p := range c.BindPaths {
		put("bind", p)
	}
	for _, core := range c.Cores {
		put("core", strconv.Itoa(core))
	}
	if c.ASLimit > 0 {
		put("aslimit", strconv.FormatInt(c.ASLimit, 10))
	}
	if c.Nproc > 0 {
		put("nproc", strconv.Itoa(c.Nproc))
	}
	return b.Bytes()
}

// initReport is what it answers, on fd 4, when the solver has ended.
type initReport struct {
	Started  bool
	Error    string
	ExitCode int
	Signal   string
	UserNs   int64
	SysNs    int64
	MaxRSSKB int64
}

// decodeReport reads the first process's report, in the form of its
// configuration (a later entry overrides an earlier one). ok is false when
// there is none: the process died before it could report.
func decodeReport(b []byte) (rep initReport, ok bool) {
	rep.ExitCode = -1
	for _, entry := range bytes.Split(b, []byte{0}) {
		k, v, found := bytes.Cut(entry, []byte("="))
		if !found {
			continue
		}
		ok = true
		n, _ := strconv.ParseInt(string(v), 10, 64)
		switch string(k) {
		case "started":
			rep.Started = n == 1
		case "error":
			rep.Error = string(v)
		case "exit":
			rep.ExitCode = int(n)
		case "signal":
			rep.Signal = string(v)
		case "user_ns":
			rep.UserNs = n
		case "sys_ns":
			rep.SysNs = n
		case "maxrss_kb":
			rep.MaxRSSKB = n
		}
	}
	return rep, ok
}

func killAll(pids []int) {
	for _, p := range pids {
		_ = syscall.Kill(p, syscall.SIGKILL)
	}
}
