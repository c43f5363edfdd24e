#!/usr/bin/env bash
# Is bin/sm3sum as fast as OpenSSL's own command-line tool? Hashes one file (1 GiB of random bytes,
# kept in ${TMPDIR:-/tmp} between runs) with a warm page cache, alternating `openssl dgst -sm3` and
# `bin/sm3sum` for ROUNDS rounds (the one that goes first changes every round), and prints the
# throughput of each from wall-clock time, JVM start-up included, with the best and median figures
# and the ratio sm3sum / openssl. Environment: ROUNDS (default 7), SIZE_MIB (default 1024).
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

# Prints the MB/s (10^6 bytes per second) of one run of the command.
rate() {
    local start end
    start=$(date +%s%N)
    "$@" > /dev/null
    end=$(date +%s%N)
    awk -v b="$bytes" -v ns=$((end - start)) 'BEGIN { printf "%.1f", b / (ns / 1e9) / 1e6 }'
}

echo "file: $file ($bytes bytes, page cache warm); $(openssl version); $("$root/bin/sm3sum" --version | tail -1)"
printf '%-7s %14s %14s %8s\n' round "openssl MB/s" "sm3sum MB/s" ratio
openssl_rates=()
sm3sum_rates=()
for ((r = 1; r <= rounds; r++)); do
    if ((r % 2)); then
        o=$(rate openssl dgst -sm3 "$file")
        s=$(rate "$root/bin/sm3sum" "$file")
    else
        s=$(rate "$root/bin/sm3sum" "$file")
        o=$(rate openssl dgst -sm3 "$file")
    fi
    openssl_rates+=("$o")
    sm3sum_rates+=("$s")
    printf '%-7s %14s %14s %8s\n' "$r" "$o" "$s" "$(awk -v s="$s" -v o="$o" 'BEGIN { printf "%.3f", s / o }')"
done

# best and median of a list of numbers
stats() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
        m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf "%.1f %.1f", v[NR], m }'
}
read -r o_best o_median <<< "$(stats "${openssl_rates[@]}")"
read -r s_best s_median <<< "$(stats "${sm3sum_rates[@]}")"
printf '%-7s %14s %14s %8s\n' best "$o_best" "$s_best" "$(awk -v s="$s_best" -v o="$o_best" 'BEGIN { printf "%.3f", s / o }')"
printf '%-7s %14s %14s %8s\n' median "$o_median" "$s_median" \
    "$(awk -v s="$s_median" -v o="$o_median" 'BEGIN { printf "%.3f", s / o }')"
