#!/usr/bin/env bash
# Is bin/sm3sum as fast as OpenSSL's own command-line tool? Hashes one file (1 GiB of random bytes,
# kept in ${TMPDIR:-/tmp} between runs) with a warm page cache, alternating `openssl dgst -sm3` and
# `bin/sm3sum` for ROUNDS rounds (the one that goes first changes every round), and prints the
# throughput of each from wall-clock time, JVM start-up included, with the best and median figures
# and the ratio sm3sum / openssl, also by CPU time, which the machine's other load disturbs less.
# Environment: ROUNDS (default 7), SIZE_MIB (default 1024).
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
rounds=${ROUNDS:-7}
size_mib=${SIZE_MIB:-1024}
bytes=$((size_mib * 1024 * 1024))
file=${TMPDIR:-/tmp}/sm3sum-bench-${size_mib}MiB.bin

if [[ ! -f $file || $(stat -c %s "$file") -ne $bytes ]]; then
    echo "creating $file ($bytes random bytes)" >&2
    head -c "$bytes" /dev/urandom > "$file.$$"
    mv -f "$file.$$" "$file"
fi
cat "$file" > /dev/null

# The first run may build the jar and the class-data archive; it is not timed.
want=$("$root/bin/sm3sum" "$file" | cut -d' ' -f1)
got=$(openssl dgst -sm3 -r "$file" | cut -d' ' -f1)
if [[ $want != "$got" ]]; then
    echo "digests differ: sm3sum $want, openssl $got" >&2
    exit 1
fi

# Runs the command once; prints the MB/s (10^6 bytes per second) by wall-clock time and by CPU time
# (user + system, which other load on the machine disturbs less).
rate() {
    local TIMEFORMAT='%R %U %S' times
    times=$({ time "$@" > /dev/null; } 2>&1)
    awk -v b="$bytes" -v t="$times" 'BEGIN {
        split(t, x, " ")
        printf "%.1f %.1f", b / x[1] / 1e6, b / (x[2] + x[3]) / 1e6 }'
}

ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'
}

# best (highest) and median of a list of numbers
stats() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
        m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf "%.3f %.3f", v[NR], m }'
}

echo "file: $file ($bytes bytes, page cache warm); $(openssl version); $("$root/bin/sm3sum" --version | tail -1)"
echo "MB/s by wall-clock time (JVM start-up included), and by CPU time"
printf '%-7s %14s %14s %8s   %14s %14s %8s\n' round "openssl wall" "sm3sum wall" ratio "openssl cpu" "sm3sum cpu" ratio
o_wall=() s_wall=() o_cpu=() s_cpu=() r_wall=() r_cpu=()
for ((r = 1; r <= rounds; r++)); do
    if ((r % 2)); then
        read -r ow oc <<< "$(rate openssl dgst -sm3 "$file")"
        read -r sw sc <<< "$(rate "$root/bin/sm3sum" "$file")"
    else
        read -r sw sc <<< "$(rate "$root/bin/sm3sum" "$file")"
        read -r ow oc <<< "$(rate openssl dgst -sm3 "$file")"
    fi
    o_wall+=("$ow") s_wall+=("$sw") o_cpu+=("$oc") s_cpu+=("$sc")
    r_wall+=("$(ratio "$sw" "$ow")") r_cpu+=("$(ratio "$sc" "$oc")")
    printf '%-7s %14s %14s %8s   %14s %14s %8s\n' "$r" "$ow" "$sw" "${r_wall[-1]}" "$oc" "$sc" "${r_cpu[-1]}"
done

read -r ow_best ow_median <<< "$(stats "${o_wall[@]}")"
read -r sw_best sw_median <<< "$(stats "${s_wall[@]}")"
read -r oc_best oc_median <<< "$(stats "${o_cpu[@]}")"
read -r sc_best sc_median <<< "$(stats "${s_cpu[@]}")"
read -r _ rw_median <<< "$(stats "${r_wall[@]}")"
read -r _ rc_median <<< "$(stats "${r_cpu[@]}")"
row() {
    printf '%-7s %14.1f %14.1f %8s   %14.1f %14.1f %8s\n' "$@"
}
row best "$ow_best" "$sw_best" "$(ratio "$sw_best" "$ow_best")" "$oc_best" "$sc_best" "$(ratio "$sc_best" "$oc_best")"
row median "$ow_median" "$sw_median" "$(ratio "$sw_median" "$ow_median")" \
    "$oc_median" "$sc_median" "$(ratio "$sc_median" "$oc_median")"
echo "median of the per-round ratios: wall $rw_median, cpu $rc_median"
