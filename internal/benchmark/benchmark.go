package benchmark

import (
	"path"
	"strings"
)

// Status is the expected answer of a check-sat: what :status says.
type Status string

// The statuses of SMT-LIB.
const (
	Sat     Status = "sat"
	Unsat   Status = "unsat"
	Unknown Status = "unknown"
)

// ParseStatus reads a :status value; anything else is Unknown.
func ParseStatus(s string) Status {
	switch Status(s) {
	case Sat, Unsat:
		return Status(s)
	}
	return Unknown
}

// Category is the :category of a benchmark.
type Category string

// The categories of SMT-LIB (check benchmarks test basic soundness; SMT-COMP
// 2006 always selected them).
const (
	Industrial Category = "industrial"
	Crafted    Category = "crafted"
	Random     Category = "random"
	Check      Category = "check"
)

// ParseCategory reads a :category value ("industrial", with or without
// quotes); unknown values give "".
func ParseCategory(s string) Category {
	s = strings.Trim(strings.TrimSpace(s), `"|`)
	switch c := Category(strings.ToLower(s)); c {
	case Industrial, Crafted, Random, Check:
		return c
	}
	return ""
}

// Benchmark is one file of a library, as indexing reads it.
type Benchmark struct {
	ID int64
	// Path is the path within the library, in SMT-LIB's layout:
	// non-incremental|incremental/LOGIC/submitter/.../file.smt2.
	Path        string
	Logic       string
	Incremental bool
	Category    Category
	Status      Status
	// Statuses are the :status annotations of the check-sats of an
	// incremental script, in order.
	Statuses []Status
	// Difficulty is the :difficulty annotation (0-5 in 2006), -1 if none.
	Difficulty float64
	Asserts    int
	CheckSats  int
	Size       int64
	// Hash is the hex SHA-256 of the file's contents.
	Hash string
}

// pathParts splits a library path into the part up to the logic and the
// directories below it (submitter first), and the file name.
func pathParts(p string) (logic string, dirs []string, file string) {
	parts := strings.Split(path.Clean(strings.TrimPrefix(p, "/")), "/")
	// Find the track directory; libraries may be rooted above it.
	for i, s := range parts {
		if (s == "non-incremental" || s == "incremental") && i+2 < len(parts) {
			return parts[i+1], parts[i+2 : len(parts)-1], parts[len(parts)-1]
		}
	}
	if len(parts) >= 2 {
		return parts[0], parts[1 : len(parts)-1], parts[len(parts)-1]
	}
	return "", nil, p
}

// Family returns the family of a benchmark path as the rules of a year
// define it. 2014 and 2018: the top-level directory under the logic (the
// submitter's directory). 2022 (and 2019 on): the bottom-level directory,
// that is the full directory path under the logic, so that two submitters'
// "tests" directories stay two families. 2006 used SMT-LIB 1.2's families,
// the directory holding the file.
func Family(p string, year int) string {
	_, dirs, _ := pathParts(p)
	if len(dirs) == 0 {
		return ""
	}
	if year >= 2014 && year <= 2018 {
		return dirs[0]
	}
	return strings.Join(dirs, "/")
}

// LogicOfPath returns the logic directory of a library path.
func LogicOfPath(p string) string {
	// The common case, a clean path from the track directory on, without
	// splitting it (scoring asks for the logic of every result).
	rest, ok := strings.CutPrefix(p, "non-incremental/")
	if !ok {
		rest, ok = strings.CutPrefix(p, "incremental/")
	}
	if ok && cleanRel(rest) {
		if i := strings.IndexByte(rest, '/'); i > 0 {
			return rest[:i]
		}
	}
	l, _, _ := pathParts(p)
	return l
}

// cleanRel says whether a relative path is as path.Clean leaves it (no
// empty, "." or ".." segment, no trailing slash), or else that it may not
// be: a segment that starts with a dot counts as one that may not.
func cleanRel(p string) bool {
	return p != "" && p[0] != '/' && p[0] != '.' && p[len(p)-1] != '/' && !strings.Contains(p, "//") && !strings.Contains(p, "/.")
}
