# Two commands matter: `make run` and `make test`. Both install what is missing first.
.PHONY: run test setup build build-asan bench format format-check clean

JOBS ?= $(shell nproc)
UR := build/release/ur

run: build
	$(UR) play --light human --dark computer

setup:
	./scripts/setup

build: setup
	cmake --preset release >/dev/null
	cmake --build --preset release -j $(JOBS)

build-asan: setup
	cmake --preset asan >/dev/null
	cmake --build --preset asan -j $(JOBS)

test: build build-asan format-check
	ctest --preset release -j $(JOBS)
	ctest --preset asan -j $(JOBS)

bench: build
	$(UR) bench
	build/release/bench/ur_bench

format:
	clang-format -i $$(git ls-files '*.cpp' '*.h')

format-check: setup
	clang-format --dry-run --Werror $$(git ls-files '*.cpp' '*.h')

clean:
	rm -rf build
