#!/usr/bin/env bash
# Damaged Syzygy tables against the engine, as a hostile user's copy would be: a
# table cut short, zeroed, its bits flipped (a few in its header, more anywhere), or a
# directory or FIFO in its place, each beside the intact others of ../shared. The
# engine loads the path, searches a position of that table's material and must
# answer a bestmove and exit 0 on quit: no abort, fault, hang or block (before the
# checks of engine/syzygy_files.h, the child-process probes with Fathom's buffers fenced
# and the fault guard, 51 of 104 such copies of four tables crashed or hung it).
set -uo pipefail
UCI="$PWD/$1"
shared="$(dirname "$(readlink -f configs/engines/default.textproto)")/../../../shared/tablebases/syzygy"
if [[ ! -d "$shared" ]]; then
  echo "SKIP: ../shared/tablebases is absent; no damaged copy of a table to load"
  exit 0
fi
WORK="${TEST_TMPDIR:-$(mktemp -d)}/damaged_tables"
rm -rf "$WORK"; mkdir -p "$WORK"
kinds=(cut16 cut1040 zeros flip1 flip2 flip3 flip4 flip5 flip6 flip7 flip8 dir fifo)
# Under a sanitizer (5-20x slower) the kinds that crashed the most before, no flips.
[[ -n "${CHESS_HARNESS_SANITIZED:-}" ]] && kinds=(cut16 cut1040 zeros dir fifo)
failures=0 cases=0
for table in KQvK KRvKP KPvKP; do
  case $table in
    KQvK) fen="8/8/8/3k4/8/8/1Q6/K7 w - - 0 1" ;;
    KRvKP) fen="8/8/8/3k4/8/3p4/1R6/K7 w - - 0 1" ;;
    KPvKP) fen="8/8/3p4/3k4/8/3P4/8/K7 w - - 0 1" ;;
  esac
  for kind in "${kinds[@]}"; do
    for suffix in rtbw rtbz; do
      cases=$((cases + 1))
      dir="$WORK/$cases"; mkdir -p "$dir"; cp "$shared"/* "$dir"/; chmod u+w "$dir"/*
      file="$dir/$table.$suffix"
      case $kind in
        cut16) truncate -s 16 "$file" ;;
        cut1040) truncate -s 1040 "$file" ;;
        zeros) dd if=/dev/zero of="$file" bs=1 seek=4 count=$(( $(stat -c %s "$file") / 2 )) \
                 conv=notrunc 2>/dev/null ;;
        flip*) python3 - "$file" "${kind#flip}" "$cases" <<'FLIP'
import random, sys
path, k, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
r = random.Random(seed)
b = bytearray(open(path, 'rb').read())
for _ in range(3 * k):
    i = r.randrange(4, min(len(b), 400) if k < 5 else len(b))
    b[i] ^= 1 << r.randrange(8)
open(path, 'wb').write(b)
FLIP
        ;;
        dir) rm "$file"; mkdir "$file" ;;
        fifo) rm "$file"; mkfifo "$file" ;;
      esac
      out=$( (printf 'setoption name SyzygyPath value %s\nposition fen %s\ngo depth 10\n' "$dir" "$fen"
              sleep 0.5; echo quit) | timeout 60 "$UCI" 2>&1); rc=$?
      if (( rc != 0 )) || ! grep -q '^bestmove [a-h][1-8]' <<<"$out"; then
        echo "FAIL: $table.$suffix $kind: exit $rc: $(grep -v '^info depth' <<<"$out" | tail -3)"
        failures=$((failures + 1))
      fi
      rm -rf "$dir"
    done
  done
done
echo "$((cases - failures)) passed, $failures failed"
(( failures == 0 ))
