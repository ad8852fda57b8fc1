#!/usr/bin/env bash
# make demo: what smtarena can do today, on generated and shared benchmarks.
# The full competition (select, scramble, run solvers, score, site) joins
# this script as those stages land; until then it shows the SMT-LIB front end.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=./bin/smtarena
out=out/demo
shared=${SMTARENA_SHARED:-../shared}
mkdir -p "$out"

step() { printf '\n== %s\n' "$*"; }

step "generate a QF_LIA benchmark (1 MB, seed 7)"
$bin generate qf_lia --seed 7 --bytes 1000000 -o "$out/gen.smt2"
ls -l "$out/gen.smt2"

step "metadata scan"
$bin meta "$out/gen.smt2"

step "canonical form (first lines)"
{ $bin fmt "$out/gen.smt2" | head -n 8; } || true

if [ -d "$shared/benchmarks" ]; then
  step "metadata of an incremental benchmark from $shared/benchmarks"
  { $bin meta "$shared/benchmarks/incremental/QF_LIA/cvc5-regress0-push-pop-boolean/"*.smt2 | head -n 24; } || true
fi

step "lint the generated benchmark for the single-query track (2022 rules)"
$bin lint --track single-query "$out/gen.smt2" && echo "no problems"

if [ -d "$shared/benchmarks" ]; then
  step "lint the shared benchmarks (incremental ones as incremental): findings summary"
  $bin lint --track auto --rules 2022 --summary --quiet "$shared/benchmarks" || true
  step "lint one benchmark for the unsat-core track, as the solver would receive it"
  $bin lint --track unsat-core --scrambled "$shared/benchmarks/non-incremental/QF_UF/cvc5-regress0/bug217.smt2" || true
fi

step "still to come"
echo "smtarena compete competition.toml: select, scramble, run z3/cvc4/cvc5/boolector, score and write the site (issues 3-7)"
