//go:build !linux

package sandbox

import "context"

// Run needs Linux (namespaces, cgroups, /proc).
func Run(ctx context.Context, spec Spec) (Result, error) {
	return Result{Reason: Failed, Error: "sandbox: needs Linux"}, ErrUnsupported
}
