#!/usr/bin/env bash
# Runs a test suite once at a large fixed node budget and prints how many positions were solved
# for good within each smaller budget: the `found Tms/NODES` column of `chimera epd` says when
# each answer came to stay, and a search with a node limit runs the same iterations as one with
# any smaller limit, so one run gives the whole curve. The suite is split across the cores.
#
# usage: tools/epd_curve.sh [BINARY] [SUITE] [MAX_NODES | MAX_MSms]
#   defaults: target/release/chimera, tests/data/wac.epd, 2000000
#   A budget written with `ms` (2000ms) runs each position for that time instead and counts
#   by the time each answer came: the curve to use when a change makes nodes cheaper or
#   dearer, since a node curve cannot see that. Time curves need the cores to themselves.
#
# Why a curve: a count at one budget moves by several positions with any change to the search,
# meaningful or not; a change that helps moves the whole curve.
set -euo pipefail

binary=${1:-target/release/chimera}
suite=${2:-tests/data/wac.epd}
max=${3:-2000000}
if [[ $max == *ms ]]; then
    max=${max%ms}
    limit=(--movetime "$max")
    field=1 unit=ms scale=1
else
    limit=(--nodes "$max")
    field=2 unit=k scale=1000
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
parts=$(nproc 2>/dev/null || echo 1)
grep -v '^[[:space:]]*\(#\|$\)' "$suite" >"$out/suite.epd"
for ((i = 0; i < parts; i++)); do
    awk -v n="$parts" -v i="$i" 'NR % n == i' "$out/suite.epd" >"$out/part$i.epd"
    "$binary" epd "$out/part$i.epd" "${limit[@]}" >"$out/result$i.txt" &
done
wait

for ((i = 0; i < parts; i++)); do
    if ! tail -n 1 "$out/result$i.txt" | grep -q '^solved'; then
        echo "part $i: the run did not finish (see the error above)" >&2
        exit 1
    fi
done
# The found column reads TIMEms/NODES.
cat "$out"/result*.txt | awk -v max="$max" -v field="$field" -v unit="$unit" -v scale="$scale" '
    $1 == "solved" { split($2, t, "/"); total += t[2]; next }
    $(NF - 1) == "found" && $NF != "-" { sub("ms", "", $NF); split($NF, f, "/"); spent[++n] = f[field] }
    END {
        line = ""
        for (k = 1; k <= 10; k++) {
            b = int(max * k / 10)
            c = 0
            for (j = 1; j <= n; j++) if (spent[j] <= b) c++
            line = line sprintf("%d%s:%d ", b / scale, unit, c)
        }
        print line "of " total
    }'
