#!/usr/bin/env bash
# Runs Rookling's fuzz targets with AFL++ (through cargo-afl, stable Rust), one after
# another, each for SECONDS, starting from the committed corpus; prints each target's
# executions and fails if any input crashed or broke a property.
#
#   bash fuzz/fuzz.sh [SECONDS] [TARGET ...]     (default: 60 s, every target)
#   bash fuzz/fuzz.sh keep TARGET                (add the last run's new inputs to fuzz/corpus/TARGET)
#
# Installs cargo-afl from crates.io when missing (it builds AFL++ from the source it
# ships; needs a C compiler and make). Results: fuzz/out/TARGET/default/ (crashes/,
# queue/, fuzzer_stats). See docs/fuzzing.md.
set -euo pipefail
cd "$(dirname "$0")"

ALL=(fen uci_line uci_session movegen perft_modes epd units merge)

if ! cargo afl --version >/dev/null 2>&1; then
  cargo install cargo-afl --version 0.18.2 --locked
fi
# AFL++ itself, built once per Rust toolchain (cargo-afl refuses, harmlessly, when it
# is built already; a real failure shows in the build below).
cargo afl config --build >/dev/null 2>&1 || true
# AFL++ refuses to start on machines set up for other uses unless told these are fine:
# a core_pattern that pipes to a program, a CPU frequency governor, no free core to bind.
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
export AFL_NO_UI=1 AFL_QUIET=1
cargo afl build --release --quiet

if [ "${1:-}" = keep ]; then
  # Adds the inputs the last run of TARGET kept (its queue: each one reached new
  # coverage) to fuzz/corpus/TARGET, skipping any already there. (afl-cmin finds no
  # coverage in these persistent-mode targets and would empty the corpus.)
  target=$2
  added=0
  for input in "out/$target/default/queue"/id:*; do
    [ -f "$input" ] || continue
    name=q$(sha1sum "$input" | cut -c1-16)
    [ -e "corpus/$target/$name" ] && continue
    cp "$input" "corpus/$target/$name"
    added=$((added + 1))
  done
  echo "$target: $added inputs added, $(ls "corpus/$target" | wc -l) in all"
  exit 0
fi

seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${ALL[@]}")

failed=0
for target in "${targets[@]}"; do
  rm -rf "out/$target"
  mkdir -p out
  # -t: per-input time limit in ms (perft_modes counts up to depth 3 in four modes).
  cargo afl fuzz -i "corpus/$target" -o "out/$target" -V "$seconds" -t 5000 \
    "target/release/$target" >"out.$target.log" 2>&1 || {
    echo "$target: afl-fuzz failed:"; tail -20 "out.$target.log"; failed=1; continue; }
  rm -f "out.$target.log"
  stats="out/$target/default/fuzzer_stats"
  stat() { sed -n "s/^$1 *: //p" "$stats"; }
  crashes=$(find "out/$target/default/crashes" -type f ! -name README.txt | wc -l)
  echo "$target: $(stat execs_done) executions in $(stat run_time) s" \
    "($(stat execs_per_sec)/s), corpus $(stat corpus_count), crashes $crashes," \
    "hangs $(stat saved_hangs)"
  if [ "$crashes" -gt 0 ]; then
    failed=1
    for input in "out/$target/default/crashes"/id*; do
      echo "  failing input: fuzz/$input"
      ("target/release/$target" <"$input" 2>&1 || true) | grep -m1 -A1 panicked | sed 's/^/    /' || true
    done
  fi
done
exit $failed
