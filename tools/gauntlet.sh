#!/usr/bin/env bash
# tools/gauntlet.sh: Chimera against Fairy-Stockfish, one `chimera match` per variant, then one
# table of the results from Chimera's side (W-D-L, score, Elo with its 95% error bar).
#
# usage: tools/gauntlet.sh [NAME=VALUE ...]   (or the same names in the environment)
#
#   VARIANTS      variants played               "chess capablanca grand seirawan berolina"
#   TC            time control, BASE+INC (s)    10+0.1
#   FSF_TC        Fairy-Stockfish's own tc (time odds, the engine spec's tc= key); empty: TC
#   GAMES         games per variant             200
#   CONCURRENCY   games at once                 1
#   HASH          MB of hash per engine         64
#   PLIES         random opening plies          8 (pairs share one, colours swapped)
#   SEED          seed of the random openings   1
#   CHIMERA       Chimera binary                target/release/chimera (built if missing)
#   FSF           Fairy-Stockfish binary        fairy-stockfish on PATH, else
#                                               /usr/games/fairy-stockfish (installed if missing)
#   FSF_VARIANTS  a variants.ini for Fairy-Stockfish's VariantPath option (empty: none)
#   OUT           output folder                 gauntlet-out
#
# Each engine plays with one thread. Per variant: OUT/VARIANT.pgn (written afresh) and
# OUT/VARIANT.log (the match's progress lines and summary); the table goes to standard output
# and OUT/summary.txt. A variant the Fairy-Stockfish build does not offer is skipped (Debian's
# 11.1 has no berolina and no custom pieces to define it with; a build of the current source
# has it, see docs/matches.md); the exit status is non-zero if any other match failed.

set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)

for arg in "$@"; do
    case "$arg" in
        -h | --help)
            sed -n '2,/^$/s/^# \{0,1\}//p' "$0"
            exit 0
            ;;
        VARIANTS=* | TC=* | FSF_TC=* | GAMES=* | CONCURRENCY=* | HASH=* | PLIES=* | SEED=* | \
            CHIMERA=* | FSF=* | FSF_VARIANTS=* | OUT=*)
            export "${arg?}"
            ;;
        *)
            echo "gauntlet: unknown argument '$arg' (see --help)" >&2
            exit 2
            ;;
    esac
done

VARIANTS=${VARIANTS:-chess capablanca grand seirawan berolina}
TC=${TC:-10+0.1}
FSF_TC=${FSF_TC:-}
GAMES=${GAMES:-200}
CONCURRENCY=${CONCURRENCY:-1}
HASH=${HASH:-64}
PLIES=${PLIES:-8}
SEED=${SEED:-1}
FSF_VARIANTS=${FSF_VARIANTS:-}
OUT=${OUT:-gauntlet-out}

# Chimera: build the release binary if it is not there.
if [[ -z "${CHIMERA:-}" ]]; then
    CHIMERA="${CARGO_TARGET_DIR:-$root/target}/release/chimera"
    if [[ ! -x "$CHIMERA" ]]; then
        echo "gauntlet: building $CHIMERA" >&2
        (cd "$root" && "${CARGO:-cargo}" build --release)
    fi
fi
if [[ ! -x "$CHIMERA" ]]; then
    echo "gauntlet: no Chimera binary at '$CHIMERA'" >&2
    exit 1
fi

# Fairy-Stockfish: Debian's package installs /usr/games/fairy-stockfish.
if [[ -z "${FSF:-}" ]]; then
    FSF=$(command -v fairy-stockfish || true)
    [[ -n "$FSF" ]] || FSF=/usr/games/fairy-stockfish
    if [[ ! -x "$FSF" ]]; then
        if [[ $(id -u) -eq 0 ]]; then
            echo "gauntlet: installing fairy-stockfish" >&2
            apt-get install -y fairy-stockfish || { apt-get update && apt-get install -y fairy-stockfish; }
        else
            echo "################################################################" >&2
            echo "gauntlet: Fairy-Stockfish is not installed and we are not root." >&2
            echo "  sudo apt-get install fairy-stockfish   (or set FSF=/path/to/it)" >&2
            echo "################################################################" >&2
            exit 1
        fi
    fi
fi
if [[ ! -x "$FSF" ]]; then
    echo "gauntlet: no Fairy-Stockfish binary at '$FSF'" >&2
    exit 1
fi

mkdir -p "$OUT"
chimera_spec="cmd=\"$CHIMERA\" proto=uci name=Chimera option.Hash=$HASH option.Threads=1"
fsf_spec="cmd=\"$FSF\" proto=uci name=Fairy-Stockfish option.Hash=$HASH option.Threads=1"
[[ -z "$FSF_TC" ]] || fsf_spec+=" tc=$FSF_TC"
[[ -z "$FSF_VARIANTS" ]] || fsf_spec+=" option.VariantPath=\"$FSF_VARIANTS\""

echo "gauntlet: Chimera ($CHIMERA) vs Fairy-Stockfish ($FSF), $GAMES games per variant," \
    "tc $TC${FSF_TC:+ (Fairy-Stockfish $FSF_TC)}, concurrency $CONCURRENCY, hash $HASH MB," \
    "$PLIES random plies, seed $SEED; output in $OUT/" >&2

rows=()
failed=0
for v in $VARIANTS; do
    pgn="$OUT/$v.pgn"
    log="$OUT/$v.log"
    rm -f "$pgn"
    echo "gauntlet: $v ..." >&2
    status=0
    "$CHIMERA" match --engine "$chimera_spec" --engine "$fsf_spec" --variant "$v" \
        --games "$GAMES" --tc "$TC" --concurrency "$CONCURRENCY" --random-plies "$PLIES" \
        --seed "$SEED" --pgn "$pgn" >"$log" 2>&1 || status=$?
    # The match's last line: "Result: W-D-L N games, score S%, Elo E +/- X".
    result=$(grep '^Result: ' "$log" | tail -n 1 || true)
    if [[ $status -eq 0 && -n "$result" ]]; then
        read -r wdl games score elo err < <(
            sed -E 's/^Result: ([0-9]+-[0-9]+-[0-9]+) ([0-9]+) games, score ([0-9.]+%), Elo ([^ ]+) \+\/- (.+)$/\1 \2 \3 \4 \5/' <<<"$result"
        )
        forfeits=$(sed -n 's/^Forfeits: //p' "$log" | tail -n 1)
        rows+=("$(printf '%-12s %-12s %6s %6s  %-18s %s' "$v" "$wdl" "$games" "$score" "$elo +/- $err" "$forfeits")")
    elif grep -q 'does not offer the variant' "$log"; then
        rm -f "$pgn"
        rows+=("$(printf '%-12s skipped: this Fairy-Stockfish does not offer it (see FSF, FSF_VARIANTS)' "$v")")
    else
        failed=1
        rows+=("$(printf '%-12s FAILED (exit %s): %s' "$v" "$status" "$(tail -n 1 "$log")")")
    fi
done

{
    echo "Chimera vs Fairy-Stockfish, tc $TC${FSF_TC:+ (Fairy-Stockfish $FSF_TC)}, $PLIES random plies"
    printf '%-12s %-12s %6s %6s  %-18s %s\n' variant "W-D-L" games score "Elo (95%)" forfeits
    printf '%s\n' "${rows[@]}"
} | tee "$OUT/summary.txt"
exit "$failed"
