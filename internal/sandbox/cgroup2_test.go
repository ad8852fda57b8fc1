//go:build linux

package sandbox

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/testenv"
)

// cgroup2Mount is a cgroup v2 hierarchy of this kernel: the one mounted
// already (a machine whose cgroups are v2, or the "unified" one of a hybrid
// setup), or one the test mounts, holding whatever controllers v1 has not
// taken.
func cgroup2Mount(t *testing.T) string {
	t.Helper()
	f, err := os.Open("/proc/self/mounts")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) > 2 && fields[2] == "cgroup2" {
			return fields[1]
		}
	}
	dir := t.TempDir()
	if err := syscall.Mount("none", dir, "cgroup2", 0, ""); err != nil {
		testenv.Skipf(t, "cannot mount cgroup2 on %s: %v", dir, err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// TestCgroup2Kernel runs the v2 backend against the kernel's own cgroup v2
// files, in a cgroup delegated the way SMTARENA_CGROUP2 names one. Where
// the kernel's v2 hierarchy has the memory controller, real runs: a CPU
// burner stopped at its limit, a memory spike killed by the kernel,
// escapees, z3 on a shared benchmark. Where the controllers are bound to
// cgroup v1 (this development machine and CI), the hierarchy offers none
// of them: the engine must say so when cgroup2 is asked for, and pick
// another backend by itself.
func TestCgroup2Kernel(t *testing.T) {
	if os.Geteuid() != 0 {
		testenv.Skipf(t, "needs root (to mount cgroup2 and make cgroups)")
	}
	mnt := cgroup2Mount(t)
	name := fmt.Sprintf("smtarena-test-%d", os.Getpid())
	deleg := filepath.Join(mnt, name)
	if err := os.Mkdir(deleg, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = Flush()
		if err := os.Remove(deleg); err != nil {
			t.Errorf("remove %s: %v", deleg, err)
		}
	})
	t.Setenv("SMTARENA_CGROUP_ROOT", mnt)
	t.Setenv("SMTARENA_CGROUP2", name)
	controllers, _ := os.ReadFile(filepath.Join(mnt, "cgroup.controllers"))
	t.Logf("%s offers %q", mnt, strings.TrimSpace(string(controllers)))

	if !strings.Contains(" "+string(controllers)+" ", " memory ") {
		res, err := Run(context.Background(), Spec{Args: []string{"true"}, Backend: "cgroup2"})
		if err == nil || res.Reason != Failed || !strings.Contains(res.Error, deleg+" does not offer the memory controller") {
			t.Errorf("cgroup2 without its memory controller: %+v %v", res, err)
		}
		// Chosen by default (no SMTARENA_CGROUP2, as root), v2 is
		// passed over for another backend.
		t.Setenv("SMTARENA_CGROUP2", "")
		res, err = Run(context.Background(), Spec{Args: []string{"true"}})
		if err != nil || res.Reason != Completed || res.Backend == "cgroup2" {
			t.Errorf("default backend without v2 controllers: %+v %v", res, err)
		}
		if _, err := os.Stat(filepath.Join(mnt, "smtarena")); err == nil {
			t.Errorf("%s/smtarena made although it cannot be used", mnt)
		}
		return
	}

	res, _ := runHostile(t, "cgroup2", "spin", Limits{CPU: time.Second, Wall: 10 * time.Second})
	if res.Reason != CPUTime || res.CPU < time.Second || res.Backend != "cgroup2" || !res.Accurate {
		t.Errorf("CPU limit: %+v", res)
	}
	for i := 0; i < spikeRuns("cgroup2"); i++ {
		if res, _ := runHostile(t, "cgroup2", "alloc", Limits{MemoryBytes: 200 << 20, Wall: 10 * time.Second}, "300"); res.Reason != Memory {
			t.Fatalf("run %d: 300 MB under a 200 MB limit: %+v", i, res)
		}
	}
	if res, _ := runHostile(t, "cgroup2", "alloc", Limits{Wall: 10 * time.Second}, "500"); res.PeakMemoryBytes < 500<<20 {
		t.Errorf("peak of 500 MB touched: %+v", res)
	}
	for _, mode := range []string{"setsid-escapee", "daemon"} {
		if res, _ := runHostile(t, "cgroup2", mode, Limits{Wall: 10 * time.Second}); res.Reason != Completed {
			t.Errorf("%s: %+v", mode, res)
		}
	}
	if res, _ := runHostile(t, "cgroup2", "fork-bomb", Limits{Pids: 64, Wall: 5 * time.Second, CPU: 5 * time.Second}); res.Reason != Pids {
		t.Errorf("fork bomb under 64 pids: %+v", res)
	}
}
