package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"unsafe"
)

// initArg makes the smtarena binary (or a test binary) act as the first
// process of a run: PID 1 of the run's PID namespace. It sets up the mounts,
// starts the solver as an unprivileged user, forwards signals to every
// process of the run, reaps orphans, and reports how the solver ended. When
// it exits the kernel kills whatever is left in the namespace, so no
// daemon outlives its run.
const initArg = "__smtarena-sandbox-init"

// Main runs the sandbox's first process when the binary was started as
// one, and returns otherwise. Programs that use the package call it first
// thing in main (and tests in TestMain).
func Main() {
	if len(os.Args) > 1 && os.Args[1] == initArg {
		os.Exit(runInit())
	}
}

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

func runInit() int {
	cfgFile, repFile := os.NewFile(3, "config"), os.NewFile(4, "report")
	var cfg initConfig
	rep := initReport{ExitCode: -1}
	report := func() int {
		_ = json.NewEncoder(repFile).Encode(rep)
		return 0
	}
	if err := json.NewDecoder(cfgFile).Decode(&cfg); err != nil {
		rep.Error = "read config: " + err.Error()
		return report()
	}
	cfgFile.Close()
	if err := setupMounts(cfg); err != nil {
		rep.Error = err.Error()
		return report()
	}
	if len(cfg.Cores) > 0 {
		if err := setAffinity(cfg.Cores); err != nil {
			rep.Error = "cores: " + err.Error()
			return report()
		}
	}
	if !cfg.NewPID {
		// Without a PID namespace, orphans come back to us so that they
		// are reaped and counted.
		_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	}
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGXCPU, syscall.SIGINT, syscall.SIGUSR1)

	path, err := lookPath(cfg.Args[0], cfg.Env)
	if err != nil {
		rep.Error = err.Error()
		return report()
	}
	attr := &syscall.SysProcAttr{Setsid: true}
	if cfg.UID >= 0 {
		attr.Credential = &syscall.Credential{Uid: uint32(cfg.UID), Gid: uint32(cfg.GID), Groups: []uint32{}}
	}
	_ = setRlimit(syscall.RLIMIT_CORE, 0)
	if cfg.Nproc > 0 {
		_ = setRlimit(rlimitNproc, uint64(cfg.Nproc))
	}
	proc, err := os.StartProcess(path, cfg.Args, &os.ProcAttr{
		Dir: cfg.Dir, Env: cfg.Env, Files: []*os.File{os.Stdin, os.Stdout, os.Stderr}, Sys: attr,
	})
	if err != nil {
		rep.Error = "start " + cfg.Args[0] + ": " + err.Error()
		return report()
	}
	rep.Started = true
	if cfg.ASLimit > 0 {
		_ = prlimit(proc.Pid, syscall.RLIMIT_AS, uint64(cfg.ASLimit))
	}
	// Everything but the solver's descriptors is closed in it; close ours
	// of its output too, so that the parent sees EOF when the run ends.
	os.Stdout.Close()
	os.Stderr.Close()
	os.Stdin.Close()

	signalAll := func(sig syscall.Signal) {
		if cfg.NewPID {
			_ = syscall.Kill(-1, sig) // every process of the namespace but us
		} else {
			_ = syscall.Kill(-proc.Pid, sig)
		}
	}
	go func() {
		for s := range sigs {
			if s == syscall.SIGUSR1 {
				signalAll(syscall.SIGKILL)
			} else {
				signalAll(s.(syscall.Signal))
			}
		}
	}()
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			rep.Error = "wait: " + err.Error()
			break
		}
		if pid != proc.Pid {
			continue // an orphan, reaped so that it counts in our rusage
		}
		switch {
		case ws.Exited():
			rep.ExitCode = ws.ExitStatus()
		case ws.Signaled():
			rep.Signal = signalName(ws.Signal())
		}
		break
	}
	// The run ends with the solver: kill what is left and reap it.
	signalAll(syscall.SIGKILL)
	for {
		var ws syscall.WaitStatus
		if _, err := syscall.Wait4(-1, &ws, 0, nil); err == syscall.ECHILD {
			break
		} else if err != nil && err != syscall.EINTR {
			break
		}
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru) == nil {
		rep.UserNs = ru.Utime.Nano()
		rep.SysNs = ru.Stime.Nano()
		rep.MaxRSSKB = ru.Maxrss
	}
	return report()
}

const (
	prSetChildSubreaper = 36
	oPath               = 0x200000 // O_PATH
	rlimitNproc         = 6
)

