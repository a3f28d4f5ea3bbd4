// Web NFC conversion cases, written from the spec's "create NDEF record" / "create NDEF message"
// steps, run against nfcscan's extension with no native host installed. Results go to
// window.results ({name, ok, why}); window.done turns true at the end.
//
// "Nothing was sent" is seen directly: the page script's messages to the bridge are events on
// `document`, which this page counts. A valid operation is sent, and then rejected with
// NotSupportedError by the extension's background, which finds no native host.
"use strict";

window.results = [];
window.done = false;

const TO_BRIDGE = "nfcscan-webnfc-to-bridge";
const TO_PAGE = "nfcscan-webnfc-to-page";
const sent = [];
document.addEventListener(TO_BRIDGE, (event) => sent.push(JSON.parse(event.detail)));

const encoder = new TextEncoder();
const utf8 = (s) => encoder.encode(s);
const hexOf = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const hexOfView = (view) => (view === null ? null : hexOf(new Uint8Array(view.buffer, view.byteOffset, view.byteLength)));
const hexUTF8 = (s) => hexOf(utf8(s));
const base64UTF8 = (s) => btoa(String.fromCharCode(...utf8(s)));

function pass(name) {
  window.results.push({ name, ok: true });
}

function fail(name, why) {
  window.results.push({ name, ok: false, why: String(why) });
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function fields(record) {
  return {
    recordType: record.recordType,
    mediaType: record.mediaType,
    id: record.id,
    encoding: record.encoding,
    lang: record.lang,
    data: hexOfView(record.data),
  };
}

// The record `init` makes must have these fields; the ones not named are null. `records` names
// the recordTypes toRecords() returns (null for none).
function expectRecord(name, init, want) {
  let record;
  try {
    record = new NDEFRecord(init);
  } catch (e) {
    return fail(name, `threw ${e.name}: ${e.message}`);
  }
  const expected = { recordType: init.recordType, mediaType: null, id: null, encoding: null, lang: null, data: null, ...want };
  delete expected.records;
  const got = fields(record);
  if (!same(got, expected)) return fail(name, `got ${JSON.stringify(got)}, want ${JSON.stringify(expected)}`);
  if ("records" in want) {
    const nested = record.toRecords();
    const types = nested === null ? null : nested.map((r) => r.recordType);
    if (!same(types, want.records)) return fail(name, `toRecords() gave ${JSON.stringify(types)}, want ${JSON.stringify(want.records)}`);
  }
  pass(name);
}

function isError(e, errorName) {
  if (errorName === "TypeError") return e instanceof TypeError;
  return e instanceof DOMException && e.name === errorName;
}

function expectThrows(name, fn, errorName) {
  try {
    fn();
  } catch (e) {
    return isError(e, errorName) ? pass(name) : fail(name, `threw ${e && e.name}: ${e && e.message}, want ${errorName}`);
  }
  fail(name, `did not throw, want ${errorName}`);
}

const recordThrows = (name, init, errorName = "TypeError") => expectThrows(name, () => new NDEFRecord(init), errorName);

// `call` returns a promise that must reject; `check(e)` says whether the reason is right. The
// page script must send exactly `sends` messages to the bridge meanwhile; they are returned.
async function expectRejects(name, call, check, sends = 0) {
  const before = sent.length;
  let outcome;
  try {
    await call();
    outcome = "resolved";
  } catch (e) {
    outcome = check(e) ? null : `rejected with ${e && e.name}: ${e && e.message}`;
  }
  const messages = sent.slice(before);
  if (outcome !== null) fail(name, outcome);
  else if (messages.length !== sends) fail(name, `sent ${messages.length} messages to the bridge, want ${sends}: ${JSON.stringify(messages)}`);
  else pass(name);
  return messages;
}

const named = (errorName) => (e) => isError(e, errorName);
const notInstalled = (e) => isError(e, "NotSupportedError") && /nfcscan is not installed/.test(e.message);

// A write that must be sent as `records` (PROTOCOL.md's RECORDs; unnamed fields null), then fail
// for want of a native host.
async function expectWrite(name, message, options, records, overwrite = true) {
  const messages = await expectRejects(name, () => new NDEFReader().write(message, options), notInstalled, 1);
  if (messages.length !== 1) return;
  const got = messages[0];
  const want = { op: "write", id: got.id, records: records.map(wire), overwrite };
  if (!same(got, want)) {
    window.results.pop();
    fail(name, `sent ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  }
}

function wire(r) {
  return {
    recordType: r.recordType,
    mediaType: r.mediaType ?? null,
    id: r.id ?? null,
    encoding: r.encoding ?? null,
    lang: r.lang ?? null,
    data: r.data ?? null,
    records: r.records ? r.records.map(wire) : null,
  };
}

// An external record holding `levels` nested messages.
function nested(levels) {
  let record = { recordType: "example.com:leaf", data: new Uint8Array([1]) };
  for (let i = 0; i < levels; i++) record = { recordType: "example.com:level", data: { records: [record] } };
  return record;
}

const smartPoster = () => ({
  recordType: "smart-poster",
  data: {
    records: [
      { recordType: "text", data: "Funny dance", lang: "en" },
      { recordType: "url", data: "https://example.com/content/19911" },
      { recordType: ":t", data: utf8("image/gif") },
      { recordType: ":s", data: new Uint32Array([4096]) },
      { recordType: ":act", data: new Uint8Array([0]) },
      { recordType: "mime", mediaType: "image/png", data: new Uint8Array([0x89, 0x50]) },
    ],
  },
});

function spWith(records) {
  return { recordType: "smart-poster", data: { records } };
}

const spURL = { recordType: "url", data: "https://example.com/" };

function recordCases() {
  // empty
  expectRecord("empty: every field null", { recordType: "empty" }, {});
  expectRecord("empty: data is ignored", { recordType: "empty", data: utf8("x") }, {});
  recordThrows("empty: an id is a TypeError", { recordType: "empty", id: "x" });
  recordThrows("empty: a mediaType is a TypeError", { recordType: "empty", mediaType: "text/plain" });

  // text
  expectRecord("text: a string is UTF-8 in the document's language", { recordType: "text", data: "héllo" },
    { encoding: "utf-8", lang: "de-CH", data: hexUTF8("héllo") });
  expectRecord("text: lang given", { recordType: "text", data: "bonjour", lang: "fr" }, { encoding: "utf-8", lang: "fr", data: hexUTF8("bonjour") });
  expectRecord("text: lang given empty stays empty", { recordType: "text", data: "x", lang: "" }, { encoding: "utf-8", lang: "", data: "78" });
  expectRecord("text: a string with encoding utf-8", { recordType: "text", data: "x", encoding: "utf-8" }, { encoding: "utf-8", lang: "de-CH", data: "78" });
  expectRecord("text: a lone surrogate in a string is U+FFFD", { recordType: "text", data: "a\ud800" }, { encoding: "utf-8", lang: "de-CH", data: "61efbfbd" });
  expectRecord("text: id kept", { recordType: "text", data: "x", id: "urn:nfcscan:1" }, { id: "urn:nfcscan:1", encoding: "utf-8", lang: "de-CH", data: "78" });
  recordThrows("text: a string with encoding utf-16 is a TypeError", { recordType: "text", data: "x", encoding: "utf-16" });
  recordThrows("text: encoding labels are exact (UTF-8)", { recordType: "text", data: "x", encoding: "UTF-8" });
  expectRecord("text: Uint8Array defaults to utf-8", { recordType: "text", data: utf8("hi") }, { encoding: "utf-8", lang: "de-CH", data: "6869" });
  expectRecord("text: ArrayBuffer as utf-16be", { recordType: "text", data: new Uint8Array([0, 0x68]).buffer, encoding: "utf-16be" },
    { encoding: "utf-16be", lang: "de-CH", data: "0068" });
  expectRecord("text: DataView as utf-16le", { recordType: "text", data: new DataView(new Uint8Array([9, 0x68, 0, 9]).buffer, 1, 2), encoding: "utf-16le" },
    { encoding: "utf-16le", lang: "de-CH", data: "6800" });
  expectRecord("text: only a view's own bytes, as utf-16", { recordType: "text", data: new Uint8Array(new Uint8Array([0, 1, 2, 3, 4, 5]).buffer, 2, 3), encoding: "utf-16" },
    { encoding: "utf-16", lang: "de-CH", data: "020304" });
  recordThrows("text: BufferSource with encoding latin1 is a TypeError", { recordType: "text", data: utf8("x"), encoding: "latin1" });
  recordThrows("text: a number is a TypeError", { recordType: "text", data: 42 });
  recordThrows("text: no data is a TypeError", { recordType: "text" });
  recordThrows("text: a mediaType is a TypeError", { recordType: "text", data: "x", mediaType: "text/plain" });
  expectRecord("text: lang of 63 bytes", { recordType: "text", data: "x", lang: "a".repeat(63) }, { encoding: "utf-8", lang: "a".repeat(63), data: "78" });
  recordThrows("text: lang of 64 bytes is a SyntaxError", { recordType: "text", data: "x", lang: "a".repeat(64) }, "SyntaxError");

  // url
  expectRecord("url: data is the serialized URL", { recordType: "url", data: "HTTPS://Example.COM/a b?q=1#f" }, { data: hexUTF8("https://example.com/a%20b?q=1#f") });
  expectRecord("url: other schemes", { recordType: "url", data: "tel:+41441234567" }, { data: hexUTF8("tel:+41441234567") });
  recordThrows("url: a relative URL is a SyntaxError", { recordType: "url", data: "/relative" }, "SyntaxError");
  recordThrows("url: a URL object is not a string: TypeError", { recordType: "url", data: new URL("https://example.com/") });
  recordThrows("url: a mediaType is a TypeError", { recordType: "url", data: "https://example.com/", mediaType: "text/uri-list" });

  // absolute-url
  expectRecord("absolute-url: data is the serialized URL", { recordType: "absolute-url", data: "https://w3.org/x" }, { data: hexUTF8("https://w3.org/x") });
  recordThrows("absolute-url: not a URL is a SyntaxError", { recordType: "absolute-url", data: "no url" }, "SyntaxError");
  recordThrows("absolute-url: bytes are a TypeError", { recordType: "absolute-url", data: utf8("https://w3.org/") });
  recordThrows("absolute-url: longer than 255 bytes is a TypeError", { recordType: "absolute-url", data: `https://example.com/${"a".repeat(236)}` });
  recordThrows("absolute-url: inside a smart poster is a TypeError", spWith([spURL, { recordType: "absolute-url", data: "https://w3.org/" }]));

  // mime
  expectRecord("mime: mediaType parsed and serialized", { recordType: "mime", mediaType: " Text/Plain ; Charset=UTF-8 ;;x", data: utf8("a") },
    { mediaType: "text/plain;charset=UTF-8", data: "61" });
  expectRecord("mime: parameter values quoted when needed", { recordType: "mime", mediaType: 'text/plain;name="a \\"b\\""', data: utf8("a") },
    { mediaType: 'text/plain;name="a \\"b\\""', data: "61" });
  expectRecord("mime: no mediaType is application/octet-stream", { recordType: "mime", data: new Uint8Array([1, 2]) }, { mediaType: "application/octet-stream", data: "0102" });
  expectRecord("mime: a mediaType that does not parse is application/octet-stream", { recordType: "mime", mediaType: "nonsense", data: new Uint8Array([3]) },
    { mediaType: "application/octet-stream", data: "03" });
  expectRecord("mime: id kept", { recordType: "mime", mediaType: "image/png", id: "/icon", data: new Uint8Array([0x89]) }, { mediaType: "image/png", id: "/icon", data: "89" });
  expectRecord("mime: an object is JSON", { recordType: "mime", data: { level: 3, name: "x" } }, { mediaType: "application/json", data: hexUTF8('{"level":3,"name":"x"}') });
  expectRecord("mime: JSON keeps a JSON mediaType", { recordType: "mime", mediaType: "application/ld+json", data: [1, 2] }, { mediaType: "application/ld+json", data: hexUTF8("[1,2]") });
  recordThrows("mime: JSON with a non-JSON mediaType is a TypeError", { recordType: "mime", mediaType: "image/png", data: { a: 1 } });
  recordThrows("mime: an object with no JSON form (cycle) is a TypeError", (() => { const o = {}; o.self = o; return { recordType: "mime", data: o }; })());
  recordThrows("mime: a string is a TypeError", { recordType: "mime", mediaType: "text/plain", data: "x" });
  recordThrows("mime: no data is a TypeError", { recordType: "mime", mediaType: "text/plain" });
  recordThrows("mime: a mediaType longer than 255 bytes is a TypeError", { recordType: "mime", mediaType: `application/${"x".repeat(244)}`, data: new Uint8Array(1) });

  // unknown
  expectRecord("unknown: bytes", { recordType: "unknown", data: utf8("Food") }, { data: hexUTF8("Food") });
  recordThrows("unknown: a string is a TypeError", { recordType: "unknown", data: "Food" });
  recordThrows("unknown: a mediaType is a TypeError", { recordType: "unknown", mediaType: "text/plain", data: utf8("x") });

  // smart-poster
  expectRecord("smart-poster: url moved first, local types kept", smartPoster(), { records: ["url", "text", ":t", ":s", ":act", "mime"] });
  expectRecord("smart-poster: external and empty records allowed", spWith([{ recordType: "empty" }, { recordType: "example.com:x", data: new Uint8Array(1) }, spURL]),
    { records: ["url", "empty", "example.com:x"] });
  expectRecord("smart-poster: :s of fewer than 4 bytes", spWith([spURL, { recordType: ":s", data: new Uint8Array(2) }]), { records: ["url", ":s"] });
  recordThrows("smart-poster: two url records is a TypeError", spWith([spURL, spURL]));
  recordThrows("smart-poster: no url record is a TypeError", spWith([{ recordType: "text", data: "x" }]));
  recordThrows("smart-poster: two :t records is a TypeError", spWith([spURL, { recordType: ":t", data: utf8("a/b") }, { recordType: ":t", data: utf8("a/c") }]));
  recordThrows("smart-poster: two :act records is a TypeError", spWith([spURL, { recordType: ":act", data: new Uint8Array(1) }, { recordType: ":act", data: new Uint8Array(1) }]));
  recordThrows("smart-poster: :s of 5 bytes is a TypeError", spWith([spURL, { recordType: ":s", data: new Uint8Array(5) }]));
  recordThrows("smart-poster: :s as a message is a TypeError", spWith([spURL, { recordType: ":s", data: { records: [{ recordType: "empty" }] } }]));
  recordThrows("smart-poster: :act of 2 bytes is a TypeError", spWith([spURL, { recordType: ":act", data: new Uint8Array(2) }]));
  recordThrows("smart-poster: :act as a string is a TypeError", spWith([spURL, { recordType: ":act", data: "0" }]));
  recordThrows("smart-poster: bytes as data is a TypeError", { recordType: "smart-poster", data: new Uint8Array(4) });
  recordThrows("smart-poster: a string as data is a TypeError", { recordType: "smart-poster", data: "https://example.com/" });
  recordThrows("smart-poster: no records is a TypeError", { recordType: "smart-poster", data: {} });
  recordThrows("smart-poster: empty records is a TypeError", { recordType: "smart-poster", data: { records: [] } });
  recordThrows("smart-poster: a mediaType is a TypeError", { ...smartPoster(), mediaType: "text/plain" });

  // external types
  expectRecord("external: bytes; toRecords() is null", { recordType: "example.com:foo", data: utf8("x") }, { data: "78", records: null });
  expectRecord("external: a message, with a local type of any size", { recordType: "example.com:post", data: { records: [{ recordType: "text", data: "x" }, { recordType: ":act", data: new Uint8Array(2) }] } },
    { records: ["text", ":act"] });
  expectRecord("external: an IDN domain keeps its Unicode form", { recordType: "håndværker.dk:abc", data: new Uint8Array(0) }, { data: "" });
  expectRecord("external: every character the type name may use", { recordType: "w3.org:Az09$'()*+,-.;=@_", data: new Uint8Array(0) }, { data: "" });
  recordThrows("external: a / in the type name is a TypeError", { recordType: "example.com:a/b", data: new Uint8Array(0) });
  recordThrows("external: an empty type name is a TypeError", { recordType: "example.com:", data: new Uint8Array(0) });
  recordThrows("external: a space in the domain is a TypeError", { recordType: "exa mple.com:x", data: new Uint8Array(0) });
  recordThrows("external: an underscore in the domain is a TypeError", { recordType: "ex_ample.com:x", data: new Uint8Array(0) });
  recordThrows("external: an empty label is a TypeError", { recordType: "example..com:x", data: new Uint8Array(0) });
  expectRecord("external: 255 bytes", { recordType: `${"a".repeat(60)}.${"b".repeat(60)}.${"c".repeat(60)}.com:${"t".repeat(68)}`, data: new Uint8Array(0) }, { data: "" });
  recordThrows("external: 256 bytes is a TypeError", { recordType: `${"a".repeat(60)}.${"b".repeat(60)}.${"c".repeat(60)}.com:${"t".repeat(69)}`, data: new Uint8Array(0) });
  recordThrows("external: a mediaType is a TypeError", { recordType: "example.com:x", mediaType: "text/plain", data: new Uint8Array(0) });
  recordThrows("external: a string is a TypeError", { recordType: "example.com:x", data: "x" });
  recordThrows("external: no data is a TypeError", { recordType: "example.com:x" });
  expectRecord("external: 32 nested messages", nested(32), { records: ["example.com:level"] });
  recordThrows("external: 33 nested messages is a TypeError", nested(33));

  // local types
  recordThrows("local: not inside another record is a TypeError", { recordType: ":act", data: new Uint8Array(1) });
  recordThrows("local: an uppercase first letter is a TypeError", { recordType: "example.com:x", data: { records: [{ recordType: ":Act", data: new Uint8Array(1) }] } });
  recordThrows("local: an empty name is a TypeError", { recordType: "example.com:x", data: { records: [{ recordType: ":", data: new Uint8Array(1) }] } });
  expectRecord("local: a name of 255 bytes, and one starting with a digit", { recordType: "example.com:x", data: { records: [{ recordType: `:${"a".repeat(255)}`, data: new Uint8Array(0) }, { recordType: ":9", data: new Uint8Array(0) }] } },
    { records: [`:${"a".repeat(255)}`, ":9"] });
  recordThrows("local: a name of 256 bytes is a TypeError", { recordType: "example.com:x", data: { records: [{ recordType: `:${"a".repeat(256)}`, data: new Uint8Array(0) }] } });
  recordThrows("local: a mediaType is a TypeError", { recordType: "example.com:x", data: { records: [{ recordType: ":x", mediaType: "a/b", data: new Uint8Array(0) }] } });
  recordThrows("local: a string is a TypeError", { recordType: "example.com:x", data: { records: [{ recordType: ":x", data: "x" }] } });
  expectRecord("local: may hold a message with local types", { recordType: "example.com:x", data: { records: [{ recordType: ":x", data: { records: [{ recordType: ":y", data: new Uint8Array(0) }] } }] } },
    { records: [":x"] });

  // record types, ids, and the dictionary conversion
  recordThrows('recordType: "foo" is a TypeError', { recordType: "foo", data: new Uint8Array(0) });
  recordThrows('recordType: "Text" is a TypeError (names are exact)', { recordType: "Text", data: "x" });
  recordThrows("recordType: empty is a TypeError", { recordType: "", data: "x" });
  recordThrows("recordType: missing is a TypeError", { data: "x" });
  recordThrows("recordType: a Symbol is a TypeError", { recordType: Symbol("text"), data: "x" });
  expectRecord("recordType: converted with ToString", { recordType: { toString: () => "empty" } }, { recordType: "empty" });
  recordThrows("init: a string is a TypeError", "text");
  expectThrows("init: no argument is a TypeError", () => new NDEFRecord(), "TypeError");
  expectRecord("id: 255 bytes", { recordType: "unknown", id: "i".repeat(255), data: new Uint8Array(0) }, { id: "i".repeat(255), data: "" });
  recordThrows("id: 256 bytes is a TypeError", { recordType: "unknown", id: "i".repeat(256), data: new Uint8Array(0) });
  expectRecord("id: a lone surrogate becomes U+FFFD (USVString)", { recordType: "unknown", id: "a\udc00", data: new Uint8Array(0) }, { id: "a\ufffd", data: "" });

  // data is a copy, both ways
  {
    const source = new Uint8Array([1, 2, 3]);
    const record = new NDEFRecord({ recordType: "unknown", data: source });
    source[0] = 9;
    record.data.setUint8(1, 9);
    const now = hexOfView(record.data);
    now === "010203" ? pass("data: a copy of the source, and a fresh copy each read") : fail("data: a copy of the source, and a fresh copy each read", now);
  }
  expectThrows("toRecords(): a text record holds none (NotSupportedError)", () => new NDEFRecord({ recordType: "text", data: "x" }).toRecords(), "NotSupportedError");
}

function messageCases() {
  const name = "NDEFMessage: records in order, one frozen array";
  try {
    const message = new NDEFMessage({ records: [{ recordType: "text", data: "a" }, { recordType: "url", data: "https://example.com/" }] });
    const types = message.records.map((r) => r.recordType);
    const ok = same(types, ["text", "url"]) && Object.isFrozen(message.records) && message.records === message.records && message.records[0] instanceof NDEFRecord;
    ok ? pass(name) : fail(name, JSON.stringify(types));
  } catch (e) {
    fail(name, e);
  }
  {
    const message = new NDEFMessage({ records: new Set([{ recordType: "empty" }]) });
    message.records.length === 1 ? pass("NDEFMessage: records may be any iterable") : fail("NDEFMessage: records may be any iterable", message.records.length);
  }
  expectThrows("NDEFMessage: empty records is a TypeError", () => new NDEFMessage({ records: [] }), "TypeError");
  expectThrows("NDEFMessage: records not iterable is a TypeError", () => new NDEFMessage({ records: 5 }), "TypeError");
  expectThrows("NDEFMessage: no records is a TypeError", () => new NDEFMessage({}), "TypeError");
  expectThrows("NDEFMessage: no argument is a TypeError", () => new NDEFMessage(), "TypeError");
  expectThrows("NDEFMessage: a local type at the top is a TypeError", () => new NDEFMessage({ records: [{ recordType: ":x", data: new Uint8Array(0) }] }), "TypeError");

  {
    const event = new NDEFReadingEvent("reading", { bubbles: true, message: { records: [{ recordType: "text", data: "x" }] } });
    const ok = event.serialNumber === "" && event.bubbles && event.message === event.message && event.message.records[0].recordType === "text" && event instanceof Event;
    ok ? pass("NDEFReadingEvent: serialNumber defaults to empty, message made") : fail("NDEFReadingEvent: serialNumber defaults to empty, message made", event.serialNumber);
  }
  {
    const event = new NDEFReadingEvent("reading", { serialNumber: null, message: { records: [{ recordType: "empty" }] } });
    event.serialNumber === "" ? pass("NDEFReadingEvent: a null serialNumber is empty") : fail("NDEFReadingEvent: a null serialNumber is empty", event.serialNumber);
  }
  expectThrows("NDEFReadingEvent: no message is a TypeError", () => new NDEFReadingEvent("reading", {}), "TypeError");
  expectThrows("NDEFReadingEvent: one argument is a TypeError", () => new NDEFReadingEvent("reading"), "TypeError");
}

function shapeCases() {
  const check = (name, ok, why = "") => (ok ? pass(name) : fail(name, why));
  check("interfaces: constructor lengths 0, 1, 1, 2", NDEFReader.length === 0 && NDEFRecord.length === 1 && NDEFMessage.length === 1 && NDEFReadingEvent.length === 2,
    [NDEFReader.length, NDEFRecord.length, NDEFMessage.length, NDEFReadingEvent.length]);
  check("interfaces: method lengths scan 0, write 1, makeReadOnly 0, toRecords 0",
    NDEFReader.prototype.scan.length === 0 && NDEFReader.prototype.write.length === 1 && NDEFReader.prototype.makeReadOnly.length === 0 && NDEFRecord.prototype.toRecords.length === 0);
  const reader = new NDEFReader();
  const record = new NDEFRecord({ recordType: "text", data: "x" });
  check("interfaces: Symbol.toStringTag names them", String(reader) === "[object NDEFReader]" && Object.prototype.toString.call(record) === "[object NDEFRecord]", String(reader));
  check("interfaces: no own properties on instances", Reflect.ownKeys(reader).length === 0 && Reflect.ownKeys(record).length === 0, Reflect.ownKeys(record));
  check("interfaces: attributes are enumerable prototype accessors", Object.keys(NDEFRecord.prototype).includes("recordType") && typeof Object.getOwnPropertyDescriptor(NDEFRecord.prototype, "data").get === "function");
  check("interfaces: window properties not enumerable", !Object.keys(window).includes("NDEFReader") && Object.getOwnPropertyDescriptor(window, "NDEFReader").writable);
  check("interfaces: NDEFReader is an EventTarget", reader instanceof EventTarget);
  expectThrows("interfaces: NDEFRecord without new is a TypeError", () => NDEFRecord({ recordType: "empty" }), "TypeError");
  expectThrows("interfaces: an attribute read on the wrong object is a TypeError", () => Object.getOwnPropertyDescriptor(NDEFRecord.prototype, "recordType").get.call({}), "TypeError");

  // Event handler attributes.
  let self = null;
  check("onreading: null at first", reader.onreading === null && reader.onreadingerror === null);
  reader.onreading = function (event) {
    self = this;
    return false;
  };
  const event = new Event("reading", { cancelable: true });
  reader.dispatchEvent(event);
  check("onreading: called on the reader; returning false cancels", self === reader && event.defaultPrevented);
  reader.onreading = 5;
  check("onreading: a non-object is null", reader.onreading === null);
  const handlerObject = { handleEvent() {} };
  reader.onreadingerror = handlerObject;
  reader.dispatchEvent(new Event("readingerror"));
  check("onreadingerror: a non-callable object is kept and not called", reader.onreadingerror === handlerObject);
}

async function operationCases() {
  const reader = () => new NDEFReader();

  // write(): refused before anything is sent.
  await expectRejects("write(): no argument is a TypeError", () => reader().write(), named("TypeError"));
  await expectRejects("write(): {} is a TypeError", () => reader().write({}), named("TypeError"));
  await expectRejects("write(): empty records is a TypeError", () => reader().write({ records: [] }), named("TypeError"));
  await expectRejects("write(): a bad record is a TypeError", () => reader().write({ records: [{ recordType: "text", data: 5 }] }), named("TypeError"));
  await expectRejects("write(): a local type at the top is a TypeError", () => reader().write({ records: [{ recordType: ":act", data: new Uint8Array(1) }] }), named("TypeError"));
  await expectRejects("write(): more than 32 nested messages, counting the top one, is a TypeError", () => reader().write({ records: [nested(32)] }), named("TypeError"));
  await expectRejects("write(): a long lang is a SyntaxError", () => reader().write({ records: [{ recordType: "text", data: "x", lang: "x".repeat(64) }] }), named("SyntaxError"));
  await expectRejects("write(): a bad url is a SyntaxError", () => reader().write({ records: [{ recordType: "url", data: "::" }] }), named("SyntaxError"));
  await expectRejects("write(): a Symbol is a TypeError", () => reader().write(Symbol("x")), named("TypeError"));
  await expectRejects("write(): options not an object is a TypeError", () => reader().write("x", 5), named("TypeError"));
  await expectRejects("write(): a signal that is not an AbortSignal is a TypeError", () => reader().write("x", { signal: "no" }), named("TypeError"));
  {
    const controller = new AbortController();
    const reason = new Error("stop");
    controller.abort(reason);
    await expectRejects("write(): an aborted signal rejects with its reason", () => reader().write("x", { signal: controller.signal }), (e) => e === reason);
  }
  await expectRejects("write(): called on another object is a TypeError", () => NDEFReader.prototype.write.call({}, "x"), named("TypeError"));

  // write(): sent as PROTOCOL.md's RECORDs, then refused for want of a host.
  await expectWrite("write(): a string is one text record", "hello", undefined,
    [{ recordType: "text", encoding: "utf-8", lang: "de-CH", data: base64UTF8("hello") }]);
  await expectWrite("write(): a number is converted to a string", 42, undefined,
    [{ recordType: "text", encoding: "utf-8", lang: "de-CH", data: base64UTF8("42") }]);
  await expectWrite("write(): a BufferSource is one octet-stream record; overwrite false", new Uint8Array([1, 2, 3]), { overwrite: false },
    [{ recordType: "mime", mediaType: "application/octet-stream", data: "AQID" }], false);
  await expectWrite("write(): a signal of null is allowed", "x", { signal: null },
    [{ recordType: "text", encoding: "utf-8", lang: "de-CH", data: "eA==" }]);
  await expectWrite("write(): an IDN external type is sent in ASCII, nested records too",
    { records: [{ recordType: "håndværker.dk:abc", id: "n1", data: { records: [{ recordType: ":act", data: new Uint8Array([2]) }] } }] }, undefined,
    [{ recordType: "xn--hndvrker-9zan.dk:abc", id: "n1", records: [{ recordType: ":act", data: "Ag==" }] }]);
  await expectWrite("write(): a smart poster is sent with its url first", { records: [spWith([{ recordType: "text", data: "t", lang: "en" }, spURL])] }, undefined,
    [{ recordType: "smart-poster", records: [{ recordType: "url", data: base64UTF8("https://example.com/") }, { recordType: "text", encoding: "utf-8", lang: "en", data: "dA==" }] }]);
  await expectWrite("write(): empty, absolute-url, JSON and unknown records",
    { records: [{ recordType: "empty" }, { recordType: "absolute-url", data: "https://w3.org/" }, { recordType: "mime", data: { a: 1 } }, { recordType: "unknown", data: new Uint8Array(0) }] }, undefined,
    [{ recordType: "empty" }, { recordType: "absolute-url", data: base64UTF8("https://w3.org/") }, { recordType: "mime", mediaType: "application/json", data: base64UTF8('{"a":1}') }, { recordType: "unknown", data: "" }]);
  // WebIDL reads an NDEFRecord as a dictionary: its null mediaType becomes the string "null".
  await expectRejects('write(): an NDEFRecord given back has mediaType "null": TypeError', () => reader().write({ records: [new NDEFRecord({ recordType: "unknown", data: new Uint8Array([7]) })] }),
    named("TypeError"));

  {
    const r = reader();
    const before = sent.length;
    const first = r.write("first");
    const second = r.write("second");
    const outcomes = await Promise.allSettled([first, second]);
    const ops = sent.slice(before).map((m) => `${m.op}:${m.id}`);
    const ok = outcomes[0].reason?.name === "AbortError" && outcomes[1].reason?.name === "NotSupportedError" && ops[1] === `cancel:${sent[before].id}`;
    ok ? pass("write(): a newer write replaces the pending one (AbortError, cancel sent)") : fail("write(): a newer write replaces the pending one (AbortError, cancel sent)", JSON.stringify([outcomes, ops]));
  }
  {
    const controller = new AbortController();
    const messages = await expectRejects("write(): aborted while pending: its reason, and cancel sent", () => {
      const p = reader().write("x", { signal: controller.signal });
      controller.abort("changed my mind");
      return p;
    }, (e) => e === "changed my mind", 2);
    if (messages.length === 2 && !(messages[1].op === "cancel" && messages[1].id === messages[0].id)) {
      window.results.pop();
      fail("write(): aborted while pending: its reason, and cancel sent", JSON.stringify(messages));
    }
  }
  await expectRejects("write(): larger than 1 MiB is refused by the bridge", () => reader().write(new Uint8Array(800 * 1024)),
    (e) => e.name === "NotSupportedError" && /1 MiB/.test(e.message), 1);

  // makeReadOnly()
  await expectRejects("makeReadOnly(): sent, then NotSupportedError without a host", () => reader().makeReadOnly(), notInstalled, 1);
  {
    const controller = new AbortController();
    controller.abort();
    await expectRejects("makeReadOnly(): an aborted signal rejects with its reason (AbortError)", () => reader().makeReadOnly({ signal: controller.signal }),
      (e) => e === controller.signal.reason && e.name === "AbortError");
  }
  await expectRejects("makeReadOnly(): a signal that is not an AbortSignal is a TypeError", () => reader().makeReadOnly({ signal: {} }), named("TypeError"));

  // scan()
  {
    const controller = new AbortController();
    controller.abort("no");
    await expectRejects("scan(): an aborted signal rejects with its reason", () => reader().scan({ signal: controller.signal }), (e) => e === "no");
  }
  await expectRejects("scan(): a null signal is a TypeError (not nullable)", () => reader().scan({ signal: null }), named("TypeError"));
  {
    const r = reader();
    const first = r.scan();
    await expectRejects("scan(): twice on one reader is an InvalidStateError", () => r.scan(), named("InvalidStateError"));
    await expectRejects("scan(): the first one fails with NotSupportedError without a host", () => first, notInstalled);
    await expectRejects("scan(): the same reader may scan again after that", () => r.scan(), notInstalled, 1);
  }
  {
    const a = reader();
    const b = reader();
    const before = sent.length;
    const outcomes = await Promise.allSettled([a.scan(), b.scan()]);
    const scans = sent.slice(before).filter((m) => m.op === "scan").length;
    const ok = scans === 1 && outcomes.every((o) => o.reason?.name === "NotSupportedError");
    ok ? pass("scan(): two readers share one host scan") : fail("scan(): two readers share one host scan", `${scans} scan ops`);
  }
  {
    const controller = new AbortController();
    const messages = await expectRejects("scan(): aborted while pending: its reason, and cancel sent", () => {
      const p = reader().scan({ signal: controller.signal });
      controller.abort("enough");
      return p;
    }, (e) => e === "enough", 2);
    if (messages.length === 2 && !(messages[0].op === "scan" && messages[1].op === "cancel" && messages[1].id === messages[0].id)) {
      window.results.pop();
      fail("scan(): aborted while pending: its reason, and cancel sent", JSON.stringify(messages));
    }
  }
}

// The page replaces builtins the page script relies on, after it has started.
async function tamperCases() {
  const saved = {
    stringify: JSON.stringify,
    CustomEvent: window.CustomEvent,
    dispatchEvent: EventTarget.prototype.dispatchEvent,
    addEventListener: EventTarget.prototype.addEventListener,
    Promise: window.Promise,
  };
  const broken = () => {
    throw new Error("replaced by the page");
  };
  const r = new NDEFReader();
  let promise;
  let handlerSet = false;
  try {
    JSON.stringify = broken;
    window.CustomEvent = broken;
    EventTarget.prototype.dispatchEvent = broken;
    EventTarget.prototype.addEventListener = broken;
    window.Promise = broken;
    promise = r.write("still works");
    r.onreading = () => {};
    handlerSet = true;
  } catch (e) {
    promise = saved.Promise.reject(e);
  } finally {
    JSON.stringify = saved.stringify;
    window.CustomEvent = saved.CustomEvent;
    EventTarget.prototype.dispatchEvent = saved.dispatchEvent;
    EventTarget.prototype.addEventListener = saved.addEventListener;
    window.Promise = saved.Promise;
  }
  await expectRejects("builtins replaced by the page: write() still reaches the extension", () => promise, notInstalled);
  handlerSet ? pass("builtins replaced by the page: onreading still settable") : fail("builtins replaced by the page: onreading still settable", "threw");
}

async function frameCase() {
  const report = await new Promise((resolve) => {
    addEventListener("message", (event) => resolve(event.data), { once: true });
    const frame = document.createElement("iframe");
    frame.src = "frame.html";
    document.body.append(frame);
  });
  const ok = report.secure && report.api === "function" && report.scan === "InvalidStateError" && report.write === "InvalidStateError" &&
    report.makeReadOnly === "InvalidStateError" && report.sent === 0;
  ok ? pass("subframe: scan, write and makeReadOnly are InvalidStateError; nothing sent") : fail("subframe: scan, write and makeReadOnly are InvalidStateError; nothing sent", JSON.stringify(report));
}

// Last: it moves the bridge's id counter past any id the page script will use.
async function bridgeCase() {
  const id = 2 ** 40;
  const answer = new Promise((resolve) => {
    document.addEventListener(TO_PAGE, function listener(event) {
      const m = JSON.parse(event.detail);
      if (m.id === id) {
        document.removeEventListener(TO_PAGE, listener);
        resolve(m);
      }
    });
  });
  document.dispatchEvent(new CustomEvent(TO_BRIDGE, { detail: JSON.stringify({ op: "write", id, records: [{ recordType: 5 }], overwrite: true }) }));
  const m = await answer;
  m.event === "error" && m.name === "NotSupportedError" ? pass("bridge: a malformed op is refused with an error for its id") : fail("bridge: a malformed op is refused with an error for its id", JSON.stringify(m));
}

(async () => {
  try {
    if (typeof NDEFReader !== "function") {
      fail("the extension defines NDEFReader", typeof NDEFReader);
      return;
    }
    recordCases();
    messageCases();
    shapeCases();
    await operationCases();
    await tamperCases();
    await frameCase();
    await bridgeCase();
  } catch (e) {
    fail("the cases ran to the end", `${e && e.name}: ${e && e.message}\n${e && e.stack}`);
  } finally {
    window.done = true;
  }
})();
