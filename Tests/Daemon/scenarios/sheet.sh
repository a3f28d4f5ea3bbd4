# shellcheck shell=bash
# e2e: alone (the daemon's answers while its sheet is killed or hung, the slowest under 50 ms, are checks)

# nfcscand's own scan sheet (issue 21), as a person and a screen reader meet it: the daemon runs
# with --sheet auto (nfcscan-sheet beside it) on the rig's display, with AT-SPI (the rig's --a11y),
# and every check reads or presses the real window through AT-SPI (Tests/Support/sheet_atspi.py).
#   - A scan session shows its prompt and a Cancel button; Cancel ends it user-canceled; the same
#     in Chinese (the session's language zh_CN).
#   - The sheet's process killed (SIGKILL) mid-session: the daemon answers at once and the session
#     ends user-canceled. Hung (SIGSTOP): the daemon answers at once, the app's Invalidate still
#     ends the session, and the daemon kills the hung sheet after its grace. A sheet that stops
#     reading its input (a program of the scenario's, --sheet PATH): the view written to it finds
#     no reader, and the daemon lives on (no SIGPIPE death), kills it, and ends the session.
#   - A write session asks consent first (a link: Cancel/Save; a lock: "This can't be undone.",
#     Cancel/Lock): the emulated object, near the reader all along, gets no command (nfcsim's
#     --trace) before the person confirms, and none after a Cancel (the object's memory, kept by
#     nfcsim --save, unchanged). Save and Lock pressed: the write happens, ends done, and the sheet
#     shows the done sentence, then closes by itself (the object near all along is written: the
#     readers are opened anew after the person's answer).
#   - Screenshots of the scan sheet and of the consent question (PNGs, paths printed; kept in the
#     scenario's directory when a check fails; NFCSCAN_E2E_SCREENSHOTS=DIR copies them there too).
#   - Who is asking (sheet_sandboxed): a client started under bwrap with a /.flatpak-info as
#     Flatpak lays it out (Tests/Support/flatpak_sandbox.sh) is identified by its app ID and named
#     by that ID's desktop entry; asked once ("Allow Posters to use items you hold near the
#     reader?"); after Don't Allow its session ends not-allowed, the answer is in the permission
#     store (the rig's xdg-permission-store, read back with gdbus) and its next session is refused
#     AccessDenied at once with no sheet; nfcscan apps --revoke, and it is asked again; Allow, and
#     it reads the poster. An unsandboxed client is named by its program, never asked.
# Elsewhere the app's name on the sheet is not checked (the clients are python3, unsandboxed);
# the rest of each message is.
scenario_sheet() {
  # What --sheet auto and the checks need, said plainly rather than as 50 failed waits.
  if [ ! -x "$BUILD/nfcscan-sheet" ]; then
    bad "nfcscan-sheet beside nfcscand ($BUILD): swift build --product nfcscan-sheet"; return
  fi
  if ! "$PY" -c 'import pyatspi' 2>/dev/null || [ ! -x /usr/libexec/at-spi-bus-launcher ]; then
    bad "AT-SPI (at-spi2-core, python3-pyatspi): scripts/install-deps.sh"; return
  fi
  check "the Chinese catalog beside the build (make mo)" test -f "$BUILD/../../share/locale/zh_CN/LC_MESSAGES/nfcscan.mo"
  sheet_scan
  sheet_write
  sheet_sandboxed
}

# sheet_begin, sheet_finish, has, press, screenshot and the rest: lib.sh ("nfcscand's sheet").
# The host's commands to the object (InDataExchange 0x40, InCommunicateThru 0x42) in nfcsim's
# trace so far, but libnfc's presence check (READ page 0: d4 40 01 30 00), which background
# reading sends every moment while an object it reported stays near; polling for an object
# (InListPassiveTarget) is not a command to it either. writes: those carrying WRITE (0xA2).
exchanges() { grep -iE '^nfcsim: > 00 00 ff .. .. d4 4[02]' "$DIR/nfcsim.log" | grep -cviE 'd4 40 01 30 00 .. 00$' || true; }
writes() { grep -ciE '^nfcsim: > 00 00 ff .. .. d4 40 01 a2' "$DIR/nfcsim.log" || true; }
presence_checks() { grep -ciE '^nfcsim: > 00 00 ff .. .. d4 40 01 30 00 .. 00$' "$DIR/nfcsim.log" || true; }
ended() { # FILE -> the write session's ending, or the scan session's Invalidated reason
  json "$1" 'd.get("ending", d.get("reason", ""))'
}