func setRlimit(res int, v uint64) error {
	return syscall.Setrlimit(res, &syscall.Rlimit{Cur: v, Max: v})
}

func prlimit(pid, res int, v uint64) error {
	lim := syscall.Rlimit{Cur: v, Max: v}
	_, _, e := syscall.RawSyscall6(syscall.SYS_PRLIMIT64, uintptr(pid), uintptr(res), uintptr(unsafe.Pointer(&lim)), 0, 0, 0)
	if e != 0 {
		return e
	}
	return nil
}

func setAffinity(cores []int) error {
	var mask [16]uint64 // 1024 CPUs
	for _, c := range cores {
		if c < 0 || c >= len(mask)*64 {
			return fmt.Errorf("no CPU %d", c)
		}
		mask[c/64] |= 1 << (c % 64)
	}
	_, _, e := syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, 0, unsafe.Sizeof(mask), uintptr(unsafe.Pointer(&mask)))
	if e != 0 {
		return e
	}
	return nil
}

// setupMounts gives the run a private /tmp, /var/tmp and /dev/shm and its
// own /proc, keeping visible the paths (the working directory, input files)
// that lie under them.
func setupMounts(cfg initConfig) error {
	if !cfg.Mounts {
		return nil
	}
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("mount: make / private: %w", err)
	}
	if cfg.NewPID {
		if err := syscall.Mount("proc", "/proc", "proc", syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC, ""); err != nil {
			return fmt.Errorf("mount /proc: %w", err)
		}
	}
	// Keep handles on the paths that the tmpfs mounts would hide, then
	// bind them back at the same place.
	type keep struct {
		path string
		dir  bool
		fd   int
	}
	var keeps []keep
	for _, p := range cfg.BindPaths {
		st, err := os.Stat(p)
		if err != nil {
			continue
		}
		fd, err := syscall.Open(p, oPath|syscall.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("keep %s: %w", p, err)
		}
		keeps = append(keeps, keep{p, st.IsDir(), fd})
	}
	for _, dir := range []string{"/tmp", "/var/tmp", "/dev/shm"} {
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_NOSUID|syscall.MS_NODEV, "mode=1777"); err != nil {
			return fmt.Errorf("mount private %s: %w", dir, err)
		}
	}
	for _, k := range keeps {
		if k.dir {
			if err := os.MkdirAll(k.path, 0o755); err != nil {
				return err
			}
		} else {
			if err := os.MkdirAll(filepath.Dir(k.path), 0o755); err != nil {
				return err
			}
			f, err := os.OpenFile(k.path, os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				return err
			}
			f.Close()
		}
		src := fmt.Sprintf("/proc/self/fd/%d", k.fd)
		if err := syscall.Mount(src, k.path, "", syscall.MS_BIND|syscall.MS_REC, ""); err != nil {
			return fmt.Errorf("bind %s: %w", k.path, err)
		}
		syscall.Close(k.fd)
	}
	return nil
}

// lookPath finds the program in the PATH of the run's environment.
func lookPath(prog string, env []string) (string, error) {
	if strings.Contains(prog, "/") {
		return prog, nil
	}
	for _, e := range env {
		if p, ok := strings.CutPrefix(e, "PATH="); ok {
			for _, dir := range filepath.SplitList(p) {
				cand := filepath.Join(dir, prog)
				if st, err := os.Stat(cand); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
					return cand, nil
				}
			}
		}
	}
	return exec.LookPath(prog)
}

func signalName(s syscall.Signal) string {
	names := map[syscall.Signal]string{syscall.SIGKILL: "SIGKILL", syscall.SIGTERM: "SIGTERM", syscall.SIGXCPU: "SIGXCPU",
		syscall.SIGSEGV: "SIGSEGV", syscall.SIGABRT: "SIGABRT", syscall.SIGINT: "SIGINT", syscall.SIGBUS: "SIGBUS",
		syscall.SIGFPE: "SIGFPE", syscall.SIGILL: "SIGILL", syscall.SIGPIPE: "SIGPIPE", syscall.SIGHUP: "SIGHUP",
		syscall.SIGUSR1: "SIGUSR1", syscall.SIGUSR2: "SIGUSR2", syscall.SIGALRM: "SIGALRM", syscall.SIGQUIT: "SIGQUIT"}
	if n, ok := names[s]; ok {
		return n
	}
	return fmt.Sprintf("signal %d", int(s))
}

func killAll(pids []int) {
	for _, p := range pids {
		_ = syscall.Kill(p, syscall.SIGKILL)
	}
}
