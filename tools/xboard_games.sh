#!/usr/bin/env bash
# Chimera against itself through real XBoard (4.9) under Xvfb, one short game per line of
# GAMES below: the seed games Pawn Vault, Pioneer and Alice from the start and from an opening
# that holds every move kind written as a person types it (tools/xboard/*.pgn), then Vanguard,
# chess, Capablanca and S-Chess as a regression; Vanguard also four times at lower skill
# levels with fixed seeds (each game different), which brings the multi-leg moves, the
# Wizard's swaps and the General's long sideways moves that once cost forfeits. A game passes when XBoard's PGN has a result
# and its debug log shows no illegal move, no forfeit and no engine error.
#
# Usage: tools/xboard_games.sh [NAME...]   (names from GAMES; all by default)
# Env:   ENGINE (target/release/chimera), OUT (target/xboard-games), DEPTH (5: each move is
#        searched to this depth, so that games are quick and no clock falls on a busy
#        machine), TC (2 minutes a game), INC (0)
# Exit:  0 all passed, 1 a game failed, 77 xboard, xvfb-run or xdotool missing (skip).
set -u
cd "$(dirname "$0")/.."
ENGINE=${ENGINE:-$PWD/target/release/chimera}
OUT=${OUT:-$PWD/target/xboard-games}
DEPTH=${DEPTH:-5}
TC=${TC:-2}
INC=${INC:-0}
XBOARD=$(command -v xboard || echo /usr/games/xboard)
if [ ! -x "$XBOARD" ] || ! command -v Xvfb >/dev/null || ! command -v xdotool >/dev/null; then
    echo "SKIP: xboard, Xvfb or xdotool not installed (apt-get install xboard xvfb xdotool)" >&2
    exit 77
fi
if [ ! -x "$ENGINE" ]; then
    echo "no engine at $ENGINE (cargo build --release)" >&2
    exit 1
fi

# name | variant | moves (or -) | XBoard options beyond the common ones
# Without moves: a whole game, Chimera against Chimera. With moves (tools/xboard/*.pgn, every
# move kind of the game in XBoard's long algebraic notation): a person's game, the moves typed
# into XBoard's board window one by one (xdotool), XBoard relaying each to Chimera (in force
# mode), then Chimera told to play the side to move (Ctrl+W / Ctrl+B), and a screenshot.
# (Loading the moves with -lgf instead races XBoard 4.9's reading of the engine's `setup`.)
GAMES=(
    "pawnvault|pawnvault|-|-testLegality false"
    "pawnvault-person|pawnvault|tools/xboard/pawnvault.pgn|-testLegality false"
    "pioneer|pioneer|-|-testLegality false"
    "pioneer-person|pioneer|tools/xboard/pioneer.pgn|-testLegality false"
    "alice|alice|-|-testLegality false"
    "alice-person|alice|tools/xboard/alice.pgn|-testLegality false"
    "vanguard|vanguard|-|-testLegality false -rankOffset 1 -firstOptions RankBase=0 -secondOptions RankBase=0 -searchDepth 3 -tc 5"
    "vanguard-2|vanguard|-|-testLegality false -rankOffset 1 -firstOptions 'RankBase=0,Skill Level=15,Skill Seed=1' -secondOptions 'RankBase=0,Skill Level=15,Skill Seed=2' -searchDepth 4 -tc 5"
    "vanguard-3|vanguard|-|-testLegality false -rankOffset 1 -firstOptions 'RankBase=0,Skill Level=15,Skill Seed=3' -secondOptions 'RankBase=0,Skill Level=15,Skill Seed=4' -searchDepth 4 -tc 5"
    "vanguard-4|vanguard|-|-testLegality false -rankOffset 1 -firstOptions 'RankBase=0,Skill Level=12,Skill Seed=5' -secondOptions 'RankBase=0,Skill Level=12,Skill Seed=6' -searchDepth 4 -tc 5"
    "vanguard-5|vanguard|-|-testLegality false -rankOffset 1 -firstOptions 'RankBase=0,Skill Level=12,Skill Seed=7' -secondOptions 'RankBase=0,Skill Level=12,Skill Seed=8' -searchDepth 4 -tc 5"
    "chess|normal|-|"
    "capablanca|capablanca|-|"
    "seirawan|seirawan|-|"
)

