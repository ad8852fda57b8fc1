package score

import (
	"bytes"
	"reflect"
	"regexp"
	"testing"
)

var logicRE = regexp.MustCompile(`\bLogic\.(\w+)`)

// checkLogicRefs: logicRefs finds what `\bLogic\.(\w+)` finds.
func checkLogicRefs(t *testing.T, l string) {
	t.Helper()
	var want []string
	for _, m := range logicRE.FindAllStringSubmatch(l, -1) {
		want = append(want, m[1])
	}
	if got := logicRefs(l); !reflect.DeepEqual(got, want) {
		t.Errorf("%q: %q, want %q", l, got, want)
	}
}

// TestLogicRefs: logicRefs finds what the regular expression finds.
func TestLogicRefs(t *testing.T) {
	for _, l := range []string{
		"", "Logic.QF_BV", "  Division.QF_Bitvec: {Logic.QF_BV, Logic.QF_ABV},", "XLogic.QF_BV Logic.", "Logic.Logic.QF_UF",
		"Logic.QF_UF# Logic.X", "_Logic.A Logic.B_1 (Logic.C)", "Logic..X Logic.é", "LogicLogic.X", "Logic.X.Logic.Y",
	} {
		checkLogicRefs(t, l)
	}
}

// FuzzLogicRefs: logicRefs finds what the regular expression finds.
func FuzzLogicRefs(f *testing.F) {
	f.Add("  Division.QF_Bitvec: {Logic.QF_BV, Logic.QF_ABV},")
	f.Fuzz(checkLogicRefs)
}

// TestFindAfterSpace: searching from the white space before the literal
// finds the match a search of the whole text finds.
func TestFindAfterSpace(t *testing.T) {
	for _, src := range []string{
		"x = 1\n    removed_results = [\n        a\n    ]\n",
		"# removed_results = [ in a comment\nclass C:\n  removed_results = [\n  b\n  ]\n",
		"removed_results = [\n a\n ]",
		"\n\n \t removed_results = [x\n ]\nremoved_results = [y\n ]",
		"nothing here",
	} {
		want := defsRemoved().FindSubmatch([]byte(src))
		got := findAfterSpace(defsRemoved(), []byte(src), "removed_results = [")
		if len(got) != len(want) || (want != nil && !bytes.Equal(got[1], want[1])) {
			t.Errorf("%q: %q, want %q", src, got, want)
		}
	}
}
