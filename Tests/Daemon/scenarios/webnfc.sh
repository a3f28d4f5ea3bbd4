# shellcheck shell=bash
# e2e: alone (a headless browser beside nfcscand, its sheet and AT-SPI)

# Web NFC for desktop browsers (issue 22), as a page written for Android meets it: headless
# Chromium with the unpacked extension (browser-extension/) and nfcscan's native host (a link to
# the built nfcscan, named in the browser profile's own NativeMessagingHosts/), a page served on
# 127.0.0.1 (Tests/WebNFC/e2e.html), nfcscand on the scenario's bus with its sheet on the rig's
# display (read and pressed through AT-SPI), and an NTAG213 a private pcscd's vpcd reader (an
# ACR122U, whose pass-through reaches the lock bits) presents each time the driver opens a gate,
# keeping what is written (nfcsim --save). Tests/WebNFC/webnfc_e2e.py checks, in order:
#   - scan(): the sheet asks once, naming the site (127.0.0.1:PORT); Allow is kept under the
#     origin; the poster's serial number and url record arrive;
#   - write() of text, a URL, a JSON MIME record and an external record after the sheet's Save;
#     an aborted signal ends the page's session at once; nfcscan reads the four records back;
#   - makeReadOnly() after the sheet's Lock ("This can't be undone."); a later write to the locked
#     badge rejects NotAllowedError;
#   - a page hidden behind another tab has no session and receives nothing; back in front, it scans;
#   - a site denied with nfcscan apps --deny gets NotAllowedError at once, with no sheet.
# Then in headless Firefox ESR (the extension a temporary add-on over Marionette): the first two
# and the last, which show its native messaging and its origins work the same.
scenario_webnfc() {
  local missing=""
  [ -x "$BUILD/nfcscan-sheet" ] || missing+=" nfcscan-sheet beside nfcscand (swift build --product nfcscan-sheet)"
  [ -x /usr/lib/chromium/chromium ] && [ -x /usr/bin/chromedriver ] || missing+=" chromium and chromium-driver"
  "$PY" -c 'import selenium, pyatspi' 2>/dev/null || missing+=" python3-selenium and python3-pyatspi"
  if [ -n "$missing" ]; then bad "what the Web NFC scenario needs (scripts/install-deps.sh):$missing"; return; fi

  webnfc_in chromium 6
  command -v firefox-esr >/dev/null || { bad "firefox-esr (scripts/install-deps.sh)"; return; }
  webnfc_in firefox 3
}

# webnfc_in BROWSER GATES: a rig, a private pcscd presenting the badge at each of GATES gates,
# nfcscand with its sheet, and the driver in BROWSER; its ok/FAIL lines counted as checks.
webnfc_in() {
  local browser=$1 gates=$2
  sheet_begin "webnfc-$browser" --permission-store
  local tag=$DIR/badge.bin
  local present="'$NFCSIM' vpcd --reader acr122u --type ntag213"
  # Each presentation waits for its gate; the object stays for --for seconds, then leaves (the
  # last two say when: gone-5, gone-6).
  local script="$(gate 1) && $present --uri https://example.com/poster --uid 04a1b2c3d4e5f6 --save '$tag' --for 3 &&
    $(gate 2) && $present --dump '$tag' --save '$tag' --for 5 &&
    $(gate 3) && $present --dump '$tag' --save '$tag' --for 3"
  [ "$gates" -lt 6 ] || script+=" &&
    $(gate 4) && $present --dump '$tag' --save '$tag' --for 5 &&
    $(gate 5) && $present --dump '$tag' --save '$tag' --for 5 && : >'$DIR/gone-5' &&
    $(gate 6) && $present --dump '$tag' --for 2 && : >'$DIR/gone-6'"
  private_pcscd "$script"
  pcsc_nfcscand
  local line
  while IFS= read -r line; do
    case $line in
      "ok   "*) ok "${line#ok   }" ;;
      "FAIL "*) bad "${line#FAIL }" ;;
      *) echo "$line" >>"$DIR/webnfc-driver.log" ;;
    esac
  done < <(PCSCLITE_CSOCK_NAME="$PCSC_SOCKET" LIBNFC_DEVICE= LIBNFC_AUTO_SCAN=false NFCSCAN_TEST_CHROMEDRIVER_LOG="$DIR/chromedriver.log" \
    "$PY" "$ROOT/Tests/WebNFC/webnfc_e2e.py" --dir "$DIR" --build "$BUILD" --extension "$ROOT/browser-extension" \
      --support "$SUPPORT" --browser "$browser" 2>&1)
  check "$browser: the driver ran its checks, and said nothing else" test "$(grep -c . "$DIR/webnfc-driver.log" 2>/dev/null || echo 0)" = 0
  sheet_finish
}
