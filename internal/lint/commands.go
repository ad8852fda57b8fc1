package lint

import (
	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/smtlib"
)

// getCommand is the command a track adds after its check-sat, and the
// option that enables it.
type getCommand struct {
	kind   smtlib.CommandKind
	option string
}

// trackGet returns the get-* command of a track, if it has one.
func (l *linter) trackGet() (getCommand, bool) {
	switch l.opts.Track {
	case benchmark.UnsatCore:
		return getCommand{smtlib.CmdGetUnsatCore, ":produce-unsat-cores"}, true
	case benchmark.ModelValidation:
		return getCommand{smtlib.CmdGetModel, ":produce-models"}, true
	case benchmark.Proof:
		return getCommand{smtlib.CmdGetProof, ":produce-proofs"}, true
	}
	return getCommand{}, false
}

// commands checks which commands occur, in which order and how often.
func (l *linter) commands() {
	s := l.s
	cmds := s.Commands()
	get, hasGet := l.trackGet()
	var (
		logicAt      = -1
		checkSats    int
		gets         int
		depth        int
		asserts      int // since the last check-sat
		statuses     int
		exitAt       = -1
		seenOption   = map[string]bool{}
		firstNonInfo = -1 // first command that is not set-info or set-option
	)
	for i, c := range cmds {
		if exitAt >= 0 {
			l.errorf(c.Pos, "exit", "%s after exit: exit must be the last command (%s)", c.Kind, l.rule())
		}
		if c.Kind != smtlib.CmdSetInfo && c.Kind != smtlib.CmdSetOption && firstNonInfo < 0 {
			firstNonInfo = i
		}
		switch c.Kind {
		case smtlib.CmdSetOption:
			l.setOption(i, c, logicAt >= 0, seenOption)
		case smtlib.CmdSetLogic:
			switch {
			case logicAt >= 0:
				l.errorf(c.Pos, "set-logic", "second set-logic: a benchmark has a single set-logic (%s)", l.rule())
			case firstNonInfo != i:
				l.errorf(c.Pos, "set-logic", "set-logic must be the first command after the set-option commands, but %s comes before it (%s)",
					cmds[firstNonInfo].Kind, l.rule())
			case l.opts.Scrambled && i > 0 && cmds[i-1].Kind == smtlib.CmdSetInfo:
				l.errorf(c.Pos, "set-logic", "set-logic must be the first command after the set-option commands, but set-info comes before it (%s)", l.rule())
			}
			if logicAt < 0 {
				logicAt = i
			}
		case smtlib.CmdSetInfo:
			if l.opts.Scrambled {
				l.errorf(c.Pos, "command", "set-info in a scrambled benchmark: the scrambler removes every set-info")
			}
			if s.Name(s.CmdArg(c, 0)) == ":status" {
				statuses++
				if statuses == 2 && l.opts.Rules == 2014 && !l.incremental() {
					l.errorf(c.Pos, "command", "second set-info :status: there is at most one (%s)", l.rule())
				}
			}
		case smtlib.CmdDeclareSort:
			if n := s.Name(s.CmdArg(c, 1)); n != "0" {
				l.errorf(s.Pos(s.CmdArg(c, 1)), "arity", "declare-sort %s has arity %s; declared sorts must have zero arity (%s)",
					smtlib.QuoteSymbol(s.Name(s.CmdArg(c, 0))), n, l.rule())
			}
		case smtlib.CmdDefineSort:
			if l.opts.Rules == 2014 {
				l.notAllowed(c)
			} else if n := s.NumChildren(s.CmdArg(c, 1)); n > 0 {
				l.errorf(s.Pos(s.CmdArg(c, 1)), "arity", "define-sort %s has %d parameters; defined sorts must have zero arity (%s)",
					smtlib.QuoteSymbol(s.Name(s.CmdArg(c, 0))), n, l.rule())
			}
		case smtlib.CmdDeclareFun:
		case smtlib.CmdDeclareConst, smtlib.CmdDefineFun, smtlib.CmdDeclareDatatype, smtlib.CmdDeclareDatatypes:
			// The 2018 and 2022 rules list define-fun and the datatype
			// commands (the checker reports datatypes outside DT logics);
			// declare-const is the declare-fun of a constant, which the
			// scrambler prints as such. 2014 had none of them.
			if l.opts.Rules == 2014 {
				l.notAllowed(c)
			}
		case smtlib.CmdAssert:
			asserts++
		case smtlib.CmdCheckSat:
			checkSats++
			if checkSats == 2 && !l.incremental() {
				l.errorf(c.Pos, "check-sat", "second check-sat: the %s track has exactly one (%s)", l.opts.Track, l.rule())
			}
			if l.opts.Rules == 2014 && l.incremental() && asserts == 0 {
				l.errorf(c.Pos, "check-sat", "check-sat without an assert since the previous one (%s)", l.rule())
			}
			asserts = 0
			if hasGet && l.opts.Scrambled && (i+1 >= len(cmds) || cmds[i+1].Kind != get.kind) {
				l.errorf(c.Pos, "get", "check-sat must be followed by %s in the %s track (%s)", get.kind, l.opts.Track, l.rule())
			}
		case smtlib.CmdPush, smtlib.CmdPop:
			if !l.incremental() {
				l.errorf(c.Pos, "push-pop", "%s is only allowed in the incremental track (%s)", c.Kind, l.rule())
				continue
			}
			if s.CmdNumArgs(c) == 0 || s.Name(s.CmdArg(c, 0)) != "1" {
				l.errorf(c.Pos, "push-pop", "only (%s 1) is allowed (%s)", c.Kind, l.rule())
				continue
			}
			if c.Kind == smtlib.CmdPush {
				depth++
			} else if depth == 0 {
				l.errorf(c.Pos, "push-pop", "pop without a matching push")
			} else {
				depth--
			}
		case smtlib.CmdGetUnsatCore, smtlib.CmdGetModel, smtlib.CmdGetProof:
			switch {
			case !hasGet || c.Kind != get.kind:
				l.errorf(c.Pos, "get", "%s is not allowed in the %s track (%s)", c.Kind, l.opts.Track, l.rule())
			case i == 0 || cmds[i-1].Kind != smtlib.CmdCheckSat:
				l.errorf(c.Pos, "get", "%s must directly follow check-sat (%s)", c.Kind, l.rule())
			case gets > 0:
				l.errorf(c.Pos, "get", "second %s: there is a single one (%s)", c.Kind, l.rule())
			}
			gets++
		case smtlib.CmdExit:
			exitAt = i
		default:
			l.notAllowed(c)
		}
	}
	end := smtlib.Pos(s.File.Size + 1)
	if logicAt < 0 {
		l.errorf(firstPos(s), "set-logic", "no set-logic command (%s)", l.rule())
	}
	switch {
	case checkSats == 0 && l.incremental():
		l.errorf(end, "check-sat", "no check-sat: the incremental track has one or more (%s)", l.rule())
	case checkSats == 0:
		l.errorf(end, "check-sat", "no check-sat: the %s track has exactly one (%s)", l.opts.Track, l.rule())
	}
	if exitAt < 0 && (l.incremental() || l.opts.Rules == 2014) {
		l.errorf(end, "exit", "no exit command: the %s track requires exit as the last command (%s)", l.opts.Track, l.rule())
	}
	if l.opts.Scrambled {
		l.scrambledOptions(cmds)
	}
	l.context(cmds)
}

