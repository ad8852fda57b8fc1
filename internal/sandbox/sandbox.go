package sandbox

import (
	"errors"
	"io"
	"time"
)

// Reason says why a run ended. It is always one of the constants below.
type Reason string

// The reasons a run ends.
const (
	Completed Reason = "completed" // the solver exited by itself
	CPUTime   Reason = "cputime"   // the CPU time of the tree reached the limit
	WallTime  Reason = "walltime"  // the wall-clock limit passed
	Memory    Reason = "memory"    // the tree's memory reached the limit
	Output    Reason = "output"    // the output reached the limit
	Pids      Reason = "pids"      // the tree tried to have more processes than allowed
	Killed    Reason = "killed"    // killed from outside (context cancelled, signal)
	Failed    Reason = "failed"    // could not start; Result.Error says why
)

// Protocol is how a run is stopped at a limit.
type Protocol string

// The termination protocols.
const (
	// Protocol2022: SIGTERM to every process of the run, a grace period,
	// then SIGKILL (StarExec, BenchExec).
	Protocol2022 Protocol = "2022"
	// Protocol2005: the 2005-2007 execution page: at the CPU or the wall
	// limit SIGXCPU to the solver alone (not to the processes it started),
	// SIGKILL to every process 3 s later; the wall limit defaults to the
	// CPU limit plus 30 s.
	Protocol2005 Protocol = "2005"
)

// Limits bound one run. Zero means no limit.
type Limits struct {
	CPU         time.Duration // CPU time summed over the process tree
	Wall        time.Duration
	MemoryBytes int64 // peak memory of the tree
	Pids        int   // processes and threads at once
	OutputBytes int64 // stdout and stderr together
	Cores       []int // CPUs the run may use (cpuset)
}

// Spec is one run: what to execute and under which limits.
type Spec struct {
	Args   []string // program and arguments; the program is looked up in PATH
	Env    []string // extra environment, on top of the clean one
	Limits Limits
	// Protocol defaults to Protocol2022; Grace is the SIGTERM to SIGKILL
	// delay of that protocol (default 1 s).
	Protocol Protocol
	Grace    time.Duration

	// Stdin is the solver's standard input; nil means /dev/null.
	Stdin io.Reader
	// Stdout receives the solver's standard output and error, merged (the
	// competition makes no distinction). When the output limit is reached,
	// it has received the head; Result.Tail holds the end.
	Stdout io.Writer
	// OnLine, if set, is called for every complete output line with the
	// wall and CPU time since the start (the incremental track needs them).
	OnLine func(line []byte, wall, cpu time.Duration)

	// WorkDir is the solver's working directory, made if needed and kept;
	// as root the run's own user gets it, so an existing one must be an
	// empty directory. Empty means a fresh directory under the runs'
	// directory, deleted after the run unless KeepWorkDir is set.
	WorkDir     string
	KeepWorkDir bool

	// Cluster opens the run to the cluster allocation it runs in, so that
	// a solver may start processes on the allocation's other nodes (srun
	// of the cloud track): the run shares the host's network namespace,
	// keeps the caller's user (Slurm lets only the job's owner start steps
	// in it) and sees the paths of Keep (the munge socket's directory,
	// slurm.conf) though they lie under the directories it gets privately
	// (/tmp, /run, ...). Every other isolation and limit stays.
	Cluster bool
	Keep    []string

	// Backend forces a backend ("cgroup2", "cgroup1", "fallback"); empty
	// picks the best this machine offers.
	Backend string
}

// Result is what was measured.
type Result struct {
	Reason          Reason
	Error           string // why a run failed to start (Reason Failed)
	ExitCode        int    // -1 if killed by a signal
	Signal          string // the signal that ended the solver, if any
	Wall            time.Duration
	CPU             time.Duration // User + Sys
	User            time.Duration
	Sys             time.Duration
	PeakMemoryBytes int64
	OutputBytes     int64  // all output produced, also beyond the limit
	Tail            []byte // the last bytes of output when it was cut
	Backend         string
	// Accurate is false for the fallback backend, which polls /proc and
	// may miss short-lived processes.
	Accurate bool
	WorkDir  string
	Start    time.Time
	End      time.Time
}

// ErrUnsupported is returned on systems without the Linux facilities the
// sandbox is built on.
var ErrUnsupported = errors.ErrUnsupported
