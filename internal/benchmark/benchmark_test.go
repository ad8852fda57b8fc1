package benchmark

import "testing"

func TestFamily(t *testing.T) {
	p := "non-incremental/QF_LIA/20220214-sub/a/b/x.smt2"
	for year, want := range map[int]string{2014: "20220214-sub", 2018: "20220214-sub", 2022: "20220214-sub/a/b", 2006: "20220214-sub/a/b"} {
		if got := Family(p, year); got != want {
			t.Errorf("%d: %q, want %q", year, got, want)
		}
	}
	if got := Family("lib/incremental/QF_BV/s/y.smt2", 2022); got != "s" {
		t.Errorf("rooted above: %q", got)
	}
	if got := LogicOfPath("/x/non-incremental/QF_UF/s/y.smt2"); got != "QF_UF" {
		t.Errorf("logic %q", got)
	}
	if ParseCategory(`"industrial"`) != Industrial || ParseStatus("bogus") != Unknown {
		t.Error("parse")
	}
}

// TestLogicOfPath: the logic found without splitting the path is the one
// of the path's cleaned elements.
func TestLogicOfPath(t *testing.T) {
	for _, p := range []string{"", "/", "x", "/x", "a/b", "non-incremental/QF_UF/x.smt2", "non-incremental/QF_UF/f/g/x.smt2",
		"incremental/QF_BV/x.smt2", "lib/incremental/QF_BV/s/y.smt2", "non-incremental/QF_UF", "x/non-incremental/QF_UF",
		"a/incremental/b/incremental/c/d", "non-incremental/QF_UF/../x.smt2", "non-incremental//QF_UF/x.smt2",
		"non-incremental/./QF_UF/x.smt2", "non-incremental/QF_UF/x.smt2/", "//non-incremental/QF_UF/x.smt2", "./a/b", "../a/b/c",
		"incremental/incremental/incremental", "incremental/a/incremental/b/c"} {
		l, _, _ := pathParts(p)
		if got := LogicOfPath(p); got != l {
			t.Errorf("LogicOfPath(%q) = %q, want %q", p, got, l)
		}
	}
}

func FuzzLogicOfPath(f *testing.F) {
	f.Add("non-incremental/QF_UF/f/x.smt2")
	f.Add("lib/incremental/QF_BV/../s/y.smt2")
	f.Fuzz(func(t *testing.T, p string) {
		l, _, _ := pathParts(p)
		if got := LogicOfPath(p); got != l {
			t.Errorf("LogicOfPath(%q) = %q, want %q", p, got, l)
		}
	})
}

// TestLogicOfPathFast: the shortcut for clean paths gives what splitting
// the cleaned path gives, on clean paths and on those it leaves to it.
func TestLogicOfPathFast(t *testing.T) {
	for _, p := range []string{
		"non-incremental/QF_LIA/fam/x.smt2", "incremental/QF_BV/s/t/y.smt2", "non-incremental/QF_LIA/x.smt2",
		"non-incremental/QF_LIA", "non-incremental/QF_LIA/", "non-incremental//QF_LIA/f/x.smt2",
		"non-incremental/./QF_LIA/f/x.smt2", "non-incremental/../QF_LIA/f/x.smt2", "non-incremental/QF_LIA/../f/x.smt2",
		"incremental/incremental/QF_UF/x.smt2", "/non-incremental/QF_UF/f/x.smt2", "lib/incremental/QF_BV/s/y.smt2",
		"non-incremental/QF_UF/f/.", "non-incremental/QF_UF/f/..", "non-incremental/QF_UF/.hidden/x.smt2", "non-incremental/.QF/x/y.smt2", "non-incremental/QF_UF/f/x.smt2/", "QF_UF/x.smt2", "x.smt2", "",
	} {
		want, _, _ := pathParts(p)
		if got := LogicOfPath(p); got != want {
			t.Errorf("LogicOfPath(%q) = %q, want %q", p, got, want)
		}
	}
}
