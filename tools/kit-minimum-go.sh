#!/usr/bin/env bash
# Build, vet, test and check the Go starter kit (sample_bots/go) with Go 1.21.0, the
# oldest Go its go.mod (`go 1.21`) accepts: the kit's README says it needs no newer.
#
#   tools/kit-minimum-go.sh          (from anywhere in the checkout)
#
# It works on a temporary copy of the kit (the checkout's bin/ is left alone), laid out
# as in the checkout so that the kit's tests find the protocol guide and the round-trip
# fixture (protocol/README.md, protocol/examples/roundtrip.jsonl) and skip nothing. Go
# 1.21.0 comes from the Go toolchain download (GOTOOLCHAIN=go1.21.0: the module cache
# keeps it after the first run, offline after that); `arena check-bot` builds the copy
# with it, as its bot.toml says, found first on PATH. One line per step; the first step
# that fails prints its output and the script exits 1.
set -euo pipefail
version=go1.21.0
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# step NAME COMMAND...: run COMMAND, its output kept in $work/out; say "ok" or fail.
step() {
    local name=$1
    shift
    if "$@" >"$work/out" 2>&1; then
        echo "ok    $name"
    else
        echo "FAIL  $name (exit status $?):"
        tail -n 40 "$work/out"
        exit 1
    fi
}

goroot=$(GOTOOLCHAIN=$version go env GOROOT 2>"$work/out") || {
    echo "FAIL  toolchain $version: $(tail -n 1 "$work/out")"
    exit 1
}
# The old go first on PATH, and told not to switch toolchains itself.
export PATH="$goroot/bin:$PATH" GOTOOLCHAIN=local
step "toolchain: $(go version) in $goroot" test "$(go env GOVERSION)" = "$version"

kit=$work/sample_bots/go
copy() {
    mkdir -p "$work/sample_bots" "$work/protocol/examples"
    cp "$here/protocol/README.md" "$work/protocol/"
    cp "$here/protocol/examples/roundtrip.jsonl" "$work/protocol/examples/"
    cp -R "$here/sample_bots/go" "$kit"
    rm -rf "$kit/bin"
}
step "copy of the kit: $kit (without bin/)" copy
cd "$kit"
step "go vet ./..." go vet ./...
# -v names each test; a skipped one would test nothing here, so it fails the step.
tests() { go test -count=1 -v ./... && ! grep -- '--- SKIP' "$work/out"; }
step "go test ./... (none skipped)" tests
echo "ok    $(grep -c -- '--- PASS' "$work/out") tests passed"
step "arena check-bot --rebuild $kit" "$here/.venv/bin/arena" check-bot --rebuild "$kit"
echo "ok    $(grep -c '^  PASS' "$work/out") checks passed: $(tail -n 1 "$work/out")"
built=$(go version bin/bot)
step "the checked bin/bot was built by ${built##*: }" test "${built##*: }" = "$version"