# Starts a private Xvfb and sets xvfb (its pid) and n (its display number). Xvfb picks a free
# display itself and writes its number to fd 3, so games started at once never race for one
# (xvfb-run -a guesses from lock files, which two runs can read at the same moment).
start_xvfb() {
    local dfile=$1 i
    n=""
    Xvfb -displayfd 3 -screen 0 1280x1024x24 3>"$dfile" >/dev/null 2>&1 &
    xvfb=$!
    for i in $(seq 1 50); do
        n=$(cat "$dfile" 2>/dev/null)
        [ -n "$n" ] && break
        sleep 0.1
    done
}

# A person's game: types the moves of $1 into XBoard under a private Xvfb display, in the
# directory $2, with XBoard options $3...; sets rc, relayed, answered.
person_game() {
    local moves=$1 dir=$2 i
    shift 2
    start_xvfb "$dir/display"
    DISPLAY=":$n" "$XBOARD" -settingsFile "$dir/xboardrc" -saveSettingsFile "$dir/xboardrc" \
        -fcp "$ENGINE xboard" -fd "$dir" -tc "$TC" -inc "$INC" -searchDepth "$DEPTH" \
        -mode EditGame \
        -ponderNextMove false -popupExitMessage false -popupMoveErrors false \
        -debug -nameOfDebugFile "$dir/debug.txt" "$@" >"$dir/xboard.out" 2>&1 &
    local xb=$!
    local w=""
    for i in $(seq 1 50); do
        sleep 0.2
        grep -aq '<first : pong' "$dir/debug.txt" 2>/dev/null || continue
        w=$(DISPLAY=":$n" xdotool search --class xboard 2>/dev/null | tail -1)
        [ -n "$w" ] && break
    done
    local count=0 m
    for m in $(sed -e '/^\[/d' -e 's/[0-9]*\.//g' -e 's/\*//g' "$moves"); do
        # Focus the board window (a click on the message line), type the move, Enter.
        DISPLAY=":$n" xdotool mousemove --window "$w" 60 60 click 1 >/dev/null 2>&1
        sleep 0.2
        DISPLAY=":$n" xdotool type --window "$w" --delay 30 "$m" >/dev/null 2>&1
        sleep 0.2
        DISPLAY=":$n" xdotool key Return >/dev/null 2>&1
        sleep 0.5
        count=$((count + 1))
    done
    # Chimera plays the side to move.
    local key=ctrl+w
    [ $((count % 2)) -eq 1 ] && key=ctrl+b
    DISPLAY=":$n" xdotool mousemove --window "$w" 60 60 click 1 >/dev/null 2>&1
    DISPLAY=":$n" xdotool key "$key" >/dev/null 2>&1
    for i in $(seq 1 40); do
        sleep 0.25
        grep -aq '<first : move ' "$dir/debug.txt" 2>/dev/null && break
    done
    sleep 1
    DISPLAY=":$n" import -window root "$dir/board.png" >/dev/null 2>&1
    kill "$xb" 2>/dev/null
    wait "$xb" 2>/dev/null
    kill "$xvfb" 2>/dev/null
    wait "$xvfb" 2>/dev/null
    rc=0
    [ -n "$w" ] || rc=2
    want=$count
    answered=$(grep -a -c '<first : move ' "$dir/debug.txt" 2>/dev/null)
}

