# nfcscan — the two commands a newcomer runs are `make demo` and `make test` (see README.md).
# Both install what they need first (scripts/install-deps.sh: apt and pip packages).

SWIFT ?= swift
PREFIX ?= /usr/local
# Seconds of fuzzing in all, shared among the targets (Tests/Fuzz/run.sh), two at a time.
FUZZ_BUDGET ?= 180
# The version, written once: Sources/CommandLineIO/Version.swift (nfcscan --version, the package).
VERSION := $(shell sed -n 's/.*static let string = "\([^"]*\)".*/\1/p' Sources/CommandLineIO/Version.swift)
# `make deb`: a release build with the Swift runtime and Foundation linked in, in a scratch path
# of its own so that it and the dynamic .build/release can sit side by side.
STATIC_BUILD ?= .build-static
DEB_ARCH ?= $(shell dpkg --print-architecture 2>/dev/null)
DEB ?= nfcscan_$(VERSION)_$(DEB_ARCH).deb

# `make install` layout (DESTDIR for staging: make install DESTDIR=/tmp/stage).
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
# Programs nfcscand starts, not people: the scan sheet's window, $(LIBEXECDIR)/nfcscan/nfcscan-sheet.
LIBEXECDIR ?= $(PREFIX)/libexec
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
# systemd's user manager reads /usr/lib/systemd/user and /usr/local/lib/systemd/user (among
# others: `systemd-analyze --user unit-paths`); udev 252 reads /usr/lib/udev/rules.d and
# /usr/local/lib/udev/rules.d; the session bus reads $XDG_DATA_DIRS/dbus-1/services
# (default /usr/local/share:/usr/share). Another PREFIX gets a note from make install.
SYSTEMDUSERUNITDIR ?= $(LIBDIR)/systemd/user
DBUSSERVICEDIR ?= $(DATADIR)/dbus-1/services
UDEVRULESDIR ?= $(LIBDIR)/udev/rules.d
# Shell completions where bash-completion ($XDG_DATA_DIRS/bash-completion/completions), fish
# ($XDG_DATA_DIRS/fish/vendor_completions.d) and Debian's zsh (fpath: /usr/share/zsh/vendor-completions,
# /usr/local/share/zsh/site-functions) look for them; the bash one without its #! line (it is sourced).
BASHCOMPLETIONDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPLETIONDIR ?= $(if $(filter /usr,$(PREFIX)),$(DATADIR)/zsh/vendor-completions,$(DATADIR)/zsh/site-functions)
FISHCOMPLETIONDIR ?= $(DATADIR)/fish/vendor_completions.d
# The copy catalogs, one nfcscan.mo per language (Docs/translating.md). The binaries look in
# their own ../share/locale, then /usr/share/locale (Sources/NFCCopy/Gettext.swift): so the
# default, beside BINDIR; NFCSCAN_LOCALEDIR names another place when they run.
LOCALEDIR ?= $(DATADIR)/locale
INSTALL ?= install
# Web NFC (issue 22): the browser extension's files, loadable unpacked, in $(DATADIR)/nfcscan;
# its native messaging host, a link to the nfcscan binary in $(LIBEXECDIR)/nfcscan; and the
# manifests that let each browser start the host, where the browsers look for system-wide ones
# whatever the PREFIX (native-messaging/README.md). Google Chrome's lives under /etc/opt, which a
# Debian package may not touch: `make deb` leaves it out (CHROMEHOSTDIR empty).
WEBNFC_HOST = nfcscan-webnfc-host
EXTENSION_FILES = $(wildcard browser-extension/*.js browser-extension/*.json browser-extension/*.md)
SYSCONFDIR ?= /etc
CHROMIUMHOSTDIR ?= $(SYSCONFDIR)/chromium/native-messaging-hosts
CHROMEHOSTDIR ?= $(SYSCONFDIR)/opt/chrome/native-messaging-hosts
MOZILLAHOSTDIR ?= /usr/lib/mozilla/native-messaging-hosts
# The binaries make install installs (the static ones for make deb).
RELEASE_DIR ?= .build/release
# The static Swift crash backtracer of the runtime nfcscand loads (see systemd/nfcscand.service):
# found through the binary's libswiftCore.so, else through the toolchain `swift` belongs to.
SWIFT_BACKTRACER ?= $(shell \
  d=$$(ldd $(RELEASE_DIR)/$(MULTICALL) 2>/dev/null | sed -n 's|.*libswiftCore\.so => \(.*\)/linux/libswiftCore\.so.*|\1|p'); \
  [ -n "$$d" ] || d=$$($(SWIFT) -print-target-info 2>/dev/null | sed -n 's/.*"runtimeResourcePath": "\([^"]*\)".*/\1/p'); \
  [ -n "$$d" ] && realpath -e "$$d/../../libexec/swift/linux/swift-backtrace-static" 2>/dev/null)
# Fills in systemd/ templates; without a backtracer the line naming it goes.
RENDER = sed -e 's|@bindir@|$(BINDIR)|g' \
  $(if $(SWIFT_BACKTRACER),-e 's|@swift_backtrace@|$(SWIFT_BACKTRACER)|g',-e '/@swift_backtrace@/d')
EXECUTABLES = nfcscan nfcscand nfcsim
# What make install and the package install: the nfcscan binary, which holds all three commands
# and is the one its name says (Sources/nfcscan/main.swift); nfcscand and nfcsim are links to it.
MULTICALL = nfcscan
LINKED = nfcscand nfcsim
# The scan sheet's program (GTK 4, libadwaita), a binary of its own: nfcscan never links a toolkit.
SHEET = nfcscan-sheet
MANPAGES = nfcscan.1 nfcscand.1 nfcsim.1
# The commands with completion scripts (swift-argument-parser writes them: --generate-completion-script).
COMPLETED = nfcscan nfcsim
# Rendered systemd files and generated completions, beside the binaries they belong to.
GENERATED = $(RELEASE_DIR)/generated
# The languages (po/LINGUAS) and their catalogs as msgfmt compiles them, where the binaries of
# .build/<triple>/debug and release find them without installing (their ../../share/locale).
LINGUAS := $(shell sed -e 's/\#.*//' po/LINGUAS)
LOCALE_BUILD = .build/share/locale
MO_FILES = $(patsubst %,$(LOCALE_BUILD)/%/LC_MESSAGES/nfcscan.mo,$(LINGUAS))

.PHONY: webnfc-test check-modules all deps build release static-release deb demo demo-steps test test-steps unit check-units check-dumps daemon-test reliability-test oracle fuzz network-test package-test sheet-test bench install uninstall clean mo pot pot-check

all: build

deps:
	bash scripts/install-deps.sh

build: mo
	$(SWIFT) build

release: mo
	$(SWIFT) build -c release

# The catalogs: msgfmt --check (the header, the plural forms, every {placeholder} of the English
# kept: python-brace-format) compiles each po/<language>.po of po/LINGUAS.
mo: $(MO_FILES)
$(LOCALE_BUILD)/%/LC_MESSAGES/nfcscan.mo: po/%.po
	@mkdir -p $(@D)
	msgfmt --check --output-file=$@.tmp $< && mv $@.tmp $@

# After changing a message in Sources/NFCCopy/CopyMessages.swift: po/nfcscan.pot and po/en.po
# made again from it, every other language merged (msgmerge); pot-check fails while they differ.
pot:
	python3 scripts/update-po.py
pot-check:
	python3 scripts/update-po.py --check

# The Swift standard library, Foundation and Dispatch linked into the binaries: they start on a
# system without the toolchain (ldd lists only libc, libstdc++, libgcc_s and the C libraries).
# Linked with -z now (with the default relro: a read-only GOT, what lintian calls bindnow).
# Only the products the package holds (all three commands, and the scan sheet): the test-support
# target imports Testing, which the static SDK lacks.
static-release:
	$(SWIFT) build -c release --static-swift-stdlib -Xlinker -z -Xlinker now --scratch-path $(STATIC_BUILD) --product $(MULTICALL)
	$(SWIFT) build -c release --static-swift-stdlib -Xlinker -z -Xlinker now --scratch-path $(STATIC_BUILD) --product $(SHEET)

# The main job: a simulated poster on a simulated reader (a PN532 on a pseudo-terminal, driven by
# the real libnfc), read by nfcscan; then a message decoded from a file. Its steps, installing the
# dependencies too, run under scripts/check-listeners.sh: it fails if anything they start, or make
# the system start, listens outside loopback.
demo:
	bash scripts/check-listeners.sh -- $(MAKE) --no-print-directory demo-steps
demo-steps: deps release
	bash scripts/demo.sh .build/release

# Every test: unit and property tests, the systemd unit check, nfcscand end to end, the ndeflib
# differential test, the fuzzers, and the private pcscd kept off the network; under
# scripts/check-listeners.sh, as the demo.
# Each stage's time is printed in a table at the end (scripts/stages.sh; Docs/performance.md).
TEST_STAGES = deps check-modules unit check-units sheet-test webnfc-test daemon-test reliability-test oracle fuzz network-test package-test
test:
	bash scripts/check-listeners.sh -- $(MAKE) --no-print-directory test-steps
test-steps:
	MAKE="$(MAKE)" bash scripts/stages.sh $(TEST_STAGES)

# Docs/architecture.md's module graph is Package.swift's (scripts/check-modules.py).
check-modules:
	python3 scripts/check-modules.py

# Three lanes side by side, each running its suites one at a time (scripts/unit-tests.sh says why).
# No re-run: a failure fails the target.
unit: mo pot-check
	$(SWIFT) build --build-tests
	bash scripts/unit-tests.sh

# The user unit and its D-Bus activation file as make install renders them: systemd-analyze verify
# (no warnings) and an exposure score of 2.0 or lower (Docs/service.md).
check-units: build
	bash scripts/check-units.sh .build/debug/nfcscand

# nfcscand end to end with real parts: a private session bus, Xvfb and dunst, libnfc reading an
# emulated PN532, test apps over D-Bus, a stand-in portal (Tests/Daemon/daemon-e2e.sh). Two scenario
# files run side by side; NFCSCAN_E2E_JOBS=N sets how many (1: one after the other).
daemon-test: build
	bash Tests/Daemon/daemon-e2e.sh .build/debug

# 1,000 rounds of inhibit / release / start a scan session / invalidate against nfcscand, a private
# pcscd and its two vpcd readers: no crash, PausedReasons right after every step, the readers back
# after every release without no-reader (Tests/Reliability/inhibit-session-rounds.sh).
reliability-test: build
	bash Tests/Reliability/inhibit-session-rounds.sh --rounds 1000 .build/debug

# The scan sheet's program on the rig's display, read and pressed through AT-SPI as a screen reader
# would (Tests/Sheet/sheet-test.sh): English and Chinese views, Escape, close-after, end of input.
sheet-test:
	$(SWIFT) build --product $(SHEET)
	bash Tests/Sheet/sheet-test.sh .build/debug/$(SHEET)

# The Web NFC extension in headless Chromium and Firefox (Tests/WebNFC): the specification's record
# conversions and refusals case by case, and its messages with a scripted native host. The whole
# chain, with nfcscand and a reader, is the webnfc scenario of daemon-test.
webnfc-test:
	/usr/bin/python3 Tests/WebNFC/conversions.py
	/usr/bin/python3 Tests/WebNFC/protocol.py

oracle: build
	bash Tests/Oracle/run.sh .build/debug/nfcscan

fuzz:
	bash Tests/Fuzz/run.sh $(FUZZ_BUDGET)

# Every dump in DUMPS (Flipper Zero .nfc, Proxmark3 and Metrodroid JSON, raw Type 5 images) presented
# with nfcsim --dump through libnfc and a private pcscd, nfcscan --json's records compared with
# ndeflib's reading of the same bytes, and a dump's originality signature (Flipper's Signature:
# line, Proxmark3's) checked for object.genuine through libnfc and an ACR122U against the openssl
# command's verdict, also with one UID byte changed (scripts/check-dumps.sh). Not part of test:
# the dumps live outside the repository, and the run takes a few minutes (about 2).
DUMPS ?= ../shared/dumps
check-dumps: build
	bash scripts/check-dumps.sh $(DUMPS) .build/debug

# The private pcscd that PC/SC tests and nfcsim use loads the vpcd driver unpacked in .deps/vpcd,
# and its vpcd reader listens only inside its own network namespace.
network-test: build
	bash scripts/check-private-pcscd.sh .build/debug

# The Debian package, installed into a clean Debian 12 root without the Swift toolchain (debootstrap,
# made once and cached in /var/cache/nfcscan-test) and run there: --version, decode, a scan through
# libnfc, nfcscand on a private bus, bash completion; then lintian (Tests/Package/package-test.sh).
package-test: deb
	bash Tests/Package/package-test.sh $(DEB)

# Throughput beside ndeflib (a figure, not a test): see Docs/performance.md.
bench: deps
	bash Benchmarks/run.sh 5

# Release binaries (and the scan sheet's program and the Web NFC host in LIBEXECDIR/nfcscan), man pages, the systemd user unit, D-Bus activation, the udev rule, the Web NFC extension and its hosts' manifests; then
# `systemctl --user daemon-reload && systemctl --user enable --now nfcscand` (Docs/service.md).
# Shell completions for bash, zsh and fish too. The binaries load the Swift runtime from the
# toolchain they were built with (`make deb` makes a package that does not). As root, build
# first as yourself and skip the build: `make release && sudo make install NO_BUILD=1`.
install: $(if $(NO_BUILD),,release) mo
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBEXECDIR)/nfcscan $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(SYSTEMDUSERUNITDIR) \
	  $(DESTDIR)$(DBUSSERVICEDIR) $(DESTDIR)$(UDEVRULESDIR) $(DESTDIR)$(BASHCOMPLETIONDIR) \
	  $(DESTDIR)$(ZSHCOMPLETIONDIR) $(DESTDIR)$(FISHCOMPLETIONDIR) $(GENERATED)
	set -e; for lang in $(LINGUAS); do \
	  $(INSTALL) -d $(DESTDIR)$(LOCALEDIR)/$$lang/LC_MESSAGES; \
	  $(INSTALL) -m 644 $(LOCALE_BUILD)/$$lang/LC_MESSAGES/nfcscan.mo $(DESTDIR)$(LOCALEDIR)/$$lang/LC_MESSAGES/; \
	done
	$(INSTALL) -m 755 $(RELEASE_DIR)/$(MULTICALL) $(DESTDIR)$(BINDIR)/
	$(INSTALL) -m 755 $(RELEASE_DIR)/$(SHEET) $(DESTDIR)$(LIBEXECDIR)/nfcscan/
	ln -sfn $$(realpath -m --relative-to=$(LIBEXECDIR)/nfcscan $(BINDIR)/$(MULTICALL)) $(DESTDIR)$(LIBEXECDIR)/nfcscan/$(WEBNFC_HOST)
	$(INSTALL) -d $(DESTDIR)$(DATADIR)/nfcscan/browser-extension $(DESTDIR)$(CHROMIUMHOSTDIR) $(DESTDIR)$(MOZILLAHOSTDIR)
	$(INSTALL) -m 644 $(EXTENSION_FILES) $(DESTDIR)$(DATADIR)/nfcscan/browser-extension/
	sed 's|@webnfc_host@|$(LIBEXECDIR)/nfcscan/$(WEBNFC_HOST)|' native-messaging/org.nfcscan.webnfc.chromium.json.in > $(GENERATED)/org.nfcscan.webnfc.chromium.json
	sed 's|@webnfc_host@|$(LIBEXECDIR)/nfcscan/$(WEBNFC_HOST)|' native-messaging/org.nfcscan.webnfc.firefox.json.in > $(GENERATED)/org.nfcscan.webnfc.firefox.json
	$(INSTALL) -m 644 $(GENERATED)/org.nfcscan.webnfc.chromium.json $(DESTDIR)$(CHROMIUMHOSTDIR)/org.nfcscan.webnfc.json
	$(if $(CHROMEHOSTDIR),$(INSTALL) -D -m 644 $(GENERATED)/org.nfcscan.webnfc.chromium.json $(DESTDIR)$(CHROMEHOSTDIR)/org.nfcscan.webnfc.json)
	$(INSTALL) -m 644 $(GENERATED)/org.nfcscan.webnfc.firefox.json $(DESTDIR)$(MOZILLAHOSTDIR)/org.nfcscan.webnfc.json
	set -e; for name in $(LINKED); do ln -sfn $(MULTICALL) $(DESTDIR)$(BINDIR)/$$name; ln -sfn $(abspath $(RELEASE_DIR)/$(MULTICALL)) $(GENERATED)/$$name; done
	set -e; for m in $(MANPAGES); do \
	  sed -e '1s/"nfcscan [^"]*"/"nfcscan $(VERSION)"/' Docs/man/$$m > $(GENERATED)/$$m; \
	  $(INSTALL) -m 644 $(GENERATED)/$$m $(DESTDIR)$(MANDIR)/man1/; \
	done
	$(RENDER) systemd/nfcscand.service > $(GENERATED)/nfcscand.service
	$(RENDER) systemd/org.nfcscan.Scanner1.service > $(GENERATED)/org.nfcscan.Scanner1.service
	$(INSTALL) -m 644 $(GENERATED)/nfcscand.service $(DESTDIR)$(SYSTEMDUSERUNITDIR)/
	$(INSTALL) -m 644 $(GENERATED)/org.nfcscan.Scanner1.service $(DESTDIR)$(DBUSSERVICEDIR)/
	$(INSTALL) -m 644 systemd/70-nfcscan-readers.rules $(DESTDIR)$(UDEVRULESDIR)/
	set -e; for c in $(COMPLETED); do \
	  command=$(RELEASE_DIR)/$$c; [ "$$c" = $(MULTICALL) ] || command=$(GENERATED)/$$c; \
	  $$command --generate-completion-script bash | sed '1{/^#!/d}' > $(GENERATED)/$$c.bash; \
	  $$command --generate-completion-script zsh > $(GENERATED)/_$$c; \
	  $$command --generate-completion-script fish > $(GENERATED)/$$c.fish; \
	  $(INSTALL) -m 644 $(GENERATED)/$$c.bash $(DESTDIR)$(BASHCOMPLETIONDIR)/$$c; \
	  $(INSTALL) -m 644 $(GENERATED)/_$$c $(DESTDIR)$(ZSHCOMPLETIONDIR)/_$$c; \
	  $(INSTALL) -m 644 $(GENERATED)/$$c.fish $(DESTDIR)$(FISHCOMPLETIONDIR)/$$c.fish; \
	done
	@case "$(SYSTEMDUSERUNITDIR)" in /usr/lib/systemd/user|/usr/local/lib/systemd/user|/etc/systemd/user|\
	  /usr/share/systemd/user|/usr/local/share/systemd/user|$(HOME)/.local/share/systemd/user|$(HOME)/.config/systemd/user) ;; \
	  *) echo "make install: note: systemd does not look for user units in $(SYSTEMDUSERUNITDIR); set SYSTEMDUSERUNITDIR (e.g. ~/.local/share/systemd/user)";; esac
	@case "$(DBUSSERVICEDIR)" in /usr/share/dbus-1/services|/usr/local/share/dbus-1/services|$(HOME)/.local/share/dbus-1/services) ;; \
	  *) echo "make install: note: the session bus reads $(DBUSSERVICEDIR) only if its parent is in XDG_DATA_DIRS or is XDG_DATA_HOME";; esac
	@case "$(UDEVRULESDIR)" in /usr/lib/udev/rules.d|/usr/local/lib/udev/rules.d|/etc/udev/rules.d) ;; \
	  *) echo "make install: note: udev does not read $(UDEVRULESDIR); set UDEVRULESDIR=/etc/udev/rules.d";; esac
	@case "$(LOCALEDIR)" in $(abspath $(BINDIR)/../share/locale)|/usr/share/locale) ;; \
	  *) echo "make install: note: nfcscan looks for its catalogs in $(abspath $(BINDIR)/../share/locale) and /usr/share/locale, not $(LOCALEDIR): set NFCSCAN_LOCALEDIR=$(LOCALEDIR) for it";; esac
	@case "$(BASHCOMPLETIONDIR)" in /usr/share/bash-completion/completions|/usr/local/share/bash-completion/completions|$(HOME)/.local/share/bash-completion/completions) ;; \
	  *) echo "make install: note: bash-completion reads $(BASHCOMPLETIONDIR) only if its grandparent is in XDG_DATA_DIRS or is XDG_DATA_HOME";; esac
	@echo "make install: done. Then: sudo udevadm control --reload && sudo udevadm trigger (and reconnect the reader);"
	@echo "  systemctl --user daemon-reload && systemctl --user enable --now nfcscand"

