# Two commands matter: `make run` and `make test`. Both install what is missing first.
.PHONY: run play networks web test setup build build-ur build-tests build-asan bench format format-check clean cluster cluster-down deb

JOBS ?= $(shell nproc)
UR := build/release/ur

# The main job: the online server with its embedded SQLite database (./data/ur.db), serving the
# web board at http://localhost:8080/ (PORT=... to change). `make play` is the terminal game.
PORT ?= 8080
run: build-ur web networks
	@echo "ur: open http://localhost:$(PORT)/ in a browser (Ctrl-C stops the server)"
	$(UR) serve --port $(PORT) --web-root web/dist

# Three nodes over one PostgreSQL with a Redis bus, behind HAProxy, on loopback ports
# (scripts/cluster; NODES=... to change); `make cluster-down` stops it.
NODES ?= 3
cluster: build-ur web
	./scripts/cluster up $(NODES)

cluster-down:
	./scripts/cluster down

play: build-ur networks
	$(UR) play --light human --dark computer

# The shipped networks (networks/, docs/ai.md) go into the data directory, where the net agent
# and the perfect level look; a network already there (trained here) is kept.
networks:
	@mkdir -p data/networks && cp -n networks/*.urn data/networks/

web: setup
	./scripts/build-web

setup:
	./scripts/setup

# Everything: the `ur` command, the test programs and the benchmarks.
build: setup
	cmake --preset release >/dev/null
	cmake --build --preset release -j $(JOBS)

# The `ur` command alone, all that `make run`, `make play`, `make cluster` and `make deb` need:
# a first `make run` compiles neither the test programs nor the benchmarks.
build-ur: setup
	cmake --preset release >/dev/null
	cmake --build --preset release -j $(JOBS) --target ur

# What `make test` runs: the command and the test programs (every one that registers ctest
# entries: a program left unbuilt would show as a failing *_NOT_BUILT entry), not the benchmarks.
TEST_TARGETS ?= ur ur_unit_tests ur_conformance_tests ur_server_tests ur_fuzz_tests
build-tests: setup
	cmake --preset release >/dev/null
	cmake --build --preset release -j $(JOBS) --target $(TEST_TARGETS)

# The sanitizer run covers the rules engine, the players and the solver (the `unit` and
# `conformance` labels) and the server under the fuzz test (label `fuzz`, run verbosely so that
# its figures show); building only those test programs keeps CI from compiling the command line
# a second time.
ASAN_TARGETS ?= ur_unit_tests ur_conformance_tests ur_fuzz_tests
build-asan: setup
	cmake --preset asan >/dev/null
	cmake --build --preset asan -j $(JOBS) --target $(ASAN_TARGETS)

test: build-tests build-asan web format-check
	ctest --preset release -j $(JOBS)
	ctest --preset asan -j $(JOBS)
	ctest --preset asan-fuzz

bench: build
	$(UR) bench
	build/release/bench/ur_bench

# The Debian package (build/deb/ur_VERSION_ARCH.deb): the binary, the web client, the systemd
# unit and /etc/ur/ur.conf (scripts/make-deb; docs/operations.md).
deb: build-ur web
	./scripts/make-deb

format:
	clang-format -i $$(git ls-files '*.cpp' '*.h')

format-check: setup
	clang-format --dry-run --Werror $$(git ls-files '*.cpp' '*.h')

clean:
	rm -rf build
