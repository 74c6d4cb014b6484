#!/usr/bin/env bash
# Runs a test suite at several fixed node budgets, one budget per core at a time, and prints
# each budget's `solved N/M` line and their sum.
#
# usage: tools/epd_budgets.sh [BINARY] [SUITE] [BUDGET ...]
#   defaults: target/release/chimera, tests/data/wac.epd, 500000 700000
#
# Why several budgets: at one fixed budget the count is exact and repeatable, but any change
# to the search, even one that means nothing (an aspiration window one centipawn narrower),
# reorders moves and moves the count by several positions either way. Summing over a few
# budgets averages some of that out; a difference smaller than the spread seen between such
# meaningless changes (about 5 positions on the sum of two budgets for Win At Chess) says
# nothing about the change.
set -euo pipefail

binary=${1:-target/release/chimera}
suite=${2:-tests/data/wac.epd}
shift $(($# < 2 ? $# : 2))
budgets=("$@")
if [ ${#budgets[@]} -eq 0 ]; then
    budgets=(500000 700000)
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
jobs_max=$(nproc 2>/dev/null || echo 1)
for n in "${budgets[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do
        wait -n
    done
    "$binary" epd "$suite" --nodes "$n" | tail -n 1 >"$out/$n" &
done
wait

total=0
for n in "${budgets[@]}"; do
    line=$(cat "$out/$n")
    if [[ $line != solved* ]]; then
        echo "nodes $n: the run did not finish (see the error above)" >&2
        exit 1
    fi
    echo "nodes $n: $line"
    solved=${line#solved }
    total=$((total + ${solved%%/*}))
done
echo "sum: $total"
