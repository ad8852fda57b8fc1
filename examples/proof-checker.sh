#!/bin/sh
# A proof checker for the proof exhibition track (2022 §5.8), for the tests
# and the demo. It checks no proof step, so it never says valid: it
# confirms that the benchmark is unsatisfiable with another solver, checks
# that the proof is a single s-expression, and answers holey with the
# number of its lists as steps=N.
#
# Usage: proof-checker.sh BENCHMARK SOLVER-OUTPUT CONFIRMING-SOLVER [ARGS...]
# (the confirming solver gets the benchmark without its get-proof command
# as its last argument)
set -u
bench=$1 out=$2
shift 2
first() { awk 'NF { print $1; exit }'; }
case $(first < "$out") in
sat) echo sat; exit 0 ;;
unsat) ;;
*) echo unknown; exit 0 ;; # unknown, an error, or nothing
esac
# The file keeps the .smt2 extension, from which solvers such as cvc5 tell
# the input language.
tmpdir=$(mktemp -d) || exit 1
trap 'rm -rf "$tmpdir"' EXIT
tmp=$tmpdir/benchmark.smt2
grep -v -e '(get-proof)' -e ':produce-proofs' "$bench" > "$tmp"
confirmed=$("$@" "$tmp" 2>/dev/null | first)
case $confirmed in
unsat) ;;
sat) echo invalid; echo "confirmed=sat"; exit 0 ;; # the benchmark is satisfiable
*) echo unknown; echo "confirmed=${confirmed:-none}"; exit 0 ;;
esac
# The output after the answer: one s-expression, a list. Strings, quoted
# symbols and comments are skipped; steps counts the lists.
awk '
BEGIN { depth = 0; tops = 0; steps = 0; bad = 0; str = 0; sym = 0; atom = 0; started = 0 }
!started { if (NF) started = 1; next }
{
	n = length($0)
	for (i = 1; i <= n; i++) {
		c = substr($0, i, 1)
		if (str) { if (c == "\"") { if (substr($0, i + 1, 1) == "\"") i++; else str = 0 }; continue }
		if (sym) { if (c == "|") sym = 0; continue }
		if (c == ";") break
		if (c == "(") {
			if (depth == 0) { tops++; if (first == "") first = substr($0, i) }
			depth++; steps++; atom = 0; continue
		}
		if (c == ")") { depth--; atom = 0; if (depth < 0) bad = 1; continue }
		if (c == " " || c == "\t" || c == "\r") { atom = 0; continue }
		if (depth == 0 && !atom) { tops++; bad = 1 }
		atom = 1
		if (c == "\"") str = 1
		if (c == "|") sym = 1
	}
	if (str == 0 && sym == 0) atom = 0
}
END {
	if (bad || depth != 0 || tops != 1 || str || sym) { print "invalid"; print "sexprs=" tops; exit }
	if (first ~ /^\( *error[ "]/) { print "unknown"; exit }
	print "holey"; print "steps=" steps
}' "$out"
