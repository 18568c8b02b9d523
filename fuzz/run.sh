#!/usr/bin/env bash
# Runs every fuzz target: `fuzz/run.sh SECONDS` for a timed pass of each (CI's smoke pass), or
# `fuzz/run.sh runs N` for N executions of each. Needs `cargo install cargo-fuzz`; works on the
# stable toolchain because no sanitizer is asked for (`-s none`), with debug assertions on (`-a`).
# New inputs go to fuzz/corpus/ (not committed); the committed seeds are in fuzz/seeds/.
set -euo pipefail
cd "$(dirname "$0")"
read -r -a targets <<< "${FUZZ_TARGETS:-fen san uci pgn net moves web}"
if [ "${1:-}" = runs ]; then
    limit=(-runs="${2:?how many runs}")
else
    limit=(-max_total_time="${1:-10}")
fi
cargo fuzz build -s none -O -a
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t"
    start=$(date +%s)
    set +e
    # Two bytes a move: 256 bytes make games of up to 128 plies (random games reach castling,
    # en passant and promotions well within that), four times as many runs as 4 KiB inputs.
    max_len=4096
    [ "$t" = moves ] && max_len=256
    cargo fuzz run "$t" -s none -O -a "corpus/$t" "seeds/$t" -- "${limit[@]}" -max_len=$max_len \
        -print_final_stats=1 > "fuzz-$t.log" 2>&1
    status=$?
    set -e
    grep -E "^(Done|stat::number_of_executed_units|==|ERROR|thread)" "fuzz-$t.log" || true
    echo "fuzz $t: $(( $(date +%s) - start )) s, exit $status"
    if [ "$status" -ne 0 ]; then
        echo "fuzz $t FAILED: see fuzz/artifacts/$t" >&2
        exit 1
    fi
done
