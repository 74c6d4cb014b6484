#!/usr/bin/env bash
# Time to depth on two threads against one: runs `chimera bench DEPTH` with one thread and with
# two, alternately (so that a machine that slows down or speeds up over minutes hits both
# alike), RUNS pairs per binary, binaries interleaved. Per binary and bench position, the
# ratio t1/t2 of each pair; prints per position the median over the pairs, then the median
# and the geometric mean over the positions. Needs the cores to itself.
#
# usage: tools/time_to_depth.sh DEPTH RUNS BINARY...
#   e.g. tools/time_to_depth.sh 14 3 target/release/chimera
set -euo pipefail

depth=${1:?depth}
runs=${2:?runs}
shift 2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for ((r = 1; r <= runs; r++)); do
    for b in "$@"; do
        for t in 1 2; do
            # Bench lines: "N variant NODES nodes MS ms  MOVE SCORE..."; the last line has no "ms".
            "$b" bench "$depth" --threads "$t" | awk -v b="$b" -v r="$r" -v t="$t" '
                $6 == "ms" { print b, r, t, $1, $5 }' >>"$out"
        done
    done
done
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for b in "$@"; do
    line="$b:"
    ratios=()
    for p in $(awk -v b="$b" '$1 == b { print $4 }' "$out" | sort -nu); do
        m=$(awk -v b="$b" -v p="$p" '
            $1 == b && $4 == p { ms[$2, $3] = $5; runs[$2] = 1 }
            END { for (r in runs) if ((r, 1) in ms && (r, 2) in ms) print ms[r, 1] / (ms[r, 2] > 0 ? ms[r, 2] : 1) }' "$out" | median)
        ratios+=("$m")
        line+=$(printf ' %.2f' "$m")
    done
    med=$(printf '%s\n' "${ratios[@]}" | median)
    geo=$(printf '%s\n' "${ratios[@]}" | awk '{ s += log($1) } END { print exp(s / NR) }')
    printf '%s  median %.3f geomean %.3f\n' "$line" "$med" "$geo"
done
