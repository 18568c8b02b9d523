#!/usr/bin/env bash
# Fetches the complete 3-4-piece Syzygy tables (35 WDL + 35 DTZ files, 4.3 MB) into a cache
# folder and prints the folder. They ship inside python-chess's source distribution (the tables
# are data; the package is GPL, so they are fetched for tests, not committed):
#   pip download --no-deps --no-binary :all: chess==1.11.2  ->  data/syzygy/regular/
# Usage: TB=$(scripts/fetch_syzygy.sh [CACHE_DIR])
set -euo pipefail
CACHE=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/fianchetto/syzygy-3-4}
if [ "$(ls "$CACHE"/*.rtbw 2>/dev/null | wc -l)" -ge 35 ]; then
  echo "$CACHE"
  exit 0
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pip download -q --no-deps --no-binary :all: chess==1.11.2 -d "$TMP" >&2
tar -xzf "$TMP"/chess-1.11.2.tar.gz -C "$TMP" chess-1.11.2/data/syzygy/regular
mkdir -p "$CACHE"
cp "$TMP"/chess-1.11.2/data/syzygy/regular/*.rtb[wz] "$CACHE"/
echo "$CACHE"
