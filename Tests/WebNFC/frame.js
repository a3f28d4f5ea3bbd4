// Runs in a subframe and tells the parent what Web NFC looks like here, and how many messages
// the page script tried to send to the bridge (none are allowed from a subframe).
(async () => {
  let sent = 0;
  document.addEventListener("nfcscan-webnfc-to-bridge", () => sent++);
  const report = { secure: isSecureContext, api: typeof NDEFReader };
  if (typeof NDEFReader === "function") {
    const reader = new NDEFReader();
    const outcome = (promise) => promise.then(() => "resolved", (e) => e.name);
    report.scan = await outcome(reader.scan());
    report.write = await outcome(reader.write("from a frame"));
    report.makeReadOnly = await outcome(reader.makeReadOnly());
  }
  report.sent = sent;
  parent.postMessage(report, "*");
})();
