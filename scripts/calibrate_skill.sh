#!/usr/bin/env bash
# Measures Fianchetto's Skill Levels in Elo against the reference ladder of ../shared/tools/
# (HoiChess ~1800, Fairy-Max ~1950, Sjeng ~2300, GNU Chess 6 ~2650), for UCI_Elo (issue 13).
#
#   scripts/calibrate_skill.sh BINARY LEVEL OPPONENT [GAMES]
#
# OPPONENT is hoichess, fairymax, sjeng or gnuchess. One line of match.py's result per run;
# a level's Elo is the opponent's rating plus the measured difference. Levels below the
# ladder's lowest rung are measured against the level above them (chaining), e.g.
#   scripts/calibrate_skill.sh target/release/fianchetto 2 "level4" 100
# where OPPONENT levelN means this binary at Skill Level N.
set -euo pipefail
BIN=$1 LEVEL=$2 OPP=$3 GAMES=${4:-100}
TOOLS=$(dirname "$0")/../../shared/tools
case $OPP in
  hoichess) ENGINE="hoichess=xboard:/usr/games/hoichess" ;;
  fairymax) ENGINE="fairymax=xboard:/usr/games/fairymax" ;;
  sjeng) ENGINE="sjeng=xboard:/usr/games/sjeng" ;;
  gnuchess) ENGINE="gnuchess=/usr/games/gnuchess --uci" ;;
  level*) ENGINE="$OPP=$BIN" ;;
  *) echo "unknown opponent $OPP" >&2; exit 2 ;;
esac
# Fairy-Max cannot set up a position: it plays from the initial position only.
OPENINGS=()
[ "$OPP" = fairymax ] || OPENINGS=(--openings "$TOOLS/../data/openings/8mvs_+90_+99.epd" --shuffle)
OPTS=(--option "skill$LEVEL:Skill Level=$LEVEL")
[[ $OPP == level* ]] && OPTS+=(--option "$OPP:Skill Level=${OPP#level}")
python3 "$TOOLS/match.py" --engine "skill$LEVEL=$BIN" --engine "$ENGINE" "${OPTS[@]}" \
  --tc 5+0.05 --games "$GAMES" "${OPENINGS[@]}" --concurrency 1 | grep -A1 "=== Result"
