#!/usr/bin/env bash
# Build, vet, test and check the Go starter kit (sample_bots/go) with Go 1.21.0, the
# oldest Go its go.mod (`go 1.21`) accepts: the kit's README says it needs no newer.
#
#   tools/kit-minimum-go.sh          (from anywhere in the checkout)
#
# Go 1.21.0 comes from the Go module proxy (GOTOOLCHAIN=go1.21.0: the module cache keeps
# it after the first run, offline after that); `arena check-bot` builds a copy of the kit
# with it, as its bot.toml says, found first on PATH. See tools/kit-steps.sh.
source "$(dirname "$0")/kit-steps.sh"
version=go1.21.0

goroot=$(GOTOOLCHAIN=$version go env GOROOT 2>"$log") || {
    echo "FAIL  toolchain $version: $(tail -n 1 "$log")"
    exit 1
}
# The old go first on PATH, and told not to switch toolchains itself.
export PATH="$goroot/bin:$PATH" GOTOOLCHAIN=local
step "toolchain: $(go version) in $goroot" test "$(go env GOVERSION)" = "$version"
step "copy of the kit (without bin/)" copy_kit go bin
cd "$kit"
step "go vet ./..." go vet ./...
# -v names each test; a skipped one would test nothing here, so it fails the step.
tests() { go test -count=1 -v ./... && ! grep -q -- '--- SKIP' "$log"; }
step "go test ./... (none skipped)" tests
echo "ok    $(grep -c -- '--- PASS' "$log") tests passed"
check_bot
built=$(go version bin/bot)
step "the checked bin/bot was built by ${built##*: }" test "${built##*: }" = "$version"
