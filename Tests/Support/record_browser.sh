#!/bin/sh
# A "browser" for tests: appends its arguments, as one line, to the file $NFCSCAN_TEST_BROWSER_LOG
# and exits 0. Use it as $BROWSER, which xdg-open (xdg-utils 1.1.3, Debian 12) runs with the URL
# when no desktop environment is detected (see Docs/design/desktop-test-rig.md, "xdg-open").
# Each argument is written as is, separated by one space; a URL is one argument.
if [ -z "${NFCSCAN_TEST_BROWSER_LOG:-}" ]; then
  echo "record_browser.sh: NFCSCAN_TEST_BROWSER_LOG is not set" >&2
  exit 1
fi
printf '%s\n' "$*" >>"$NFCSCAN_TEST_BROWSER_LOG"
