#!/usr/bin/env bash
# The `bench` speed table of issue 11: Fianchetto with its net, with the hand-crafted
# evaluation, and Ethereal 12's own bench, interleaved ROUNDS times so that all three see the
# same machine. Run it with nothing else running: every number is single-threaded nps.
#
#   scripts/nps_table.sh [BINARY] [ROUNDS]
#
# Prints one line per run and then the median nps of each, and the net's share of the
# hand-crafted build's speed.
set -euo pipefail
BIN=${1:-target/release/fianchetto} ROUNDS=${2:-3}
ETHEREAL=${ETHEREAL:-/usr/games/ethereal-chess}

nps_of() { awk '/nps/ { for (i = 1; i < NF; i++) if ($(i + 1) == "nps") v = $i } END { print v }'; }
declare -a NNUE HCE ETH
for r in $(seq "$ROUNDS"); do
  n=$("$BIN" bench 2>&1 | nps_of)
  h=$("$BIN" bench --net hce 2>&1 | nps_of)
  NNUE+=("$n") HCE+=("$h")
  line="round $r: nnue $n nps, hce $h nps"
  if [ -x "$ETHEREAL" ]; then
    e=$("$ETHEREAL" bench 2>&1 | awk '/^NPS/ { print $3 }')
    ETH+=("$e")
    line="$line, ethereal $e nps"
  fi
  echo "$line"
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
mn=$(median "${NNUE[@]}") mh=$(median "${HCE[@]}")
echo "median: nnue $mn nps, hce $mh nps$( [ ${#ETH[@]} -gt 0 ] && echo ", ethereal $(median "${ETH[@]}") nps")"
awk -v n="$mn" -v h="$mh" 'BEGIN { printf "nnue / hce: %.0f %%\n", 100 * n / h }'
