// The bridge between the page script (the page's own world) and the background, in the
// extension's isolated world: the page cannot change what runs here, so this is where the shape
// of what the page asks for is checked and where "may this page use NFC now" is read.
// See PROTOCOL.md.
"use strict";

(() => {
  const api = globalThis.browser ?? globalThis.chrome;

  // Fixed names shared with webnfc-page.js. The page sees these events; that is fine, it is the
  // caller, and nothing here trusts it for more than its own operations.
  const TO_BRIDGE = "nfcscan-webnfc-to-bridge";
  const TO_PAGE = "nfcscan-webnfc-to-page";
  const PORT_NAME = "nfcscan-webnfc";

  const MAX_MESSAGE_CHARS = 1024 * 1024;
  const MAX_DEPTH = 32;
  const MAX_STRING = 4096;
  const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
  const ERROR_NAME = /^[A-Z][A-Za-z]{0,63}$/;
  const RECORD_KEYS = new Set(["recordType", "mediaType", "id", "encoding", "lang", "data", "records"]);
  const HOST_EVENTS = new Set(["started", "reading", "readingerror", "done", "error"]);

  // Only a top-level document with an origin of its own (not a sandboxed one) may connect; the
  // background checks the origin again from what the browser says.
  const mayConnect = window === window.top && window.origin !== "null";
  let port = null;
  let lastId = 0;
  // Operation id → op name, for ops the host has not finished.
  const pending = new Map();
  let active = null;
  let pollTimer = 0;
  let watching = false;

  const isId = (v) => Number.isSafeInteger(v) && v > 0;
  const isOptString = (v, max = MAX_STRING) => v === undefined || v === null || (typeof v === "string" && v.length <= max);

  // A RECORD of PROTOCOL.md; `writing` adds the rule that a record has data or records, not both.
  function isRecord(r, depth, writing) {
    if (r === null || typeof r !== "object" || Array.isArray(r)) return false;
    for (const key of Object.keys(r)) if (!RECORD_KEYS.has(key)) return false;
    if (typeof r.recordType !== "string" || r.recordType.length === 0 || r.recordType.length > 512) return false;
    if (!isOptString(r.mediaType, 512) || !isOptString(r.id, 512) || !isOptString(r.encoding, 16) || !isOptString(r.lang, 64)) return false;
    const hasData = r.data !== undefined && r.data !== null;
    const hasRecords = r.records !== undefined && r.records !== null;
    if (hasData && (typeof r.data !== "string" || !BASE64.test(r.data))) return false;
    if (hasRecords && !isRecordList(r.records, depth + 1, writing, false)) return false;
    return !(writing && hasData && hasRecords);
  }

  function isRecordList(list, depth, writing, mayBeEmpty) {
    if (!Array.isArray(list) || depth > MAX_DEPTH) return false;
    if (list.length === 0 && !mayBeEmpty) return false;
    return list.every((r) => isRecord(r, depth, writing));
  }

  // The op as the host may receive it, or null when the page asked for something malformed.
  function checkedOp(m) {
    if (m === null || typeof m !== "object" || !isId(m.id)) return null;
    switch (m.op) {
      case "scan":
      case "makeReadOnly":
        return { op: m.op, id: m.id };
      case "write":
        if (typeof m.overwrite !== "boolean" || !isRecordList(m.records, 1, true, false)) return null;
        return { op: "write", id: m.id, records: m.records, overwrite: m.overwrite };
      case "cancel":
        return pending.has(m.id) ? { op: "cancel", id: m.id } : null;
      default:
        return null;
    }
  }

  function checkedEvent(m) {
    if (m === null || typeof m !== "object" || !isId(m.id) || !HOST_EVENTS.has(m.event)) return null;
    switch (m.event) {
      case "reading": {
        const serial = m.serialNumber ?? null;
        if (!isOptString(serial, 256) || m.message === null || typeof m.message !== "object") return null;
        if (!isRecordList(m.message.records, 1, false, true)) return null;
        return { id: m.id, event: "reading", serialNumber: serial, message: { records: m.message.records } };
      }
      case "error":
        if (typeof m.name !== "string" || !ERROR_NAME.test(m.name)) return null;
        return { id: m.id, event: "error", name: m.name, message: typeof m.message === "string" ? m.message.slice(0, MAX_STRING) : "" };
      default:
        return { id: m.id, event: m.event };
    }
  }

  function toPage(message) {
    document.dispatchEvent(new CustomEvent(TO_PAGE, { detail: JSON.stringify(message) }));
  }

  function fail(id, message) {
    toPage({ id, event: "error", name: "NotSupportedError", message });
  }

  // The host needs both: a page starts only while visible and focused (active), and keeps
  // receiving while visible, since nfcscand's own sheet takes the focus when it appears.
  function focusNow() {
    const visible = document.visibilityState === "visible";
    return { active: visible && document.hasFocus(), visible };
  }

  function sendFocus() {
    const now = focusNow();
    if (port === null || (active !== null && now.active === active.active && now.visible === active.visible)) return;
    active = now;
    post({ op: "focus", active: now.active, visible: now.visible });
  }

  function pollFocus() {
    if (document.visibilityState === "visible") sendFocus();
  }

  // Focus can leave the window from inside a child frame without any event reaching this
  // document, so while connected and visible the value is also re-read once a second.
  function watchFocus() {
    if (!watching) {
      watching = true;
      document.addEventListener("visibilitychange", sendFocus);
      window.addEventListener("focus", sendFocus);
      window.addEventListener("blur", () => {
        sendFocus();
        // Moving focus into a child frame blurs this window for a moment.
        setTimeout(sendFocus, 0);
      });
    }
    pollTimer = setInterval(pollFocus, 1000);
  }

  function post(message) {
    try {
      port.postMessage(message);
    } catch {
      // The port closed under us; onDisconnect answers what is pending.
    }
  }

  function onHostMessage(raw) {
    const m = checkedEvent(raw);
    if (m === null || !pending.has(m.id)) return;
    if (m.event === "done" || m.event === "error") pending.delete(m.id);
    toPage(m);
  }

  function onDisconnect() {
    // Read so that Chromium does not log it as unchecked.
    void api.runtime.lastError;
    port = null;
    active = null;
    clearInterval(pollTimer);
    for (const id of pending.keys()) fail(id, "the connection to nfcscan ended");
    pending.clear();
  }

  function connect() {
    port = api.runtime.connect({ name: PORT_NAME });
    port.onMessage.addListener(onHostMessage);
    port.onDisconnect.addListener(onDisconnect);
    post({ op: "hello", language: navigator.language });
    watchFocus();
    sendFocus();
  }

  document.addEventListener(TO_BRIDGE, (event) => {
    // Subframes never connect: the page script answers them with InvalidStateError itself.
    if (!mayConnect) return;
    const raw = event.detail;
    if (typeof raw !== "string") return;
    if (raw.length > MAX_MESSAGE_CHARS) {
      // Answered without parsing a message of any size: the page script writes op and id first.
      const head = /^\{"op":"(?:write|scan|makeReadOnly)","id":(\d{1,16})[,}]/.exec(raw.slice(0, 64));
      const id = head ? Number(head[1]) : 0;
      if (isId(id) && id > lastId && !pending.has(id)) {
        lastId = id;
        fail(id, "the NDEF message is larger than the 1 MiB the extension relays");
      }
      return;
    }
    let parsed;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return;
    }
    const op = checkedOp(parsed);
    if (op === null) {
      if (parsed && isId(parsed.id) && parsed.id > lastId && parsed.op !== "cancel") {
        lastId = parsed.id;
        fail(parsed.id, "the extension refused a malformed operation");
      }
      return;
    }
    if (op.op === "cancel") {
      pending.delete(op.id);
      if (port !== null) post(op);
      return;
    }
    // Ids only grow, which keeps them unique on the port as PROTOCOL.md asks.
    if (op.id <= lastId) return;
    lastId = op.id;
    if (port === null) connect();
    pending.set(op.id, op.op);
    post(op);
  });
})();
