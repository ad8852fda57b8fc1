package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

var sweepOnce sync.Once

// sweepStale removes what runs of dead smtarena processes left behind: a
// process killed with SIGKILL cannot remove its runs' cgroups and working
// directories, whose names carry its pid (run-<pid>-<n>).
func sweepStale(root bool) {
	sweepOnce.Do(func() {
		var dirs []string
		for _, ctl := range v1Controllers {
			dirs = append(dirs, filepath.Join(CgroupRoot, ctl, "smtarena"))
		}
		if p := cgroup2Parent(); p != "" {
			dirs = append(dirs, p)
		}
		for _, d := range dirs {
			sweepDir(d, func(p string) { _ = os.Remove(p) }) // only empty cgroups go
		}
		sweepDir(baseDir(root), func(p string) { _ = os.RemoveAll(p) })
	})
}

func sweepDir(dir string, remove func(string)) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), "run-")
		if !ok {
			continue
		}
		pidStr, _, _ := strings.Cut(rest, "-")
		if pid, err := strconv.Atoi(pidStr); err != nil || pid == os.Getpid() {
			continue
		}
		if _, err := os.Stat("/proc/" + pidStr); err == nil {
			continue // alive
		}
		remove(filepath.Join(dir, e.Name()))
	}
}