# ---- scan sessions: no object near the reader ----
sheet_scan() {
  sheet_begin sheet-scan
  # The reader, and no object for a long while (it never comes during the scenario).
  sim --uri https://example.com/poster --after 600 --for 1 --keep-reader
  daemon

  # a. English: the prompt and Cancel, read and pressed through AT-SPI.
  session_client en --object poster
  wait_for "the sheet's prompt through AT-SPI" 20 has label "Hold the poster near the reader to learn more." || true
  check "the prompt is a label: Hold the poster near the reader to learn more." has label "Hold the poster near the reader to learn more."
  check "Cancel is a push button" has "push button" Cancel
  check "screenshot of the scan sheet" screenshot scan-sheet
  check "Cancel pressed through AT-SPI" press Cancel
  wait_for "the session's end" 10 grep -q invalidated "$DIR/session-en.jsonl" || true
  check "Cancel ends the session: Invalidated user-canceled" test "$(ended "$DIR/session-en.jsonl")" = user-canceled
  wait_for "the sheet to close" 5 no_sheet || true

  # b. Chinese.
  session_client zh --object poster --language zh_CN
  wait_for "the Chinese prompt through AT-SPI" 20 has label "将海报靠近读卡器以了解更多信息。" || true
  check "the prompt in Chinese: 将海报靠近读卡器以了解更多信息。" has label "将海报靠近读卡器以了解更多信息。"
  check "取消 is a push button" has "push button" 取消
  check "screenshot of the Chinese scan sheet" screenshot scan-sheet-zh
  check "取消 pressed through AT-SPI" press 取消
  wait_for "the session's end" 10 grep -q invalidated "$DIR/session-zh.jsonl" || true
  check "取消 ends the session: Invalidated user-canceled" test "$(ended "$DIR/session-zh.jsonl")" = user-canceled
  wait_for "the sheet to close" 5 no_sheet || true

  # d. The sheet killed mid-session.
  session_client killed --object poster
  wait_for "the prompt" 20 has label "Hold the poster near the reader to learn more." || true
  local pid probe
  pid=$(sheet_pids)
  check "one sheet process, the daemon's child ($pid)" test "$(echo "$pid" | grep -c .)" = 1
  kill -KILL "$pid"
  probe=$(latency --calls 100)
  check "100 Gets right after the sheet's SIGKILL, slowest under 50 ms: $probe" worst_under "$probe" 50
  wait_for "the session's end" 10 grep -q invalidated "$DIR/session-killed.jsonl" || true
  check "the killed sheet ends the session: Invalidated user-canceled" test "$(ended "$DIR/session-killed.jsonl")" = user-canceled
  wait_for "the killed sheet reaped" 5 no_sheet || true

  # d. The sheet hung (SIGSTOP) mid-session; the app ends the session itself.
  session_client hung --object poster --invalidate-when "$DIR/gate-invalidate"
  wait_for "the prompt" 20 has label "Hold the poster near the reader to learn more." || true
  pid=$(sheet_pids)
  # No AT-SPI from here on: a stopped app answers no accessibility call either.
  kill -STOP "$pid"
  probe=$(latency --calls 100)
  check "100 Gets while the sheet is stopped, slowest under 50 ms: $probe" worst_under "$probe" 50
  open_gate invalidate
  wait_for "the session's end" 10 grep -q invalidated "$DIR/session-hung.jsonl" || true
  check "the app's Invalidate ends the session (user-canceled) while its sheet hangs" \
    test "$(events "$DIR/session-hung.jsonl" | grep -o 'invalidate-called invalidated') $(ended "$DIR/session-hung.jsonl")" = "invalidate-called invalidated user-canceled"
  probe=$(latency --calls 100)
  check "100 Gets after the end, the sheet still stopped, slowest under 50 ms: $probe" worst_under "$probe" 50
  # The daemon closed the stopped sheet's input; it kills a sheet still there after the grace
  # (SheetHost.closingGrace, 3 s).
  wait_for "the daemon to kill the hung sheet" 8 ended_process "$pid" || true
  check "the hung sheet is gone (killed by the daemon after its grace)" no_sheet
  kill -CONT "$pid" 2>/dev/null || true
  check "nfcscand still runs" kill -0 "$DAEMON_PID"

  # A sheet that stops reading its input (closes it) but stays: the next view written to it finds
  # a pipe with no reader. nfcscand once died of the SIGPIPE (status 141); now the write fails
  # (EPIPE), the sheet is killed and the session ends as usual.
  kill "$DAEMON_PID"; wait "$DAEMON_PID" 2>/dev/null || true
  printf '#!/bin/sh\n# A sheet that takes its first view, says shown, then reads no more.\nread -r view\nprintf "shown\\n"\nexec 0<&-\n: >"%s"\nexec sleep 30\n' \
    "$DIR/deaf-sheet.ready" >"$DIR/deaf-sheet"
  chmod +x "$DIR/deaf-sheet"
  SHEET=$DIR/deaf-sheet daemon
  SHEET_COMM="sleep"   # the deaf sheet, as it runs once it stopped reading
  session_client deaf --object poster --invalidate-when "$DIR/gate-deaf" --invalidate-message "The app stopped looking."
  wait_for "the deaf sheet to stop reading" 10 test -e "$DIR/deaf-sheet.ready" || true
  pid=$(sheet_pids)
  open_gate deaf   # Invalidate with a message: its ending view is written to the deaf sheet
  wait_for "the session's end" 10 grep -q invalidated "$DIR/session-deaf.jsonl" || true
  check "the app's Invalidate ends the session (user-canceled)" test "$(ended "$DIR/session-deaf.jsonl")" = user-canceled
  probe=$(latency --calls 100)
  check "nfcscand lives on after writing to a sheet that reads no more (no SIGPIPE death): $probe" worst_under "$probe" 50
  wait_for "the deaf sheet killed" 5 ended_process "$pid" || true
  check "the sheet that reads no more is killed" no_sheet
  unset SHEET_COMM
  sheet_finish
}