uninstall:
	rm -f $(DESTDIR)$(LIBEXECDIR)/nfcscan/$(WEBNFC_HOST) $(DESTDIR)$(CHROMIUMHOSTDIR)/org.nfcscan.webnfc.json \
	  $(DESTDIR)$(CHROMEHOSTDIR)/org.nfcscan.webnfc.json $(DESTDIR)$(MOZILLAHOSTDIR)/org.nfcscan.webnfc.json
	rm -rf $(DESTDIR)$(DATADIR)/nfcscan/browser-extension
	rmdir $(DESTDIR)$(DATADIR)/nfcscan 2>/dev/null || true
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(EXECUTABLES)) $(DESTDIR)$(LIBEXECDIR)/nfcscan/$(SHEET) $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(MANPAGES)) \
	  $(DESTDIR)$(SYSTEMDUSERUNITDIR)/nfcscand.service $(DESTDIR)$(DBUSSERVICEDIR)/org.nfcscan.Scanner1.service \
	  $(DESTDIR)$(UDEVRULESDIR)/70-nfcscan-readers.rules \
	  $(addprefix $(DESTDIR)$(BASHCOMPLETIONDIR)/,$(COMPLETED)) $(patsubst %,$(DESTDIR)$(ZSHCOMPLETIONDIR)/_%,$(COMPLETED)) \
	  $(patsubst %,$(DESTDIR)$(FISHCOMPLETIONDIR)/%.fish,$(COMPLETED)) \
	  $(patsubst %,$(DESTDIR)$(LOCALEDIR)/%/LC_MESSAGES/nfcscan.mo,$(LINGUAS))
	rmdir $(DESTDIR)$(LIBEXECDIR)/nfcscan 2>/dev/null || true
	@echo "make uninstall: done. Stop it first if it runs: systemctl --user disable --now nfcscand"

# nfcscan_<version>_<arch>.deb, offline, from the static build: `make install` into a staging tree
# with PREFIX=/usr (no backtracer line in the unit: the toolchain's is not on the target), then
# scripts/make-deb.sh (stripped binaries, gzipped man pages, docs, control, dpkg-deb).
# `make deb NO_BUILD=1` packages the static build already there. Docs/service.md: Debian package.
deb: $(if $(NO_BUILD),,static-release)
	rm -rf $(STATIC_BUILD)/deb
	$(MAKE) --no-print-directory install NO_BUILD=1 RELEASE_DIR=$(STATIC_BUILD)/release PREFIX=/usr CHROMEHOSTDIR= \
	  DESTDIR=$(CURDIR)/$(STATIC_BUILD)/deb/root SWIFT_BACKTRACER= >/dev/null
	bash scripts/make-deb.sh $(STATIC_BUILD)/deb/root $(VERSION) $(DEB)

clean:
	rm -rf .build $(STATIC_BUILD) nfcscan_*.deb
