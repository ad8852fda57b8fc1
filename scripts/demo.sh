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

if $bin lint --help >/dev/null 2>&1; then
  step "lint the generated benchmark for the single-query track"
  $bin lint --track single-query "$out/gen.smt2" && echo "no problems"
  if [ -d "$shared/benchmarks" ]; then
    step "lint the shared non-incremental benchmarks (single-query, 2022 rules): summary"
    $bin lint --track single-query --rules 2022 --summary $(find "$shared/benchmarks/non-incremental" -name '*.smt2' | sort) || true
  fi
fi

step "still to come"
echo "smtarena compete competition.toml: select, scramble, run z3/cvc4/cvc5/boolector, score and write the site (issues 3-7)"