# ---- write sessions: an NTAG213 near the reader the whole time ----
sheet_write() {
  sheet_begin sheet-write
  sim --uri https://example.com/old --after 1 --for 3600 --trace --type ntag213 --save "$DIR/memory.bin"
  wait_for "nfcsim's memory file" 10 test -s "$DIR/memory.bin" || true
  cp "$DIR/memory.bin" "$DIR/memory-before.bin"
  daemon
  # Background reading reads the object once (offered) before any session.
  wait_offer "the background offer of the object"

  # c. A link: the question, nothing sent to the object before the answer, Cancel.
  local before
  before=$(exchanges)
  write_client link --object poster --uri https://example.com/new
  wait_for "the consent question through AT-SPI" 20 has_part label "wants to save a link to the poster." || true
  check "the question: … wants to save a link to the poster." has_part label "wants to save a link to the poster."
  check "Cancel is a push button" has "push button" Cancel
  check "Save is a push button" has "push button" Save
  check "screenshot of the consent question" screenshot consent-link
  # Negative, bounded: the object is near the reader; an armed write would have reached it well
  # within 2 s (the reader polls every 250 ms).
  local checks_before; checks_before=$(presence_checks)
  sleep 2
  check "no command but the presence check reached the object while the person is asked ($before, then $(exchanges); no WRITE: $(writes); presence checks meanwhile: $(( $(presence_checks) - checks_before )))" \
    test "$(exchanges) $(writes)" = "$before 0"
  check "Cancel pressed through AT-SPI" press Cancel
  wait_for "the session's end" 10 grep -q ended "$DIR/write-link.jsonl" || true
  check "Cancel ends the write session user-canceled" test "$(ended "$DIR/write-link.jsonl")" = user-canceled
  wait_for "the sheet to close" 5 no_sheet || true

  # c. A lock: asked with a destructive Lock and "This can't be undone."; Cancel.
  write_client lock --object poster --lock
  wait_for "the lock question through AT-SPI" 20 has_part label "wants to lock the poster." || true
  check "the question: … wants to lock the poster." has_part label "wants to lock the poster."
  check "its detail: This can't be undone." has label "This can't be undone."
  check "Cancel is a push button" has "push button" Cancel
  check "Lock is a push button" has "push button" Lock
  check "screenshot of the lock question" screenshot consent-lock
  sleep 1   # negative, bounded (as above)
  check "no command but the presence check reached the object while asked to lock ($before, then $(exchanges); WRITE: $(writes))" test "$(exchanges) $(writes)" = "$before 0"
  check "Cancel pressed through AT-SPI" press Cancel
  wait_for "the session's end" 10 grep -q ended "$DIR/write-lock.jsonl" || true
  check "Cancel ends the lock session user-canceled" test "$(ended "$DIR/write-lock.jsonl")" = user-canceled
  wait_for "the sheet to close" 5 no_sheet || true
  # Negative, bounded: after the Cancels nothing is armed; 1 s more of an object near the reader
  # (background reading is back, and it read this object already).
  sleep 1
  check "no command but the presence check reached the object after the Cancels ($before, then $(exchanges); WRITE: $(writes))" test "$(exchanges) $(writes)" = "$before 0"
  check "the object unchanged (nfcsim's --save memory as at the start)" cmp -s "$DIR/memory.bin" "$DIR/memory-before.bin"

  # c. Save pressed: the write happens, ends done, the sheet says so and closes by itself.
  write_client save --object poster --uri https://example.com/new
  wait_for "the consent question" 20 has "push button" Save || true
  check "nothing sent before Save is pressed ($before, then $(exchanges); WRITE: $(writes))" test "$(exchanges) $(writes)" = "$before 0"
  check "Save pressed through AT-SPI" press Save
  wait_for "the done sentence on the sheet" 10 has label "Saved. You can take the poster away." || true
  check "the sheet shows: Saved. You can take the poster away." has label "Saved. You can take the poster away."
  wait_for "the session's end" 10 grep -q ended "$DIR/write-save.jsonl" || true
  check "the write session ends done" test "$(ended "$DIR/write-save.jsonl")" = "done"
  check "the object was written after Save (WRITE commands: $(writes))" test "$(writes)" -gt 0
  check "the object holds the new link (nfcsim's memory)" grep -aq "example.com/new" "$DIR/memory.bin"
  wait_for "the sheet to close by itself after its ending (2 s)" 8 no_sheet || true
  check "the sheet closed by itself" no_sheet

  # c. Lock pressed: locked, done.
  write_client lockit --object poster --lock
  wait_for "the lock question" 20 has "push button" Lock || true
  check "Lock pressed through AT-SPI" press Lock
  wait_for "the done sentence on the sheet" 10 has_part label "Locked." || true
  check "the sheet shows the lock's done sentence (Locked. …)" has_part label "Locked."
  wait_for "the session's end" 10 grep -q ended "$DIR/write-lockit.jsonl" || true
  check "the lock session ends done, locked" \
    test "$(json "$DIR/write-lockit.jsonl" '(d["ending"], d["details"].get("locked"))')" = "('done', True)"
  check "the capability container's write access 0x0F (page 3, byte 3)" test "$(od -An -tx1 -j15 -N1 "$DIR/memory.bin" | tr -d ' ')" = 0f
  wait_for "the sheet to close by itself" 8 no_sheet || true
  check "nfcscand still runs" kill -0 "$DAEMON_PID"
  sheet_finish
}

