package smtlib

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/testenv"
)

// TestScanMetaAgreesWithParse checks the fast scan against the full parse on
// every shared benchmark, and the per-check-sat statuses of the incremental
// ones against their .expected files.
func TestScanMetaAgreesWithParse(t *testing.T) {
	dir := testenv.Shared(t, "benchmarks")
	for _, f := range testenv.Files(t, dir, ".smt2") {
		rel, _ := filepath.Rel(dir, f)
		t.Run(rel, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m, err := ScanMeta(rel, src)
			if err != nil {
				t.Fatalf("scan: %v", err)
			}
			s, err := Parse(rel, src, 0)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			var counts [numCommands]int
			logic, status := "", ""
			var declared []string
			for _, c := range s.Commands() {
				counts[c.Kind]++
				switch c.Kind {
				case CmdSetLogic:
					logic = s.Name(s.CmdArg(c, 0))
				case CmdSetInfo:
					if s.Name(s.CmdArg(c, 0)) == ":status" && status == "" {
						status = s.Name(s.CmdArg(c, 1))
					}
				case CmdDeclareFun, CmdDeclareConst, CmdDefineFun, CmdDeclareSort, CmdDefineSort:
					declared = append(declared, s.Name(s.CmdArg(c, 0)))
				}
			}
			if counts != m.Commands {
				t.Errorf("command counts: scan %v, parse %v", m.Commands, counts)
			}
			if m.Asserts != counts[CmdAssert] || m.CheckSats != counts[CmdCheckSat] ||
				m.Pushes != counts[CmdPush] || m.Pops != counts[CmdPop] {
				t.Errorf("asserts/check-sats/pushes/pops: %d %d %d %d", m.Asserts, m.CheckSats, m.Pushes, m.Pops)
			}
			if m.Logic != logic || m.Status != status {
				t.Errorf("logic %q status %q, parse says %q %q", m.Logic, m.Status, logic, status)
			}
			if strings.Join(m.Declared, " ") != strings.Join(declared, " ") {
				t.Errorf("declared: scan %v, parse %v", m.Declared, declared)
			}
			if want := strings.Contains(string(src), ":named"); m.Named != want && !strings.Contains(string(src), ";") {
				t.Errorf("named = %v", m.Named)
			}
			exp, err := os.ReadFile(f + ".expected")
			if err == nil && strings.Contains(string(src), ":status") {
				want := strings.Fields(string(exp))
				if strings.Join(m.CheckSatStatuses, " ") != strings.Join(want, " ") {
					t.Errorf("check-sat statuses %v, .expected says %v", m.CheckSatStatuses, want)
				}
			}
		})
	}
}

func TestScanMetaErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"(set-logic QF_LIA)\n(assert (and x y)\n", "x.smt2:2:1: command is not closed: 1 ')' missing at end of file"},
		{"(set-logic QF_LIA)\n(frob x)\n(check-sat)", "x.smt2:2:2: expected a command name, found 'frob'"},
		{"(assert |abc)", "x.smt2:1:9: quoted symbol not terminated"},
		{"check-sat", "x.smt2:1:1: expected '(' to start a command, found 'check-sat'"},
	} {
		m, err := ScanMeta("x.smt2", []byte(tc.src))
		if m == nil {
			t.Fatalf("%q: no partial result", tc.src)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %s", tc.src, err, tc.want)
		}
	}
	m, _ := ScanMeta("x.smt2", []byte("(set-logic QF_LIA)\n(frob x)\n(check-sat)"))
	if m.Logic != "QF_LIA" || m.CheckSats != 1 {
		t.Errorf("partial result lost: %+v", m)
	}
}
