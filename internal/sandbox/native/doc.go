//go:build linux && cgo

// Package native is the C side of the sandbox, which runs before the Go
// runtime starts:
//
//   - firstproc_linux.c: the first process of every run (PID 1 of its
//     namespace), which starts the solver as the run's user and reports how
//     it ended; the engine clones it.
//   - engine_linux.c: the parent side of every run: working directory,
//     user, namespaces, limits, termination protocols, measurement,
//     removal.
//   - backend_linux.c: cgroup v2, cgroup v1 and /proc polling, behind one
//     interface, and the sweep of what dead runs left.
//   - runner_linux.c: the engine for internal/sandbox.Run, which starts the
//     binary as __smtarena-sandbox-run (spec on fd 3, status on fd 4).
//   - execcmd_linux.c: `smtarena exec` on that engine, so the command never
//     starts the Go runtime.
//   - util_linux.c: what they share (writing, directories, the key=value
//     strings of the reports, starting a process on a stack of its own).
//
// It is C so that a run pays neither for the Go runtime's start nor for the
// package initialisers of a large binary (over 10 ms on a paravirtualised
// machine). internal/sandbox imports it for its constructors.
package native
