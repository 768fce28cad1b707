#!/usr/bin/env bash
# Instructions per operation, counted by callgrind, for the protojsonx, prost,
# generated-path and prost-reflect cases of the suite (decode_into and prost's
# clear + merge included):
# exact and repeatable where timings on a shared machine are not, so ratios
# between cases that take the same code path (option variants, shuffled keys)
# can be told apart from timing noise.
#
#   benches/scripts/instructions.sh PROFILE_BIN ALLOCS_TSV > instructions.tsv
#
# PROFILE_BIN is the release `profile` binary; ALLOCS_TSV (from the `allocs`
# binary) lists the cases. Each case runs N times under callgrind; the count
# of a run with no operations (the shared setup) is subtracted.
set -euo pipefail
bin=$1
cases=$2

runs_for() {
    case $1 in
        small/*) echo 20000 ;;
        medium/*) echo 5000 ;;
        order/*) echo 1000 ;;
        large/*) echo 100 ;;
        order-batch/*) echo 40 ;;
        otlp/*) echo 20 ;;
        *) echo 0 ;;   # not an operation the profile binary runs (schema/compile-tables)
    esac
}

count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

setup=$(count small/marshal/default/prost 0)
echo -e "group\timplementation\tinstructions_per_op"
tail -n +2 "$cases" | cut -f1,2 | while IFS=$'\t' read -r group impl; do
    case $impl in protojsonx* | prost | prost-reused-buf | prost-clear-merge | generated | prost-reflect) ;; *) continue ;; esac
    runs=$(runs_for "$group")
    [ "$runs" -gt 0 ] || continue
    total=$(count "$group/$impl" "$runs")
    echo -e "$group\t$impl\t$(( (total - setup) / runs ))"
done
