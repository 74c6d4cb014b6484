#!/usr/bin/env bash
# Judges a build on a suite and on its two mirror images (colours swapped, files reversed):
# prints the curve of each (see epd_curve.sh) with the sum of its ten counts, then the sum of
# the three sums. The mirrors hold the same tactics in other trees, so a search change that
# only reshuffles the tree moves the three sums in different directions, and one that helps
# moves all of them; on Win At Chess at 1M nodes one suite's sum moves by about 20 either way
# for a change that does nothing.
#
# usage: tools/epd_judge.sh [BINARY] [SUITE] [MAX_NODES | MAX_MSms]
#   defaults: target/release/chimera, tests/data/wac.epd, 1000000
# needs: python-chess (`pip install chess`) for the mirrors.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
binary=${1:-target/release/chimera}
suite=${2:-tests/data/wac.epd}
max=${3:-1000000}

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
name=$(basename "$suite" .epd)
cp "$suite" "$dir/$name.epd"
python3 "$here/epd_mirror.py" "$suite" colors >"$dir/$name-colors.epd"
python3 "$here/epd_mirror.py" "$suite" files >"$dir/$name-files.epd"

total=0
for s in "$dir/$name.epd" "$dir/$name-colors.epd" "$dir/$name-files.epd"; do
    curve=$("$here/epd_curve.sh" "$binary" "$s" "$max")
    # The counts are the numbers after each "budget:".
    sum=$(tr ' ' '\n' <<<"$curve" | awk -F: 'NF == 2 { s += $2 } END { print s + 0 }')
    total=$((total + sum))
    echo "$(basename "$s" .epd): $curve sum $sum"
done
echo "total $total"
