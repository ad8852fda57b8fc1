package track

import (
	"bufio"
	"bytes"
	"strings"

	"github.com/smtarena/smtarena/internal/sandbox"
)

// Solver is how to run one solver configuration.
type Solver struct {
	Command            []string // {file} is the benchmark; without it the path is appended
	IncrementalCommand []string
	// Package is the absolute path of a StarExec-style directory:
	// bin/starexec_run_<config> (single query, the benchmark as $1) and
	// bin/smtcomp_run_incremental (incremental, commands on stdin).
	Package string
	Config  string
	// ProofCommand and CheckerCommand run the proof track (see ProofArgs,
	// CheckerArgs).
	ProofCommand, CheckerCommand []string
}

// packageRunner starts a script of a package as StarExec does: from the
// package's bin/ directory (scripts of real archives call their solver as
// ./name), with the benchmark as its only argument. $0 is the package
// directory: given as an argument, the sandbox keeps it visible to the run
// also where it lies under /tmp, which each run gets privately; $1 is the
// script's name, and what follows goes to the script.
const packageRunner = `cd "$0/bin" && script=$1 && shift && exec "./$script" "$@"`

// packageArgs returns the argv that runs a script of the package.
func (s Solver) packageArgs(script string, args ...string) []string {
	return append([]string{"/bin/sh", "-c", packageRunner, s.Package, script}, args...)
}

// packageScript is the script of the package that runs the configuration
// on a track (incremental or not).
func packageScript(config string, incremental bool) string {
	if incremental {
		return "smtcomp_run_incremental"
	}
	if config == "" {
		config = "default"
	}
	return "starexec_run_" + config
}

// SingleQueryArgs returns the argv for a single-query run on input, and whether
// the input goes on stdin instead (the 2005 protocol: no arguments).
func (s Solver) SingleQueryArgs(input string, protocol sandbox.Protocol) (args []string, stdin bool) {
	if s.Package != "" {
		script := packageScript(s.Config, false)
		if protocol == sandbox.Protocol2005 {
			return s.packageArgs(script), true
		}
		return s.packageArgs(script, input), false
	}
	base := append([]string(nil), s.Command...)
	if protocol == sandbox.Protocol2005 {
		out := base[:0:0]
		for _, a := range base {
			if a != "{file}" {
				out = append(out, a)
			}
		}
		return out, true
	}
	replaced := false
	for i, a := range base {
		if strings.Contains(a, "{file}") {
			base[i] = strings.ReplaceAll(a, "{file}", input)
			replaced = true
		}
	}
	if !replaced {
		base = append(base, input)
	}
	return base, false
}

// IncrementalArgv returns the argv of a solver reading an incremental trace
// on stdin.
func (s Solver) IncrementalArgv() []string {
	if s.Package != "" {
		return s.packageArgs(packageScript(s.Config, true))
	}
	if len(s.IncrementalCommand) > 0 {
		return s.IncrementalCommand
	}
	return s.Command
}

// Verdict is what the rules read from one run.
type Verdict struct {
	// Answer is sat, unsat or unknown as the solver gave it, or "" if it
	// gave none.
	Answer string
	// Status is how the run ended: complete, timeout, memout, abort (no
	// answer, or output the rules do not accept), error (could not run).
	Status string
	Wrong  bool // a sat/unsat answer against a known expected status
}

// StatusOf maps the sandbox's reason to the status the result tables use
// (StarExec's words).
func StatusOf(r sandbox.Reason) string {
	switch r {
	case sandbox.Completed:
		return "complete"
	case sandbox.CPUTime, sandbox.WallTime:
		return "timeout"
	case sandbox.Memory:
		return "memout"
	case sandbox.Failed:
		return "error"
	}
	return "abort"
}

// JudgeSingleQuery reads a single-query run: success lines are ignored
// (2018 and 2022 rules), the first line that is sat, unsat or unknown is the
// answer, even if the run was then killed at a limit; a run without one has
// no answer (an abort if it ended by itself).
func JudgeSingleQuery(output []byte, reason sandbox.Reason, expected string) Verdict {
	v := Verdict{Status: StatusOf(reason)}
	sc := bufio.NewScanner(bytes.NewReader(output))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		switch line := strings.TrimSpace(sc.Text()); line {
		case "sat", "unsat", "unknown":
			v.Answer = line
		default:
			continue
		}
		break
	}
	if v.Answer == "" && v.Status == "complete" {
		v.Status = "abort"
	}
	if (v.Answer == "sat" || v.Answer == "unsat") && (expected == "sat" || expected == "unsat") && v.Answer != expected {
		v.Wrong = true
	}
	return v
}
