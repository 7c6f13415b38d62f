# Sourced by tools/kit-minimum-*.sh, which build, test and check a starter kit with the
# oldest toolchain its README claims. What they share: a scratch folder removed at exit,
# one line per step, and a copy of the kit laid out as in the checkout, so that its tests
# find the protocol guide and the round-trip fixture and skip nothing.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The output of the last step (a step's checks may read it).
log=$work/step.log

# step NAME COMMAND...: run COMMAND, its output in $log; "ok    NAME", or "FAIL  NAME" with
# the end of its output, and exit 1.
step() {
    local name=$1
    shift
    if "$@" >"$log" 2>&1; then
        echo "ok    $name"
    else
        echo "FAIL  $name (exit status $?):"
        tail -n 40 "$log"
        exit 1
    fi
}

# copy_kit KIT OUTPUT...: the kit, without its build OUTPUTs, in $work/repo/sample_bots/KIT,
# beside the protocol guide and the round-trip fixture; sets $kit to it.
copy_kit() {
    local name=$1 output
    shift
    kit=$work/repo/sample_bots/$name
    mkdir -p "$work/repo/sample_bots" "$work/repo/protocol/examples"
    cp "$root/protocol/README.md" "$work/repo/protocol/"
    cp "$root/protocol/examples/roundtrip.jsonl" "$work/repo/protocol/examples/"
    cp -R "$root/sample_bots/$name" "$kit"
    for output in "$@"; do
        rm -rf "${kit:?}/$output"
    done
}

# check_bot: arena check-bot on the copy, built afresh; says how many checks passed.
check_bot() {
    step "arena check-bot --rebuild $kit" "$root/.venv/bin/arena" check-bot --rebuild "$kit"
    echo "ok    $(grep -c '^  PASS' "$log") checks passed: $(tail -n 1 "$log")"
}
