# Two commands set everything up on a fresh machine: `make test` and `make demo`.
# Both create .venv in the repo root and install the project into it.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

C_BOT := sample_bots/c/random_bot

.PHONY: test check demo lint docs bench bench-convergence bench-match bench-serve bench-serve-load clean sandbox-deps browser-deps terminal-deps deploy-deps nginx-dep \
	kits-deps kit-minimums

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# The modules setup.py compiles (marked so): the install builds them again when they change,
# and when a mark is added or removed (the list, kept in a file rewritten only when it changes).
COMPILED := $(shell grep -rlx '\# arena: compiled with mypyc' arena --include='*.py' | sort)
COMPILED_LIST := $(VENV)/.compiled-modules
$(shell mkdir -p $(VENV) && echo '$(COMPILED)' | cmp -s - $(COMPILED_LIST) || echo '$(COMPILED)' > $(COMPILED_LIST))

# Old builds go first: Python imports a module's .so over its .py, so a build left from a
# module no longer marked (or one whose compile now fails, or before ARENA_PURE_PYTHON=1)
# would run old code.
# uv installs what pip would, from the same index: the project and its ~90 packages took
# 42 s from a fresh clone with uv, 141 s with pip (2 CPUs; the build of the compiled
# modules, about 35 s, in both). Pinned like the linters: the installer of every check.
UV := uv==0.13.8

