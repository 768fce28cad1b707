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
# of a run of its payload's case with no operations (the setup: `profile`
# builds only the payload a case names) is subtracted.
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

declare -A setup   # payload -> instructions of its setup
echo -e "group\timplementation\tinstructions_per_op"
while IFS=$'\t' read -r group impl; do
    case $impl in protojsonx* | prost | prost-reused-buf | prost-clear-merge | generated | prost-reflect) ;; *) continue ;; esac
    runs=$(runs_for "$group")
    [ "$runs" -gt 0 ] || continue
    payload=${group%%/*}
    [ -n "${setup[$payload]:-}" ] || setup[$payload]=$(count "$group/$impl" 0)
    total=$(count "$group/$impl" "$runs")
    echo -e "$group\t$impl\t$(( (total - setup[$payload]) / runs ))"
done < <(tail -n +2 "$cases" | cut -f1,2)
