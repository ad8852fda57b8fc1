#!/usr/bin/env bash
# make demo: the main job. Generate a benchmark library whose statuses are
# known by construction, run a small real competition on it with the
# solvers Debian packages (z3, cvc5, cvc4, boolector) under the 2022 rules,
# print the result tables, and show the front end's other commands.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=./bin/smtarena
out=out/demo
shared=${SMTARENA_SHARED:-../shared}
mkdir -p "$out"

step() { printf '\n== %s\n' "$*"; }

step "generate a benchmark library (seed 7, small size; --size medium takes minutes) into $out/library"
rm -rf "$out/library" "$out/work"
$bin generate --out "$out/library" --seed 7 --size small
$bin index --db "$out/work/smtarena.db" -q "$out/library"
$bin benchmarks --db "$out/work/smtarena.db" | tail -n 12

step "lint the library for its tracks (2022 rules)"
$bin lint --track auto --summary --quiet "$out/library"

step "the competition seed, as the 2022 rules derive it"
$bin seed --rules 2022 --nyse 15123.45 --entrant 1 --entrant 42 --entrant 4242

step "run the competition (examples/demo.toml): select, prepare, run every pair in the sandbox"
$bin compete examples/demo.toml

step "scores by the 2022 rules (one division shown; --format csv|json|yaml for the rest)"
$bin score --config examples/demo.toml --db "$out/work/smtarena.db" --rules 2022 --track single-query --division QF_LinearIntArith

step "unsat-core scores by the 2022 rules (cores validated by the sound single-query solvers), and by the official scripts' reading"
$bin score --config examples/demo.toml --db "$out/work/smtarena.db" --rules 2022 --track unsat-core --format csv | head -n 9
$bin score --config examples/demo.toml --db "$out/work/smtarena.db" --rules 2022 --track unsat-core --compat official --format csv | head -n 9

step "validate-core: one core checked by hand, as a solver developer would before submitting"
u=$(grep -rl 'status unsat' "$out/library/non-incremental" | sort | head -n 1)
$bin scramble --track unsat-core --seed 1 "$u" > "$out/named.smt2"
z3 "$out/named.smt2" > "$out/named.z3" || true
$bin validate-core --limit 15 "$out/named.smt2" "$out/named.z3" -- cvc5 -- cvc4 --lang smt2 || true

step "model-validation scores by the 2022 rules (each model judged by smtarena validate-model in the sandbox; INVALID is an error)"
$bin score --config examples/demo.toml --db "$out/work/smtarena.db" --rules 2022 --track model-validation --format csv | head -n 9

step "validate-model: one model checked by hand, with the values that make an assertion false"
m=$(grep -rl 'status sat' "$out/library/non-incremental" | grep QF_LIA | sort | head -n 1)
$bin scramble --track model-validation --seed 0 "$m" > "$out/mv.smt2"
z3 "$out/mv.smt2" > "$out/mv.z3" || true
$bin validate-model "$out/mv.smt2" "$out/mv.z3" || true
# the same model with its first integer value changed
awk 'f && /^ *[0-9]+\)$/ {sub(/[0-9]+/, "12345"); f=0} /\(define-fun [^ ]* \(\) Int$/ {f=1} {print}' "$out/mv.z3" > "$out/mv-bad.z3"
$bin validate-model --explain "$out/mv.smt2" "$out/mv-bad.z3" | head -n 12 || true

step "publish the competition as a static website (smtarena report)"
$bin report --config examples/demo.toml --out "$out/site"
echo "serve it live from the store (also while compete runs): $bin serve --config examples/demo.toml  (then open http://127.0.0.1:8080/)"
echo "or as static files: python3 -m http.server -d $out/site 8000, or open $out/site/index.html in a browser"

step "progress and results as the store holds them"
$bin status examples/demo.toml

step "one solver run in the sandbox, measured"
f=$(find "$out/library/non-incremental" -name '*.smt2' | sort | head -n 1)
$bin exec --cpu-limit 10 --mem-limit 1024 --output "$out/exec.out" -- z3 "$f"
echo "z3 said: $(cat "$out/exec.out")"

if [ -d "$shared/benchmarks" ]; then
  step "lint the shared benchmarks (incremental ones as incremental): findings summary"
  $bin lint --track auto --rules 2022 --summary --quiet "$shared/benchmarks" || true
fi
