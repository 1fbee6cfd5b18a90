#!/usr/bin/env bash
# `ur train` end to end on finkel(pieces=2) (a few hundred games, about a second): it writes a
# network file with progress on stderr, the same seed writes the same file, --resume goes on
# from a checkpoint to the same network as one run, the net agent and (from a data directory
# without a table) the perfect level play from it, the ladder judges it by the table solved
# after (and --compare's grade table adds up), --target-depth trains reproducibly from search
# values, and a damaged, truncated or mismatched file is refused by --resume and by net with a
# message.
# Usage: train_small.sh <path-to-ur> [tests-dir]
source "$(dirname "$0")/lib.bash" "$@"
RULES='finkel(pieces=2)'
train() { "$UR" train --rules "$RULES" --hidden 8 --eval-every 160 --eval-games 20 "$@"; }

echo "check: ur train writes a network and reports its progress"
train --games 320 --seed 4 --out "$work/a.urn" >"$work/a.out" 2>"$work/a.err" ||
  fail "ur train exited $?: $(cat "$work/a.err")"
grep -q "320 games of self-play, seed 4, 8 hidden units -> $work/a.urn" "$work/a.out" ||
  fail "summary: $(cat "$work/a.out")"
grep -Eq "^games 320/320 .* games/s  vs greedy [0-9.]+% \(20 games\)  elapsed .* left 0 s$" \
  "$work/a.err" || fail "no final progress line: $(tail -n 2 "$work/a.err")"

echo "check: the same seed gives the same file; another seed another"
train --games 320 --seed 4 --out "$work/b.urn" >/dev/null 2>&1 || fail "second run exited $?"
cmp -s "$work/a.urn" "$work/b.urn" || fail "the same seed gave another network"
train --games 320 --seed 5 --out "$work/c.urn" >/dev/null 2>&1 || fail "seed 5 exited $?"
cmp -s "$work/a.urn" "$work/c.urn" && fail "another seed gave the same network"

echo "check: --resume from a checkpoint reaches the same network"
train --games 160 --seed 4 --out "$work/r.urn" >/dev/null 2>&1 || fail "first half exited $?"
train --games 320 --resume --out "$work/r.urn" >/dev/null 2>"$work/r.err" ||
  fail "resume exited $?: $(cat "$work/r.err")"
grep -q "resuming $work/r.urn at game 160 (seed 4" "$work/r.err" || fail "resume: $(head -1 "$work/r.err")"
cmp -s "$work/a.urn" "$work/r.urn" || fail "the resumed run gave another network"

echo "check: the net agent plays from it"
"$UR" tournament --rules "$RULES" --a "net(file=$work/a.urn)" --b random --games 20 >"$work/t.out" 2>&1 ||
  fail "tournament exited $?: $(cat "$work/t.out")"
grep -q "A = net(file=$work/a.urn)" "$work/t.out" || fail "tournament: $(head -1 "$work/t.out")"

echo "check: the perfect level plays a data directory's network where there is no table, and says so"
mkdir -p "$work/data/networks"
cp "$work/a.urn" "$work/data/networks/finkel_pieces_2.urn"
UR_DATA_DIR="$work/data" "$UR" play --rules "$RULES" --light computer --level perfect --dark random \
  --seed 3 --ascii </dev/null >"$work/p.out" 2>"$work/p.err" || fail "play exited $?: $(cat "$work/p.err")"
grep -q "strongest: learned, no exact table (net(depth=3))" "$work/p.err" || fail "note: $(cat "$work/p.err")"
grep -q "computer (strongest: learned, no exact table)" "$work/p.out" || fail "seat: $(head -3 "$work/p.out")"

echo "check: the ladder judges the network by the table it never read, the loss to five decimals"
UR_DATA_DIR="$work/data" "$UR" solve --rules "$RULES" >/dev/null 2>&1 || fail "solve exited $?"
UR_DATA_DIR="$work/data" "$UR" analyse --ladder 'net,net(depth=3)' --rules "$RULES" --games 10 \
  >"$work/l.out" 2>&1 || fail "ladder exited $?: $(cat "$work/l.out")"