$(STAMP): pyproject.toml setup.py $(COMPILED) $(COMPILED_LIST) | $(BIN)/python
	find arena -name '*.so' -delete
	$(BIN)/python -m pip install --quiet --disable-pip-version-check '$(UV)'
	$(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[test,dev,dask,research,docs,server]'
	touch $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

# The documentation site (mkdocs.yml): the README, docs/ and benchmarks/README.md, every internal
# link and anchor checked (strict); open site/index.html.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

$(C_BOT): sample_bots/c/random_bot.c
	$(MAKE) -s -C sample_bots/c

# $(call debian-package,CHECK,PACKAGE): install PACKAGE unless the shell test CHECK passes,
# where we can (root with apt-get); elsewhere the tests that need it say plainly they were not
# run (and fail under CI=true: tests/system.py).
define debian-package
	@if ! $(1) >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "installing $(2) for the tests"; \
			apt-get update -qq && apt-get install -y -qq $(2) >/dev/null; \
		else \
			echo "$(2) is not installed and cannot be installed here: its tests will say so"; \
		fi; \
	fi
endef

# The sandbox tests cover bubblewrap too.
sandbox-deps:
	$(call debian-package,command -v bwrap,bubblewrap)

# The HTML tests drive a real browser: Debian's chromium.
browser-deps:
	$(call debian-package,command -v chromium,chromium)

# The deployment examples run for real: Caddy and nginx in front of a server (docs/deploy.md).
# The test runs nginx from a config of its own; Debian's package would start its own daemon
# where no policy-rc.d forbids it (a container's does), so it is installed only where one does.
deploy-deps:
	$(call debian-package,command -v caddy,caddy)
	@if [ -x /usr/sbin/policy-rc.d ]; then $(MAKE) --no-print-directory nginx-dep; \
	elif ! command -v nginx >/dev/null 2>&1; then \
		echo "nginx is not installed (its package would start a daemon here): its test will say so"; fi

nginx-dep:
	$(call debian-package,command -v nginx,nginx-light)

# Interactive commands are tested in a real terminal: tmux.
terminal-deps:
	$(call debian-package,command -v tmux,tmux)

# The starter kits' tests build each kit with its own toolchain (cargo, Go, a JDK with Maven,
# Node.js with npm, CMake with a C++ compiler: this machine class has them). The C++ kit's JSON
# library is Debian's; the toolchains are not installed here, as Debian's are older than the
# kits' minimums (Rust 1.70, Go 1.21).
kits-deps:
	$(call debian-package,test -f /usr/include/nlohmann/json.hpp,nlohmann-json3-dev)

# The tests run side by side, a worker per CPU (pytest-xdist), a test file to a worker: a
# file's tests share what its module fixtures made (the kits' in-place builds, a browser).
# Not --dist loadgroup: with pytest 9.2 it no longer groups (pytest-xdist issue #1386).
# Files are handed out in collection order, the longest first (tests/conftest.py).
PYTEST_PARALLEL := -n auto --dist loadfile --no-loadscope-reorder

test: lint $(C_BOT) sandbox-deps browser-deps terminal-deps kits-deps deploy-deps
	$(BIN)/pytest -q $(PYTEST_PARALLEL)

# The quick tier, for each change: lint, types, the import contract, and every test module but
# the end-to-end ones (marked e2e: toolchains, browsers, terminals, clusters, whole commands).
check: lint $(C_BOT) sandbox-deps
	$(BIN)/pytest -q -m "not e2e" $(PYTEST_PARALLEL)

# The main job: a league of bots of several strengths and languages (the search, greedy and
# random sample bots, and each starter kit whose toolchain this machine has), its leaderboard
# in tiers, and its report. Kit builds are kept between runs (arena builds once per change).
DEMO_KITS = $(shell \
	command -v cargo >/dev/null && echo --bot sample_bots/rust; \
	command -v mvn >/dev/null && command -v java >/dev/null && echo --bot sample_bots/java; \
	command -v go >/dev/null && echo --bot sample_bots/go; \
	command -v cmake >/dev/null && test -f /usr/include/nlohmann/json.hpp && echo --bot sample_bots/cpp; \
	command -v npm >/dev/null && echo --bot sample_bots/typescript)
demo: $(STAMP) $(C_BOT)
	rm -rf results/demo
	$(BIN)/arena tournament --name demo --schedule sampled --rounds 8 --players 3 --deals 2 \
		--jobs 2 --seed 2026 --move-ms 100 --bank-ms 1000 \
		--bot "search=python3 -m arena.samples.ismcts_bot" \
		--bot "greedy=python3 -m arena.samples.greedy_bot" \
		--bot "random=python3 -m arena.samples.random_bot" \
		--bot "random-js=node sample_bots/javascript/random_bot.js" \
		--bot random-c=sample_bots/c/random_bot \
		$(DEMO_KITS)
	$(BIN)/arena leaderboard results/demo
	$(BIN)/arena report results/demo

bench: $(STAMP) $(C_BOT)
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/referee.py
	$(BIN)/python benchmarks/tournament_speed.py
	$(BIN)/python benchmarks/coordinator.py --dask
	$(BIN)/python benchmarks/tournament_scale.py
	$(BIN)/python benchmarks/cluster_speed.py
	$(BIN)/python benchmarks/field.py scale
	$(BIN)/python benchmarks/field.py repeats
	$(BIN)/python benchmarks/field.py board

# Games until each schedule's leaderboard is right, fields of known strength (in-process), and
# one league of real processes that must agree with its in-process twin: about an hour.
bench-convergence: $(STAMP)
	$(BIN)/python benchmarks/field.py convergence
	$(BIN)/python benchmarks/field.py agree

# Games arena match's test needs, with duplicate deals and without, both designs (copies of
# BASE, a field): about 40 minutes on 2 cores, 5 on 16 (--jobs).
bench-match: $(STAMP)
	$(BIN)/python benchmarks/match_sprt.py --design both --jobs $(shell nproc)

# arena serve under load: uploads to active and to the first rated game (Python and Rust kits),
# the ladder's games/s against arena tournament while 200 viewers poll, the leaderboard's
# latency: about 40 minutes with 20 uploads of each kit.
bench-serve: $(STAMP) $(C_BOT)
	$(BIN)/python benchmarks/serve.py --uploads 20 --rust 20 --viewers 200 --jobs $(shell nproc)

# The server under 200 and 1,000 viewers while 10 authors upload at once (benchmarks/README.md).
bench-serve-load: $(STAMP) $(C_BOT)
	$(BIN)/python benchmarks/serve_load.py --seconds 60 --jobs $(shell nproc)

# The starter kits built, tested and checked with the oldest toolchains their READMEs claim
# where a registry serves them: Go 1.21.0 (Go proxy), Node 18.20.8 (npm), Maven 3.6.3 on JDK 17
# (Maven Central). Each run fetches Maven and Node again (npm's cache keeps Node's package), Go
# once; about a minute in all here.
kit-minimums: $(STAMP) kits-deps
	tools/kit-minimum-go.sh
	tools/kit-minimum-node.sh
	tools/kit-minimum-java.sh

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache site
	$(MAKE) -s -C sample_bots/c clean