# Who is asking: a sandboxed app, asked once, its answer kept in the permission store.
sheet_sandboxed() {
  sheet_begin sheet-sandboxed --permission-store
  app_dirs
  printf '[Desktop Entry]\nType=Application\nName=Posters\nIcon=image-x-generic\nExec=false\n' \
    >"$XDG_DATA_HOME/applications/org.example.Posters.desktop"
  # A poster near the reader the whole time.
  sim --uri https://example.com/poster --after 0 --for 600
  daemon
  local store=(gdbus call --session -d org.freedesktop.impl.portal.PermissionStore -o /org/freedesktop/impl/portal/PermissionStore
               -m org.freedesktop.impl.portal.PermissionStore.Lookup nfcscan objects)

  CLIENT_WRAP=("$SUPPORT/flatpak_sandbox.sh" --writable "$DIR" org.example.Posters --)
  session_client denied --object poster
  wait_for "the question through AT-SPI" 20 has label "Allow Posters to use items you hold near the reader?" || true
  check "the sandboxed app is asked, by its desktop entry's name" has label "Allow Posters to use items you hold near the reader?"
  check "Don't Allow and Allow are push buttons" eval 'has "push button" "Don'"'"'t Allow" && has "push button" Allow'
  check "screenshot of the question" screenshot permission-question
  check "identified from its sandbox" grep -q "caller identified: org.example.Posters, flatpak" "$DIR/nfcscand.log"
  check "Don't Allow pressed through AT-SPI" press "Don't Allow"
  wait_for "the session's end" 10 grep -q invalidated "$DIR/session-denied.jsonl" || true
  check "Don't Allow ends the session: not-allowed" test "$(ended "$DIR/session-denied.jsonl")" = not-allowed
  check "no object reached the refused app" test "$(grep -c detected "$DIR/session-denied.jsonl")" = 0
  wait_for "the answer in the permission store" 10 eval '"${store[@]}" | grep -q "org.example.Posters.: \[.no.\]"' || true
  check "the store holds it (gdbus): $("${store[@]}" 2>&1)" eval '"${store[@]}" | grep -q "org.example.Posters.: \[.no.\]"'
  wait_for "the sheet to close" 5 no_sheet || true

  session_client again --object poster
  wait_for "the refusal" 10 grep -q refused "$DIR/session-again.jsonl" || true
  check "refused at once: AccessDenied" test "$(json "$DIR/session-again.jsonl" 'd.get("error", "")')" = org.freedesktop.DBus.Error.AccessDenied
  check "no sheet for a refused app" no_sheet

  check "nfcscan apps lists the answer" eval '"$BUILD/nfcscan" apps | grep -qx "not allowed: org.example.Posters"'
  check "nfcscan apps --revoke forgets it" "$BUILD/nfcscan" apps --revoke org.example.Posters
  session_client allowed --object poster
  wait_for "asked again" 20 has label "Allow Posters to use items you hold near the reader?" || true
  check "asked again after --revoke, then Allow pressed" press Allow
  wait_for "the poster read" 20 grep -q detected "$DIR/session-allowed.jsonl" || true
  check "allowed, it reads the poster near the reader" grep -q '"detected", "uri": "https://example.com/poster"' "$DIR/session-allowed.jsonl"
  check "the store holds yes" eval '"${store[@]}" | grep -q "org.example.Posters.: \[.yes.\]"'
  wait_for "the sheet to close" 10 no_sheet || true

  CLIENT_WRAP=()
  session_client host --object poster --invalidate-when "$DIR/gate-host"
  wait_for "the host client's prompt" 20 has label "Hold the poster near the reader to learn more." || true
  check "an unsandboxed client is not asked (its prompt at once)" has label "Hold the poster near the reader to learn more."
  check "named by its program" grep -qE "caller identified: /usr/bin/python3[.0-9]*, unsandboxed" "$DIR/nfcscand.log"
  touch "$DIR/gate-host"
  sheet_finish
}
