#!/usr/bin/env bash
# Is bin/sm3sum as fast as the native command-line tools? Hashes files of 64 MiB, 1 GiB and 4 GiB of
# random bytes (kept in ${TMPDIR:-/tmp} between runs) with a warm page cache, with `openssl dgst -sm3`,
# coreutils' `cksum -a sm3` and `bin/sm3sum` taking turns (the one that goes first changes every round),
# and prints a Markdown table: each tool's median MB/s by wall-clock time (JVM start-up included) and the
# median of the per-round ratios sm3sum / openssl and sm3sum / cksum, with their lowest and highest round.
# Environment: ROUNDS (default 5), SIZES_MIB (default "64 1024 4096"), OUT (also write the table there).
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
rounds=${ROUNDS:-5}
sizes=${SIZES_MIB:-64 1024 4096}

# MB/s (10^6 bytes per second) of one run of the command on $bytes bytes, by wall-clock time.
rate() {
    local TIMEFORMAT='%R' seconds
    seconds=$({ time "$@" > /dev/null; } 2>&1)
    awk -v b="$bytes" -v t="$seconds" 'BEGIN { printf "%.1f", b / t / 1e6 }'
}

# "median (lowest–highest)" of a list of numbers, with the given printf format for each
spread() {
    local format=$1
    shift
    printf '%s\n' "$@" | sort -g | awk -v f="$format" '{ v[NR] = $1 } END {
        m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf f " (" f "–" f ")", m, v[1], v[NR] }'
}

table="| File | openssl dgst -sm3 MB/s | cksum -a sm3 MB/s | sm3sum MB/s | sm3sum ÷ openssl | sm3sum ÷ cksum |
|---|--:|--:|--:|--:|--:|"
for size_mib in $sizes; do
    bytes=$((size_mib * 1024 * 1024))
    file=${TMPDIR:-/tmp}/sm3sum-bench-${size_mib}MiB.bin
    if [[ ! -f $file || $(stat -c %s "$file") -ne $bytes ]]; then
        echo "creating $file ($bytes random bytes)" >&2
        head -c "$bytes" /dev/urandom > "$file.$$"
        mv -f "$file.$$" "$file"
    fi
    cat "$file" > /dev/null
    # The first runs are not timed; they also prove the three tools agree.
    want=$("$root/bin/sm3sum" "$file" | cut -d' ' -f1)
    [[ $(openssl dgst -sm3 -r "$file" | cut -d' ' -f1) == "$want" ]] || { echo "openssl disagrees" >&2; exit 1; }
    [[ $(cksum -a sm3 --untagged "$file" | cut -d' ' -f1) == "$want" ]] || { echo "cksum disagrees" >&2; exit 1; }
    tools=("openssl dgst -sm3" "cksum -a sm3" "$root/bin/sm3sum")
    o=() c=() s=() so=() sc=()
    for ((r = 0; r < rounds; r++)); do
        declare -A got=()
        for ((k = 0; k < 3; k++)); do
            t=$(((k + r) % 3))
            # shellcheck disable=SC2086
            got[$t]=$(rate ${tools[t]} "$file")
        done
        o+=("${got[0]}") c+=("${got[1]}") s+=("${got[2]}")
        so+=("$(awk -v a="${got[2]}" -v b="${got[0]}" 'BEGIN { printf "%.3f", a / b }')")
        sc+=("$(awk -v a="${got[2]}" -v b="${got[1]}" 'BEGIN { printf "%.3f", a / b }')")
        echo "$size_mib MiB round $((r + 1)): openssl ${got[0]}, cksum ${got[1]}, sm3sum ${got[2]} MB/s" >&2
        unset got
    done
    label=$([[ $size_mib -ge 1024 ]] && echo "$((size_mib / 1024)) GiB" || echo "$size_mib MiB")
    table+=$'\n'"| $label | $(spread %.0f "${o[@]}") | $(spread %.0f "${c[@]}") | $(spread %.0f "${s[@]}") | $(spread %.2f "${so[@]}") | $(spread %.2f "${sc[@]}") |"
done
note="*$(openssl version | cut -d' ' -f1-2), $(cksum --version | sed -n 1p), $("$root/bin/sm3sum" --version | sed -n 1p);
$rounds rounds per file, the three tools taking turns, page cache warm; MB/s by wall-clock time, JVM start-up
included; median (lowest–highest round).*"
printf '%s\n\n%s\n' "$table" "$note"
if [[ -n ${OUT:-} ]]; then
    printf '%s\n\n%s\n' "$table" "$note" > "$OUT"
fi