# One game: plays it in $OUT/$1 and prints one line, `ok ...` or `FAIL ...`; fails with it.
play_game() {
    local name=$1 variant=$2 opening=$3 extra=$4
    local dir rc start secs bad relayed result reason want answered n xvfb extra_arr
    dir="$OUT/$name"
    rm -rf "$dir"
    mkdir -p "$dir"
    : >"$dir/xboardrc"
    start=$(date +%s)
    if [ "$opening" = "-" ]; then
        # The options as the shell would split them, quotes kept ('Skill Level=15').
        eval "extra_arr=($extra)"
        start_xvfb "$dir/display"
        DISPLAY=":$n" timeout 240 "$XBOARD" \
            -settingsFile "$dir/xboardrc" -saveSettingsFile "$dir/xboardrc" \
            -fcp "$ENGINE xboard" -fd "$dir" -scp "$ENGINE xboard" -sd "$dir" \
            -variant "$variant" -matchGames 1 -tc "$TC" -inc "$INC" -searchDepth "$DEPTH" \
            -ponderNextMove false -autoCallFlag true -popupExitMessage false \
            -popupMoveErrors false -adjudicateDrawMoves 150 \
            -debug -nameOfDebugFile "$dir/debug.txt" -saveGameFile "$dir/game.pgn" \
            "${extra_arr[@]}" >"$dir/xboard.out" 2>&1
        rc=$?
        kill "$xvfb" 2>/dev/null
        wait "$xvfb" 2>/dev/null
    else
        # shellcheck disable=SC2086
        person_game "$opening" "$dir" -variant "$variant" $extra
    fi
    secs=$(($(date +%s) - start))
    bad=$(grep -a -i -E 'illegal move|forfeit|invalid move|Error \(|tellusererror|ImpossibleMove|not parse' \
        "$dir/debug.txt" "$dir/xboard.out" 2>/dev/null | head -3)
    relayed=$(grep -a -c '>\(first \|second\): usermove' "$dir/debug.txt" 2>/dev/null)
    if [ "$opening" != "-" ]; then
        if [ $rc -ne 0 ] || [ -n "$bad" ] || [ "$relayed" -ne "$want" ] || [ "$answered" -lt 1 ]; then
            echo "FAIL $name ($variant): rc=$rc, $relayed of $want moves relayed, $answered answers"
            [ -n "$bad" ] && echo "$bad" | sed 's/^/    /'
            return 1
        else
            echo "ok   $name ($variant): all $want moves of $opening typed, relayed and accepted; engine answered; $dir/board.png"
        fi
        return 0
    fi
    result=$(grep -a -o '^\[Result "[^"]*"\]' "$dir/game.pgn" 2>/dev/null | tail -1)
    reason=$(grep -a -o '{[^}]*} *\(1-0\|0-1\|1/2-1/2\)' "$dir/game.pgn" 2>/dev/null | tail -1)
    case "$reason" in *"on time"*) bad="lost on time: $reason" ;; esac
    if [ $rc -ne 0 ] || [ -z "$result" ] || [ "$result" = '[Result "*"]' ] || [ -n "$bad" ]; then
        echo "FAIL $name ($variant): rc=$rc ${result:-no PGN} ${secs}s"
        [ -n "$bad" ] && echo "$bad" | sed 's/^/    /'
        return 1
    else
        echo "ok   $name ($variant): $result $reason, $relayed moves relayed, ${secs}s"
    fi
}

# Every game at once, each in the background with its own display: a game mostly waits on
# XBoard and on the typing, not on the processor. The reports come out in the table's order.
mkdir -p "$OUT"
names=()
for line in "${GAMES[@]}"; do
    IFS='|' read -r name variant opening extra <<<"$line"
    if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then
        continue
    fi
    names+=("$name")
    play_game "$name" "$variant" "$opening" "$extra" >"$OUT/$name.report" 2>&1 &
done
wait
failed=0
for name in "${names[@]}"; do
    cat "$OUT/$name.report"
    grep -q '^ok ' "$OUT/$name.report" || failed=1
done
exit $failed
