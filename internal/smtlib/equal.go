package smtlib

// Equal reports whether term a of script sa and term b of script sb are the
// same tree: same kinds, names and constants, in the same shape. Positions
// do not matter. It uses an explicit stack, so depth is not limited.
func Equal(sa *Script, a Term, sb *Script, b Term) bool {
	_, _, ok := firstDifference(sa, a, sb, b)
	return ok
}

// firstDifference returns the first pair of sub-terms (in pre-order) that
// differ, or ok if there is none.
func firstDifference(sa *Script, a Term, sb *Script, b Term) (Term, Term, bool) {
	type pair struct{ a, b Term }
	stack := []pair{{a, b}}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ka, kb := sa.Kind(p.a), sb.Kind(p.b)
		if ka != kb || sa.Name(p.a) != sb.Name(p.b) {
			return p.a, p.b, false
		}
		na, nb := sa.NumChildren(p.a), sb.NumChildren(p.b)
		if na != nb {
			return p.a, p.b, false
		}
		for i := na - 1; i >= 0; i-- {
			stack = append(stack, pair{sa.Child(p.a, i), sb.Child(p.b, i)})
		}
	}
	return NoTerm, NoTerm, true
}

// ScriptDiff compares two scripts command by command and describes the first
// difference, with positions in both; "" means the scripts are the same tree.
func ScriptDiff(sa, sb *Script) string {
	ca, cb := sa.Commands(), sb.Commands()
	for i := 0; i < len(ca) && i < len(cb); i++ {
		a, b := ca[i], cb[i]
		if a.Kind != b.Kind || sa.CmdNumArgs(a) != sb.CmdNumArgs(b) {
			return sa.Position(a.Pos).String() + ": command " + a.Kind.String() +
				" differs from " + sb.Position(b.Pos).String() + ": " + b.Kind.String()
		}
		for j := 0; j < sa.CmdNumArgs(a); j++ {
			x, y, ok := firstDifference(sa, sa.CmdArg(a, j), sb, sb.CmdArg(b, j))
			if !ok {
				return sa.Position(sa.Pos(x)).String() + ": " + clip(sa.TermString(x)) +
					" differs from " + sb.Position(sb.Pos(y)).String() + ": " + clip(sb.TermString(y))
			}
		}
	}
	if len(ca) != len(cb) {
		return "the scripts have different numbers of commands"
	}
	return ""
}
