//go:build !linux

package sandbox

import "context"

// Run needs Linux (namespaces, cgroups, /proc).
func Run(ctx context.Context, spec Spec) (Result, error) {
	return Result{Reason: Failed, Error: "sandbox: needs Linux"}, ErrUnsupported
}

// Flush has nothing to wait for where the sandbox is not supported.
func Flush() error { return nil }
