// The page's side of PROTOCOL.md against fake_host.py: scan() resolves on "started", readings
// reach every activated reader as NDEFReadingEvents, and write()/makeReadOnly() settle as the
// host says. Results go to window.results ({name, ok, why}); window.done turns true at the end.
"use strict";

window.results = [];
window.done = false;

const check = (name, ok, why = "") => window.results.push({ name, ok: !!ok, why: String(why) });
const text = (view, encoding = "utf-8") => new TextDecoder(encoding).decode(view);
const settled = (promise) => promise.then(() => "resolved", (e) => `${e instanceof TypeError ? "TypeError" : e.name}: ${e.message}`);

function nextEvent(target, type) {
  return new Promise((resolve) => target.addEventListener(type, resolve, { once: true }));
}

async function readingCases() {
  const first = new NDEFReader();
  const second = new NDEFReader();
  const firstControl = new AbortController();
  const secondControl = new AbortController();
  let viaHandler = null;
  first.onreading = (event) => {
    viaHandler = event;
  };
  const readings = [nextEvent(first, "reading"), nextEvent(second, "reading")];
  const errors = [nextEvent(first, "readingerror"), nextEvent(second, "readingerror")];

  const scans = await Promise.all([settled(first.scan({ signal: firstControl.signal })), settled(second.scan({ signal: secondControl.signal }))]);
  check("scan(): both readers resolve on started", scans.every((s) => s === "resolved"), scans);
  const [a, b] = await Promise.all(readings);
  check("reading: reaches every activated reader, and onreading", a !== b && viaHandler === a && a instanceof NDEFReadingEvent && a.type === "reading");
  check("reading: serialNumber", a.serialNumber === "04:a2:0b:1c", a.serialNumber);
  const records = a.message.records;
  check("reading: one NDEFMessage shared, records frozen", a.message === b.message && Object.isFrozen(records) && records.length === 6, records.length);
  const [t, url, poster, external, json, empty] = records;
  check("reading: text record", t.recordType === "text" && t.encoding === "utf-8" && t.lang === "fr" && text(t.data) === "bonjour" && t.mediaType === null && t.id === null,
    JSON.stringify([t.recordType, t.encoding, t.lang]));
  check("reading: url record", url.recordType === "url" && text(url.data) === "https://example.com/a" && url.encoding === null && url.lang === null);
  const inside = poster.toRecords();
  check("reading: smart-poster data and toRecords()", poster.data.byteLength === 9 && inside.map((r) => r.recordType).join() === "url,:act" && inside[1].data.getUint8(0) === 0 &&
    poster.toRecords()[0] !== inside[0], inside && inside.map((r) => r.recordType));
  check("reading: external record with its Unicode domain and id", external.recordType === "håndværker.dk:abc" && external.id === "x1" && external.data.getUint8(1) === 2 &&
    external.toRecords() === null);
  check("reading: mime record", json.recordType === "mime" && json.mediaType === "application/json" && JSON.parse(text(json.data)).a === 1);
  check("reading: empty record", empty.recordType === "empty" && empty.data === null && empty.id === null);
  await Promise.all(errors);
  check("readingerror: reaches every activated reader", true);

  // A reader that scans while the host scan runs is activated at once, without a new "scan".
  const third = new NDEFReader();
  const thirdControl = new AbortController();
  check("scan(): a reader joining a running scan resolves", (await settled(third.scan({ signal: thirdControl.signal }))) === "resolved");
  check("scan(): it is then already activated", (await settled(third.scan())).startsWith("InvalidStateError"));

  // The host scan is cancelled when the last of the three ends, not before.
  firstControl.abort();
  secondControl.abort();
  thirdControl.abort();
}

async function operationCases() {
  const reader = new NDEFReader();
  check("write(): resolves on done", (await settled(reader.write("fine"))) === "resolved");
  const refused = await settled(reader.write("refuse"));
  check("write(): the host's error name and message", refused === "NotAllowedError: the person said no", refused);
  const locked = await settled(reader.makeReadOnly());
  check("makeReadOnly(): an error named TypeError is a TypeError", locked === "TypeError: not a lockable tag", locked);
  const control = new AbortController();
  const written = reader.write("late abort", { signal: control.signal });
  const outcome = await settled(written);
  control.abort();
  check("write(): an abort after done keeps it resolved", outcome === "resolved" && (await settled(written)) === "resolved");
}

(async () => {
  try {
    await readingCases();
    await operationCases();
    // After the cancel, a new scan() asks the host for a new scan.
    const control = new AbortController();
    check("scan(): scanning again after the cancel", (await settled(new NDEFReader().scan({ signal: control.signal }))) === "resolved");
    control.abort();
  } catch (e) {
    check("the cases ran to the end", false, `${e && e.name}: ${e && e.message}\n${e && e.stack}`);
  } finally {
    window.done = true;
  }
})();
