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