for agent in 'net' 'net\(depth=3\)'; do
  grep -Eq "^$agent +accuracy .* mean loss [0-9]\.[0-9]{5} \(95% CI [0-9]\.[0-9]{5} \.\. [0-9]\.[0-9]{5}\) over [0-9]+ decisions" \
    "$work/l.out" || fail "ladder line of $agent: $(cat "$work/l.out")"
done

echo "check: --compare prints the grades by exact and estimated grade, adding up to its line"
UR_DATA_DIR="$work/data" "$UR" analyse --ladder greedy --compare --rules "$RULES" --games 10 \
  >"$work/c.out" 2>&1 || fail "compare exited $?: $(cat "$work/c.out")"
read -r same decisions < <(sed -nE 's|^greedy +net\(depth=2\): same grade ([0-9]+)/([0-9]+) .*|\1 \2|p' "$work/c.out")
[ -n "$decisions" ] || fail "compare line: $(cat "$work/c.out")"
grep -Eq '^  exact \\ estimated +best +good +inaccuracy +mistake +blunder$' "$work/c.out" ||
  fail "grade table head: $(cat "$work/c.out")"
awk -v same="$same" -v decisions="$decisions" '
  $1 ~ /^(best|good|inaccuracy|mistake|blunder)$/ && NF == 6 {
    rows++; for (i = 2; i <= 6; i++) { all += $i; if (i == rows + 1) diag += $i } }
  END { exit !(rows == 5 && all == decisions && diag == same) }' "$work/c.out" ||
  fail "the grade table does not add up to $same of $decisions: $(cat "$work/c.out")"

echo "check: --target-depth trains from search values, reproducibly, to another network"
train --games 160 --seed 4 --target-depth 1 --out "$work/s1.urn" >/dev/null 2>&1 || fail "search targets exited $?"
train --games 160 --seed 4 --target-depth 1 --threads 1 --out "$work/s2.urn" >/dev/null 2>&1 ||
  fail "search targets, one thread, exited $?"
cmp -s "$work/s1.urn" "$work/s2.urn" || fail "search targets: the same seed gave another network"
train --games 160 --seed 4 --out "$work/p.urn" >/dev/null 2>&1 || fail "plain 160 games exited $?"
cmp -s "$work/s1.urn" "$work/p.urn" && fail "search targets gave plain TD's network"
train --games 160 --target-depth 5 --out "$work/s3.urn" >/dev/null 2>"$work/s3.err" && fail "depth 5 accepted"
grep -q "target-depth" "$work/s3.err" || fail "bad depth: $(cat "$work/s3.err")"

echo "check: damaged, truncated and mismatched files are refused"
cp "$work/a.urn" "$work/d.urn"
printf '\x55' | dd of="$work/d.urn" bs=1 seek=100 conv=notrunc 2>/dev/null
head -c 200 "$work/a.urn" >"$work/t.urn"
for f in d t; do
  train --games 400 --resume --out "$work/$f.urn" >/dev/null 2>"$work/$f.err" && fail "$f: resume accepted"
  grep -q "checksum mismatch" "$work/$f.err" || fail "$f: $(cat "$work/$f.err")"
  "$UR" tournament --rules "$RULES" --a "net(file=$work/$f.urn)" --b random --games 2 >"$work/$f.out" 2>&1 &&
    fail "$f: net accepted it"
  grep -q "checksum mismatch" "$work/$f.out" || fail "$f net: $(cat "$work/$f.out")"
done
"$UR" train --rules finkel --games 400 --resume --out "$work/a.urn" >/dev/null 2>"$work/m.err" &&
  fail "resume accepted another rule set's network"
grep -q "was trained for rule set finkel(pieces=2), not finkel" "$work/m.err" || fail "mismatch: $(cat "$work/m.err")"
exit $status
