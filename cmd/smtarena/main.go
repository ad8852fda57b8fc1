// Command smtarena runs SMT solver competitions and evaluations end to end,
// the way SMT-COMP does. This package only wires command-line flags to the
// functions in internal/; see docs/architecture.md.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/smtarena/smtarena/internal/sandbox"
)

// Exit codes, the CLI contract: scripts rely on them.
const (
	exitOK       = 0
	exitJudged   = 1 // the command worked and judged the input bad (lint found errors)
	exitBadInput = 2 // bad usage, unreadable or malformed input
	exitInternal = 3 // a bug of smtarena's own (a panic), reported in one line
)

// judgedError is returned by commands whose verdict is negative; it maps to
// exit code 1 and prints nothing more (the verdict is already printed).
type judgedError struct{ msg string }

func (e judgedError) Error() string { return e.msg }

// streams are the standard streams of a command, injected for tests.
type streams struct {
	in       io.Reader
	out, err io.Writer
}

func main() {
	args := os.Args[1:]
	if len(args) > 0 && killable(args[0]) {
		os.Exit(run(context.Background(), args, streams{os.Stdin, os.Stdout, os.Stderr}))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, args, streams{os.Stdin, os.Stdout, os.Stderr})
	stop()
	os.Exit(code)
}

// killable says whether the named command holds nothing to clean up or
// record when interrupted (see subcommands).
func killable(name string) bool {
	for _, sc := range subcommands {
		if sc.name == name {
			return sc.killable
		}
	}
	return false
}

// run executes one command line and returns its exit code.
func run(ctx context.Context, args []string, io streams) (code int) {
	defer func() {
		if r := recover(); r != nil {
			code = reportPanic(r, debug.Stack(), io.err)
		}
	}()
	root := newRootCmdFor(io, args)
	root.SetArgs(args)
	root.SetIn(io.in)
	root.SetOut(io.out)
	root.SetErr(io.err)
	err := root.ExecuteContext(ctx)
	// Sandboxed runs' cgroups and working directories are removed after
	// their results are in: wait for that before exiting.
	if ferr := sandbox.Flush(); ferr != nil && err == nil {
		err = ferr
	}
	if err == nil {
		return exitOK
	}
	var j judgedError
	if errors.As(err, &j) {
		return exitJudged
	}
	var c interface{ ExitCode() int }
	if errors.As(err, &c) { // a command with exit statuses of its own (trace-exec)
		if err.Error() != "" {
			fmt.Fprintln(io.err, "smtarena:", err)
		}
		return c.ExitCode()
	}
	fmt.Fprintln(io.err, "smtarena:", err)
	return exitBadInput
}

// subcommands are the subcommands by name. The name is given here as well
// as in each command (TestSubcommandNames checks they agree) so that a
// command line builds only the command it names: a short command such as
// validate-model, run once per pair, then does not pay for building the
// other two dozen.
//
// A killable command holds nothing to clean up or record when interrupted,
// so that SIGINT and SIGTERM may end it at once, by their default action:
// it skips installing handlers, which costs a goroutine and a thread
// (validate-model runs once per model-validation pair and lives a few
// milliseconds).
var subcommands = []struct {
	name     string
	make     func(streams) *cobra.Command
	killable bool
}{
	{"fmt", newFmtCmd, false},
	{"convert", newConvertCmd, false},
	{"meta", newMetaCmd, false},
	{"generate", newGenerateCmd, false},
	{"lint", newLintCmd, false},
	{"exec", newExecCmd, false},
	{"index", newIndexCmd, false},
	{"benchmarks", newBenchmarksCmd, false},
	{"import", newImportCmd, false},
	{"random", newRandomCmd, false},
	{"seed", newSeedCmd, false},
	{"select", newSelectCmd, false},
	{"compete", newCompeteCmd, false},
	{"status", newStatusCmd, false},
	{"worker", newWorkerCmd, false},
	{"trace-exec", newTraceCmd, false},
	{"score", newScoreCmd, false},
	{"scramble", newScrambleCmd, false},
	{"validate-model", newValidateModelCmd, true},
	{"show-model", newShowModelCmd, false},
	{"validate-core", newValidateCoreCmd, false},
	{"report", newReportCmd, false},
	{"serve", newServeCmd, false},
}

// newRootCmd builds the root command with every subcommand.
func newRootCmd(io streams) *cobra.Command { return newRootCmdFor(io, nil) }

// newRootCmdFor builds the root command with the subcommand that args name
// first, or with every subcommand (for help, completion, suggestions and
// flags of the root).
func newRootCmdFor(io streams, args []string) *cobra.Command {
	root := &cobra.Command{
		Use:           "smtarena",
		Short:         "Run SMT solver competitions the way SMT-COMP does",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version,
	}
	if len(args) > 0 {
		for _, sc := range subcommands {
			if sc.name == args[0] {
				// Only reachable with every command built.
				root.CompletionOptions.DisableDefaultCmd = true
				root.AddCommand(sc.make(io))
				return root
			}
		}
	}
	for _, sc := range subcommands {
		root.AddCommand(sc.make(io))
	}
	return root
}

// version is set by the Makefile from git describe.
var version = "dev"

// reportPanic turns a panic of the command into one line on stderr and
// exit status 3: a user sees what happened and where the details are, not
// a Go stack trace; the stack is kept in a file for the bug report.
func reportPanic(r any, stack []byte, w io.Writer) int {
	where := "(the stack could not be written)"
	if f, err := os.CreateTemp("", "smtarena-crash-*.txt"); err == nil {
		fmt.Fprintf(f, "smtarena %s: %v\n\n%s", version, r, stack)
		if f.Close() == nil {
			where = "stack in " + f.Name()
		}
	}
	fmt.Fprintf(w, "smtarena: internal error: %v; this is a bug, please report it (%s)\n", r, where)
	return exitInternal
}