// context checks what the unsat-core, proof and model-validation tracks
// say of their check-sat: it is issued in an unsatisfiable (satisfiable)
// context. The benchmark's :status says so; without one lint cannot tell.
func (l *linter) context(cmds []smtlib.Command) {
	want := ""
	switch l.opts.Track {
	case benchmark.UnsatCore, benchmark.Proof:
		want = "unsat"
	case benchmark.ModelValidation:
		want = "sat"
	default:
		return
	}
	s := l.s
	for _, c := range cmds {
		if c.Kind == smtlib.CmdSetInfo && s.Name(s.CmdArg(c, 0)) == ":status" && s.CmdNumArgs(c) > 1 {
			if got := s.Name(s.CmdArg(c, 1)); got != want && got != "unknown" {
				l.errorf(c.Pos, "status", "status %s: the check-sat of the %s track is issued in a %s context (%s)",
					got, l.opts.Track, map[string]string{"sat": "satisfiable", "unsat": "unsatisfiable"}[want], l.rule())
				return
			} else if got == want {
				return
			}
		}
	}
	l.notChecked(firstPos(s), "status", "that the check-sat is %s: the benchmark has no known :status", want)
}

func firstPos(s *smtlib.Script) smtlib.Pos {
	if cmds := s.Commands(); len(cmds) > 0 {
		return cmds[0].Pos
	}
	return smtlib.Pos(1)
}

