// The background side of nfcscan's Web NFC extension: one native host per page that uses Web NFC.
// The page's origin comes from the browser (the port's sender), never from a message, so a page
// cannot speak for another site. See PROTOCOL.md.
"use strict";

const api = globalThis.browser ?? globalThis.chrome;

const HOST_NAME = "org.nfcscan.webnfc";
const PORT_NAME = "nfcscan-webnfc";
const RELAYED_OPS = new Set(["focus", "scan", "write", "makeReadOnly", "cancel"]);
// Ops the host answers; they are answered here when the host cannot be started or goes.
const ANSWERED_OPS = new Set(["scan", "write", "makeReadOnly"]);
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

// The ASCII serialization of the sender's top-frame origin, or null when Web NFC is not offered
// there. Chromium gives sender.origin; Firefox only the URL.
function senderOrigin(sender) {
  if (!sender || sender.frameId !== 0 || !sender.tab) return null;
  let url;
  try {
    // An opaque origin ("null", a sandboxed page) parses as no URL and is refused.
    url = new URL(sender.origin !== undefined ? sender.origin : sender.url);
  } catch {
    return null;
  }
  if (url.protocol === "https:") return url.origin;
  if (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)) return url.origin;
  return null;
}

function languageFrom(message) {
  const language = message && message.language;
  // navigator.language is a BCP 47 tag; anything else is replaced rather than passed on.
  return typeof language === "string" && /^[A-Za-z0-9-]{1,35}$/.test(language) ? language : "en";
}

function notInstalledMessage(detail, hostSpoke) {
  const why = detail ? ` (${detail})` : "";
  return hostSpoke
    ? `the connection to nfcscan ended${why}`
    : `nfcscan is not installed, or its browser host ${HOST_NAME} could not start${why}`;
}

api.runtime.onConnect.addListener((port) => {
  if (port.name !== PORT_NAME) return;
  const origin = senderOrigin(port.sender);
  if (origin === null) {
    port.disconnect();
    return;
  }

  let language = null;
  let native = null;
  let hostSpoke = false;
  // The last focus the bridge reported, for a host started after it.
  let focus = null;
  // Ops the host has not answered; the background answers them if the host goes.
  const pending = new Set();

  function onNativeMessage(message) {
    if (!message || typeof message !== "object") return;
    hostSpoke = true;
    if (message.event === "done" || message.event === "error") pending.delete(message.id);
    port.postMessage(message);
  }

  // The page's port stays open when the host goes: closing it would lose the ops the bridge
  // sends meanwhile. The next operation starts a new host instead.
  function hostGone(detail) {
    const message = notInstalledMessage(detail, hostSpoke);
    native = null;
    hostSpoke = false;
    for (const id of pending) port.postMessage({ id, event: "error", name: "NotSupportedError", message });
    pending.clear();
  }

  // Null once started, or why it could not be.
  function startHost() {
    try {
      native = api.runtime.connectNative(HOST_NAME);
    } catch (e) {
      // Firefox throws here when the host manifest or the permission is missing.
      native = null;
      return String((e && e.message) || e);
    }
    const current = native;
    native.onMessage.addListener((message) => {
      if (native === current) onNativeMessage(message);
    });
    native.onDisconnect.addListener((p) => {
      // Reading lastError here also keeps Chromium from logging it as unchecked.
      const detail = api.runtime.lastError?.message ?? p?.error?.message ?? "";
      if (native === current) hostGone(detail);
    });
    native.postMessage({ op: "hello", origin, language });
    if (focus !== null) native.postMessage(focus);
    return null;
  }

  port.onMessage.addListener((message) => {
    if (!message || typeof message !== "object") return;
    if (language === null) {
      // The bridge's first message carries navigator.language and nothing else used here.
      if (message.op !== "hello") {
        port.disconnect();
        return;
      }
      language = languageFrom(message);
      startHost();
      return;
    }
    if (!RELAYED_OPS.has(message.op)) return;
    if (message.op === "focus") focus = { op: "focus", active: message.active === true, visible: message.visible === true };
    if (message.op === "cancel") pending.delete(message.id);
    if (ANSWERED_OPS.has(message.op)) {
      pending.add(message.id);
      const failure = native === null ? startHost() : null;
      if (failure !== null) {
        hostGone(failure);
        return;
      }
    }
    if (native !== null) native.postMessage(message.op === "focus" ? focus : message);
  });

  port.onDisconnect.addListener(() => {
    const gone = native;
    native = null;
    if (gone !== null) gone.disconnect();
  });
});
