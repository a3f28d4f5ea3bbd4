# nfcscan — the two commands a newcomer runs are `make demo` and `make test` (see README.md).
# Both install what they need first (scripts/install-deps.sh: apt and pip packages).

SWIFT ?= swift
PREFIX ?= /usr/local
FUZZ_SECONDS ?= 60

.PHONY: all deps build release demo test unit oracle fuzz bench clean

all: build

deps:
	bash scripts/install-deps.sh

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release

# The main job: a simulated poster on a simulated reader (a PN532 on a pseudo-terminal, driven by
# the real libnfc), read by nfcscan; then a message decoded from a file.
demo: deps release
	bash scripts/demo.sh .build/release

# Every test: unit and property tests, the ndeflib differential test, and the fuzzers.
test: deps unit oracle fuzz

# Serial: dozens of end-to-end tests each drive a PN532 emulator through libnfc or a private
# pcscd, whose own timeouts (300-1000 ms) a 2-core machine running them all at once can miss.
# One re-run on failure, said out loud: in-process libnfc reader tests (Tests/NFCReadersTests)
# rarely find libnfc refusing a fresh emulated PN532 at once (within 2 ms, no libnfc error line);
# not understood yet — see the issue notes. A second failure fails the target.
unit:
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --no-parallel || { \
	  echo "make unit: the test run above FAILED; running the whole suite once more (known flake, see Makefile)"; \
	  $(SWIFT) test --skip-build --no-parallel; }

oracle: build
	bash Tests/Oracle/run.sh .build/debug/nfcscan

fuzz:
	bash Tests/Fuzz/run.sh $(FUZZ_SECONDS)

# Throughput beside ndeflib (a figure, not a test): see Docs/performance.md.
bench: deps
	bash Benchmarks/run.sh 5

clean:
	rm -rf .build