func (l *linter) notAllowed(c smtlib.Command) {
	l.errorf(c.Pos, "command", "%s is not allowed in benchmarks (%s: no other commands)", c.Kind, l.rule())
}

// setOption checks one set-option command: which options a track allows,
// with which values, how often, and that it comes before set-logic.
func (l *linter) setOption(i int, c smtlib.Command, afterLogic bool, seen map[string]bool) {
	s := l.s
	key := s.Name(s.CmdArg(c, 0))
	val := ""
	if s.CmdNumArgs(c) > 1 {
		val = s.Name(s.CmdArg(c, 1))
	}
	get, hasGet := l.trackGet()
	allowed := false
	switch {
	case key == ":print-success" && l.incremental():
		allowed = true
		if val != "true" {
			l.errorf(c.Pos, "set-option", "the incremental track must not disable :print-success (%s)", l.rule())
		}
	case key == ":print-success" && l.opts.Rules == 2018:
		allowed = true // 2018 §5.1 1(a): a single one, any value
	case key == ":print-success" && l.opts.Rules == 2022 && l.opts.Scrambled:
		allowed = i == 0 && val == "false"
		if !allowed {
			l.errorf(c.Pos, "set-option", "the scrambler's (set-option :print-success false) must be the first command (%s)", l.rule())
			return
		}
	case hasGet && key == get.option:
		allowed = true
		if val != "true" {
			l.errorf(c.Pos, "set-option", "%s must be true in the %s track (%s)", key, l.opts.Track, l.rule())
		}
	}
	if !allowed {
		l.errorf(c.Pos, "set-option", "set-option %s is not allowed in the %s track (%s)", key, l.opts.Track, l.rule())
		return
	}
	if seen[key] {
		l.errorf(c.Pos, "set-option", "second set-option %s: a benchmark has a single one (%s)", key, l.rule())
	}
	seen[key] = true
	if afterLogic {
		l.errorf(c.Pos, "set-option", "set-option after set-logic: set-logic is the first command after the set-option commands (%s)", l.rule())
	}
}

// scrambledOptions checks the commands the scrambler puts first: in 2022,
// (set-option :print-success false) outside the incremental track, then the
// track's produce option as the second command.
func (l *linter) scrambledOptions(cmds []smtlib.Command) {
	s := l.s
	isOption := func(i int, key string) bool {
		return i < len(cmds) && cmds[i].Kind == smtlib.CmdSetOption && s.Name(s.CmdArg(cmds[i], 0)) == key
	}
	second := 0
	if l.opts.Rules == 2022 && !l.incremental() {
		second = 1
		if !isOption(0, ":print-success") {
			l.errorf(firstPos(s), "set-option", "a scrambled benchmark starts with (set-option :print-success false) (%s)", l.rule())
		}
	}
	get, hasGet := l.trackGet()
	if !hasGet {
		return
	}
	if l.opts.Rules == 2022 && !isOption(second, get.option) {
		l.errorf(firstPos(s), "set-option", "the %s track has (set-option %s true) as the second command (%s)", l.opts.Track, get.option, l.rule())
	}
	if l.opts.Rules == 2018 && !isOption(0, get.option) && !isOption(1, get.option) {
		l.errorf(firstPos(s), "set-option", "the %s track has a (set-option %s true) command (%s)", l.opts.Track, get.option, l.rule())
	}
}
