#!/usr/bin/env bash
# Measures Fianchetto's strength levels in Elo against the reference ladder of ../shared/tools/
# (HoiChess ~1800, Fairy-Max ~1950, Sjeng ~2300, GNU Chess 6 ~2650), for UCI_Elo (issue 13).
#
#   scripts/calibrate_skill.sh BINARY LEVEL OPPONENT [GAMES]
#
# LEVEL is a Skill Level (0-20) or eloN (UCI_LimitStrength with UCI_Elo N). OPPONENT is
# hoichess, fairymax, sjeng or gnuchess, or another level of this binary (levelN or eloN) for
# the ratings below the ladder's lowest rung (chaining: each measured against the one above).
# Prints match.py's result line; a level's Elo is the opponent's rating plus the difference.
set -euo pipefail
BIN=$1 LEVEL=$2 OPP=$3 GAMES=${4:-100}
TOOLS=$(dirname "$0")/../../shared/tools

# The UCI options that make this binary play at level $1, for engine name $2.
options() {
  case $1 in
    elo*) echo "--option $2:UCI_LimitStrength=true --option $2:UCI_Elo=${1#elo}" ;;
    level*) echo "--option $2:Skill Level=${1#level}" ;;
    *) echo "--option $2:Skill Level=$1" ;;
  esac
}
case $OPP in
  hoichess) ENGINE="hoichess=xboard:/usr/games/hoichess" ;;
  fairymax) ENGINE="fairymax=xboard:/usr/games/fairymax" ;;
  sjeng) ENGINE="sjeng=xboard:/usr/games/sjeng" ;;
  gnuchess) ENGINE="gnuchess=/usr/games/gnuchess --uci" ;;
  level* | elo*) ENGINE="$OPP=$BIN" ;;
  *) echo "unknown opponent $OPP" >&2; exit 2 ;;
esac
ME="f$LEVEL"
# Fairy-Max cannot set up a position: it plays from the initial position only.
OPENINGS=()
[ "$OPP" = fairymax ] || OPENINGS=(--openings "$TOOLS/../data/openings/8mvs_+90_+99.epd" --shuffle)
OPTS=()
while read -r flag value; do OPTS+=("$flag" "$value"); done < <(options "$LEVEL" "$ME" | sed 's/ --option /\n--option /g')
if [[ $OPP == level* || $OPP == elo* ]]; then
  while read -r flag value; do OPTS+=("$flag" "$value"); done < <(options "$OPP" "$OPP" | sed 's/ --option /\n--option /g')
fi
python3 "$TOOLS/match.py" --engine "$ME=$BIN" --engine "$ENGINE" "${OPTS[@]}" \
  --tc 5+0.05 --games "$GAMES" "${OPENINGS[@]}" --concurrency 1 | grep -A1 "=== Result"
