// The Web NFC API (https://w3c.github.io/web-nfc/) in the page's own world: NDEFReader,
// NDEFRecord, NDEFMessage and NDEFReadingEvent, with the spec's conversions and errors. It talks
// only to webnfc-bridge.js, through events on `document`; the bridge and the background decide
// what reaches nfcscan. See PROTOCOL.md.
//
// One file on purpose: every script of the page's world shares the page's globals, so the parts
// can only stay private inside one closure.
(() => {
  "use strict";

  // ---- What this script relies on, taken before the page can replace it --------------------

  const win = window;
  const { apply, defineProperty, getOwnPropertyDescriptor, getPrototypeOf } = Reflect;
  const uncurry = (f) => (self, ...args) => apply(f, self, args);
  const getterOf = (proto, name) => uncurry(getOwnPropertyDescriptor(proto, name).get);
  const freeze = Object.freeze;
  const hasOwn = Object.hasOwn;
  const ownKeys = Reflect.ownKeys;
  const isSafeInteger = Number.isSafeInteger;
  const toStringTag = Symbol.toStringTag;
  const isArray = Array.isArray;
  const iteratorSymbol = Symbol.iterator;

  const Promise_ = Promise;
  const TypeError_ = TypeError;
  const DOMException_ = DOMException;
  const URL_ = URL;
  const Event_ = Event;
  const CustomEvent_ = CustomEvent;
  const EventTarget_ = EventTarget;
  const ArrayBuffer_ = ArrayBuffer;
  const Uint8Array_ = Uint8Array;
  const DataView_ = DataView;
  const jsonParse = JSON.parse;
  const jsonStringify = JSON.stringify;
  const btoa_ = win.btoa.bind(win);
  const atob_ = win.atob.bind(win);
  const fromCharCode = String.fromCharCode;
  const toWellFormed = String.prototype.toWellFormed ? uncurry(String.prototype.toWellFormed) : null;
  const charCodeAt = uncurry(String.prototype.charCodeAt);
  const indexOf = uncurry(String.prototype.indexOf);
  const sliceString = uncurry(String.prototype.slice);
  const toLowerCase = uncurry(String.prototype.toLowerCase);
  const startsWith = uncurry(String.prototype.startsWith);
  const regexExec = uncurry(RegExp.prototype.exec);
  const matches = (re, s) => regexExec(re, s) !== null;

  const encodeUTF8 = ((encoder) => {
    const encode = uncurry(TextEncoder.prototype.encode);
    return (s) => encode(encoder, s);
  })(new TextEncoder());

  const TypedArray = getPrototypeOf(Uint8Array_);
  const arrayBufferByteLength = getterOf(ArrayBuffer_.prototype, "byteLength");
  const isView = ArrayBuffer_.isView;
  const typedArrayBuffer = getterOf(TypedArray.prototype, "buffer");
  const typedArrayByteOffset = getterOf(TypedArray.prototype, "byteOffset");
  const typedArrayByteLength = getterOf(TypedArray.prototype, "byteLength");
  const typedArrayLength = getterOf(TypedArray.prototype, "length");
  const typedArraySet = uncurry(TypedArray.prototype.set);
  const typedArraySubarray = uncurry(TypedArray.prototype.subarray);
  const dataViewBuffer = getterOf(DataView_.prototype, "buffer");
  const dataViewByteOffset = getterOf(DataView_.prototype, "byteOffset");
  const dataViewByteLength = getterOf(DataView_.prototype, "byteLength");

  const addListener = uncurry(EventTarget_.prototype.addEventListener);
  const removeListener = uncurry(EventTarget_.prototype.removeEventListener);
  const dispatch = uncurry(EventTarget_.prototype.dispatchEvent);
  const preventDefault = uncurry(Event_.prototype.preventDefault);
  const customEventDetail = getterOf(CustomEvent_.prototype, "detail");
  const signalAborted = getterOf(AbortSignal.prototype, "aborted");
  const signalReason = getterOf(AbortSignal.prototype, "reason");
  const urlHref = getterOf(URL_.prototype, "href");
  const urlHostname = getterOf(URL_.prototype, "hostname");
  const documentElement = getterOf(Document.prototype, "documentElement");
  const visibilityState = getterOf(Document.prototype, "visibilityState");
  const getAttribute = uncurry(Element.prototype.getAttribute);

  const doc = document;
  const isTop = win === win.top;

  // [SecureContext]; not for sandboxed documents, which have no origin to ask permission for;
  // and a browser's own Web NFC, where there is one, is left alone.
  if (!win.isSecureContext || win.origin === "null" || "NDEFReader" in win) return;

  // Shared with webnfc-bridge.js.
  const TO_BRIDGE = "nfcscan-webnfc-to-bridge";
  const TO_PAGE = "nfcscan-webnfc-to-page";

  // Lets internal code construct the API's objects from values the page never sees.
  const INTERNAL = freeze({ __proto__: null });

  const MAX_DEPTH = 32;
  const MAX_FIELD_BYTES = 255;
  const MAX_LANG_BYTES = 63;

  // ---- Small helpers that do not use the page's prototypes ---------------------------------

  // Appends without looking up Array.prototype (a page may put setters on it).
  function append(list, value) {
    defineProperty(list, list.length, { __proto__: null, value, writable: true, enumerable: true, configurable: true });
  }

  function typeError(message) {
    return new TypeError_(message);
  }

  function domError(name, message) {
    return new DOMException_(message, name);
  }

  function rejected(error) {
    return new Promise_((_, reject) => reject(error));
  }

  function utf8Length(s) {
    return typedArrayLength(encodeUTF8(s));
  }

  // ---- WebIDL conversions ------------------------------------------------------------------

  function isObject(v) {
    return (typeof v === "object" && v !== null) || typeof v === "function";
  }

  // Template literals are ToString, which refuses Symbols with a TypeError as WebIDL asks.
  function toDOMString(v) {
    return `${v}`;
  }

  function toUSVString(v) {
    const s = `${v}`;
    if (toWellFormed !== null) return toWellFormed(s);
    let out = "";
    for (let i = 0; i < s.length; i++) {
      const c = charCodeAt(s, i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
        const d = charCodeAt(s, i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          out += fromCharCode(c, d);
          i++;
          continue;
        }
      }
      out += c >= 0xd800 && c <= 0xdfff ? "\ufffd" : fromCharCode(c);
    }
    return out;
  }

  function isArrayBuffer(v) {
    try {
      arrayBufferByteLength(v);
      return true;
    } catch {
      return false;
    }
  }

  function isTypedArray(v) {
    try {
      typedArrayLength(v);
      return true;
    } catch {
      return false;
    }
  }

  function copyBytes(buffer, offset, length) {
    const out = new Uint8Array_(length);
    if (length > 0) typedArraySet(out, new Uint8Array_(buffer, offset, length));
    return out;
  }

  // A copy of a BufferSource's bytes, or null when `v` is not one (shared memory is not).
  function bufferSourceBytes(v) {
    if (!isObject(v)) return null;
    if (isArrayBuffer(v)) return copyBytes(v, 0, arrayBufferByteLength(v));
    if (!isView(v)) return null;
    let buffer;
    let offset = 0;
    let length = 0;
    if (isTypedArray(v)) {
      buffer = typedArrayBuffer(v);
      offset = typedArrayByteOffset(v);
      length = typedArrayByteLength(v);
    } else {
      buffer = dataViewBuffer(v);
      try {
        offset = dataViewByteOffset(v);
        length = dataViewByteLength(v);
      } catch {
        // A detached buffer holds no bytes.
      }
    }
    if (!isArrayBuffer(buffer)) return null;
    return copyBytes(buffer, offset, length);
  }

  function isBufferSource(v) {
    return bufferSourceBytes(v) !== null;
  }

  // WebIDL dictionary conversion: members in lexicographic order, each read once.
  function dictionarySource(v, what) {
    if (v === undefined || v === null) return null;
    if (!isObject(v)) throw typeError(`${what} must be an object`);
    return v;
  }

  function convertRecordInit(v) {
    const src = dictionarySource(v, "NDEFRecordInit");
    const get = (name) => (src === null ? undefined : src[name]);
    const init = { __proto__: null };
    init.data = get("data");
    const optional = (name) => {
      const value = get(name);
      return value === undefined ? undefined : toUSVString(value);
    };
    init.encoding = optional("encoding");
    init.id = optional("id");
    init.lang = optional("lang");
    init.mediaType = optional("mediaType");
    init.recordType = optional("recordType");
    if (init.recordType === undefined) throw typeError("NDEFRecordInit needs a recordType");
    return init;
  }

  function convertSequence(v, convertItem, what) {
    if (!isObject(v)) throw typeError(`${what} must be a sequence`);
    const method = v[iteratorSymbol];
    if (typeof method !== "function") throw typeError(`${what} must be iterable`);
    const iterator = apply(method, v, []);
    if (!isObject(iterator)) throw typeError(`${what} has a broken iterator`);
    const next = iterator.next;
    const out = [];
    for (;;) {
      const step = apply(next, iterator, []);
      if (!isObject(step)) throw typeError(`${what} has a broken iterator`);
      if (step.done) return out;
      append(out, convertItem(step.value));
    }
  }

  function convertMessageInit(v) {
    const src = dictionarySource(v, "NDEFMessageInit");
    const records = src === null ? undefined : src.records;
    if (records === undefined) throw typeError("NDEFMessageInit needs records");
    return { __proto__: null, records: convertSequence(records, convertRecordInit, "NDEFMessageInit.records") };
  }

  function convertSignal(value, nullable) {
    if (value === undefined || (nullable && value === null)) return null;
    try {
      signalAborted(value);
    } catch {
      throw typeError("signal must be an AbortSignal");
    }
    return value;
  }

  function convertWriteOptions(v) {
    const src = dictionarySource(v, "NDEFWriteOptions");
    const overwrite = src === null ? undefined : src.overwrite;
    const signal = convertSignal(src === null ? undefined : src.signal, true);
    return { __proto__: null, overwrite: overwrite === undefined ? true : !!overwrite, signal };
  }

  function convertSignalOptions(v, what, nullable) {
    const src = dictionarySource(v, what);
    return convertSignal(src === null ? undefined : src.signal, nullable);
  }

  // NDEFMessageSource: (DOMString or BufferSource or NDEFMessageInit), WebIDL's union order.
  function convertMessageSource(v) {
    if (v === undefined || v === null) return { __proto__: null, kind: "init", value: convertMessageInit(v) };
    if (isObject(v)) {
      if (isBufferSource(v)) return { __proto__: null, kind: "bytes", value: v };
      return { __proto__: null, kind: "init", value: convertMessageInit(v) };
    }
    return { __proto__: null, kind: "string", value: toDOMString(v) };
  }

  // ---- Names: MIME types, URLs, external and local types -----------------------------------

  const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
  const QUOTED_STRING_TOKEN = /^[\t\x20-\x7e\x80-\xff]*$/;
  const isHTTPSpace = (c) => c === "\t" || c === "\n" || c === "\r" || c === " ";

  function trimHTTPSpace(s, leading) {
    let start = 0;
    let end = s.length;
    if (leading) while (start < end && isHTTPSpace(s[start])) start++;
    while (end > start && isHTTPSpace(s[end - 1])) end--;
    return sliceString(s, start, end);
  }

  // The MIME Sniffing standard's "parse a MIME type" followed by "serialize a MIME type", or
  // null on failure.
  function serializedMIMEType(input) {
    const s = trimHTTPSpace(input, true);
    const slash = indexOf(s, "/");
    if (slash < 0) return null;
    const type = sliceString(s, 0, slash);
    if (!matches(HTTP_TOKEN, type)) return null;
    let pos = indexOf(s, ";", slash + 1);
    if (pos < 0) pos = s.length;
    const subtype = trimHTTPSpace(sliceString(s, slash + 1, pos), false);
    if (!matches(HTTP_TOKEN, subtype)) return null;
    let out = `${toLowerCase(type)}/${toLowerCase(subtype)}`;
    const seen = { __proto__: null };
    while (pos < s.length) {
      pos++;
      while (pos < s.length && isHTTPSpace(s[pos])) pos++;
      let end = pos;
      while (end < s.length && s[end] !== ";" && s[end] !== "=") end++;
      const name = toLowerCase(sliceString(s, pos, end));
      pos = end;
      if (pos < s.length) {
        if (s[pos] === ";") continue;
        pos++;
      }
      if (pos >= s.length) break;
      let value = "";
      if (s[pos] === '"') {
        pos++;
        for (;;) {
          while (pos < s.length && s[pos] !== '"' && s[pos] !== "\\") value += s[pos++];
          if (pos >= s.length) break;
          const quoteOrBackslash = s[pos++];
          if (quoteOrBackslash === "\\") {
            if (pos >= s.length) {
              value += "\\";
              break;
            }
            value += s[pos++];
          } else {
            break;
          }
        }
        while (pos < s.length && s[pos] !== ";") pos++;
      } else {
        end = pos;
        while (end < s.length && s[end] !== ";") end++;
        value = trimHTTPSpace(sliceString(s, pos, end), false);
        pos = end;
        if (value === "") continue;
      }
      if (name !== "" && matches(HTTP_TOKEN, name) && matches(QUOTED_STRING_TOKEN, value) && !seen[name]) {
        seen[name] = true;
        out += `;${name}=`;
        if (value !== "" && matches(HTTP_TOKEN, value)) {
          out += value;
        } else {
          let quoted = "";
          for (let i = 0; i < value.length; i++) quoted += value[i] === '"' || value[i] === "\\" ? `\\${value[i]}` : value[i];
          out += `"${quoted}"`;
        }
      }
    }
    return out;
  }

  function isJSONMIMEType(serialized) {
    const semicolon = indexOf(serialized, ";");
    const essence = semicolon < 0 ? serialized : sliceString(serialized, 0, semicolon);
    return essence === "application/json" || essence === "text/json" || matches(/^[^/]+\/[^/]*\+json$/, essence);
  }

  // The URL Standard's serialization of `s` parsed without a base, or null on failure.
  function serializedURL(s) {
    try {
      return urlHref(new URL_(s));
    } catch {
      return null;
    }
  }

  // The URL Standard's forbidden domain code points, and % which would be decoded.
  const FORBIDDEN_IN_DOMAIN = /[\x00-\x20#%/:<>?@[\\\]^|\x7f]/;
  const ASCII_LABEL = /^[a-z0-9-]{1,63}$/;

  // "Domain to ASCII" with beStrict set, as "valid domain string" asks, or null on failure.
  function domainToASCII(domain) {
    if (domain === "" || matches(FORBIDDEN_IN_DOMAIN, domain)) return null;
    let host;
    try {
      host = urlHostname(new URL_(`https://${domain}/`));
    } catch {
      return null;
    }
    if (host.length > 253) return null;
    let start = 0;
    for (;;) {
      let dot = indexOf(host, ".", start);
      if (dot < 0) dot = host.length;
      if (!matches(ASCII_LABEL, sliceString(host, start, dot))) return null;
      if (dot === host.length) return host;
      start = dot + 1;
    }
  }

  const EXTERNAL_TYPE_NAME = /^[A-Za-z0-9$'()*+,\-.;=@_]+$/;

  // The TYPE field of an external type record ("validate external type", then the domain in
  // ASCII), or null when `recordType` is not an external type.
  function externalTypeField(recordType) {
    const colon = indexOf(recordType, ":");
    if (colon < 0) return null;
    const type = sliceString(recordType, colon + 1);
    if (!matches(EXTERNAL_TYPE_NAME, type)) return null;
    const domain = domainToASCII(sliceString(recordType, 0, colon));
    return domain === null ? null : `${domain}:${type}`;
  }

  function isLocalType(recordType) {
    if (!startsWith(recordType, ":")) return false;
    const name = sliceString(recordType, 1);
    return name !== "" && utf8Length(name) <= MAX_FIELD_BYTES && matches(/^[a-z0-9]/, name);
  }

  function documentLanguage() {
    const root = documentElement(doc);
    const lang = root === null ? null : getAttribute(root, "lang");
    return lang === null || lang === "" ? "en" : lang;
  }

  // ---- "Create NDEF record" and "create NDEF message" ---------------------------------------
  //
  // A record is kept as a plain description: recordType, mediaType, id, encoding, lang (strings
  // or null), data (a Uint8Array or null), records (a list of descriptions or null), and
  // typeField (what PROTOCOL.md sends as recordType: an external type's domain in ASCII).

  const DESCRIPTION_FIELDS = freeze(["typeField", "mediaType", "id", "encoding", "lang", "data", "records"]);

  function description(recordType, fields) {
    const d = {
      __proto__: null,
      recordType,
      typeField: recordType,
      mediaType: null,
      id: null,
      encoding: null,
      lang: null,
      data: null,
      records: null,
    };
    if (fields === null) return d;
    for (let i = 0; i < DESCRIPTION_FIELDS.length; i++) {
      const key = DESCRIPTION_FIELDS[i];
      if (hasOwn(fields, key)) d[key] = fields[key];
    }
    return d;
  }

  function refuseMediaType(init) {
    if (init.mediaType !== undefined) throw typeError(`NDEFRecord: recordType "${init.recordType}" takes no mediaType`);
  }

  function mapText(init, id) {
    refuseMediaType(init);
    const data = init.data;
    let bytes;
    let encoding;
    if (typeof data === "string") {
      if (init.encoding !== undefined && init.encoding !== "utf-8") throw typeError('NDEFRecord: text given as a string is encoded "utf-8"');
      bytes = encodeUTF8(data);
      encoding = "utf-8";
    } else {
      bytes = bufferSourceBytes(data);
      if (bytes === null) throw typeError('NDEFRecord: "text" needs data as a string or a BufferSource');
      encoding = init.encoding === undefined ? "utf-8" : init.encoding;
      if (encoding !== "utf-8" && encoding !== "utf-16" && encoding !== "utf-16le" && encoding !== "utf-16be") {
        throw typeError('NDEFRecord: "text" encoding must be "utf-8", "utf-16", "utf-16le" or "utf-16be"');
      }
    }
    const lang = init.lang !== undefined ? init.lang : documentLanguage();
    if (utf8Length(lang) > MAX_LANG_BYTES) throw domError("SyntaxError", "NDEFRecord: lang is longer than 63 bytes");
    return description("text", { id, encoding, lang, data: bytes });
  }

  function urlBytes(init) {
    refuseMediaType(init);
    if (typeof init.data !== "string") throw typeError(`NDEFRecord: "${init.recordType}" needs data as a string`);
    const url = serializedURL(init.data);
    if (url === null) throw domError("SyntaxError", `NDEFRecord: "${init.data}" is not a URL`);
    return encodeUTF8(url);
  }

  function mapURL(init, id) {
    return description("url", { id, data: urlBytes(init) });
  }

  function mapAbsoluteURL(init, id, context) {
    if (context === "smart-poster") throw typeError("NDEFRecord: a smart poster holds its URL as a \"url\" record");
    const bytes = urlBytes(init);
    // The URL is the record's TYPE field, whose length is one byte.
    if (typedArrayLength(bytes) > MAX_FIELD_BYTES) throw typeError("NDEFRecord: an absolute-url is at most 255 bytes");
    return description("absolute-url", { id, data: bytes });
  }

  function mapMIME(init, id) {
    let bytes = bufferSourceBytes(init.data);
    let mediaType;
    if (bytes !== null) {
      mediaType = init.mediaType === undefined ? null : serializedMIMEType(init.mediaType);
      if (mediaType === null) mediaType = "application/octet-stream";
    } else if (isObject(init.data)) {
      // Any other object is written as JSON.
      mediaType = init.mediaType === undefined ? "application/json" : serializedMIMEType(init.mediaType);
      if (mediaType === null || !isJSONMIMEType(mediaType)) throw typeError("NDEFRecord: JSON data needs a JSON mediaType");
      const json = jsonStringify(init.data);
      if (typeof json !== "string") throw typeError("NDEFRecord: this data has no JSON form");
      bytes = encodeUTF8(json);
    } else {
      throw typeError('NDEFRecord: "mime" needs data as a BufferSource or a JSON object');
    }
    // The MIME type is the record's TYPE field, whose length is one byte.
    if (utf8Length(mediaType) > MAX_FIELD_BYTES) throw typeError("NDEFRecord: mediaType is longer than 255 bytes");
    return description("mime", { id, mediaType, data: bytes });
  }

  function mapUnknown(init, id) {
    refuseMediaType(init);
    const bytes = bufferSourceBytes(init.data);
    if (bytes === null) throw typeError('NDEFRecord: "unknown" needs data as a BufferSource');
    return description("unknown", { id, data: bytes });
  }

  function mapSmartPoster(init, id, depth) {
    refuseMediaType(init);
    if (!isObject(init.data) || isBufferSource(init.data)) throw typeError('NDEFRecord: "smart-poster" needs data as an NDEFMessageInit');
    const records = createMessage(convertMessageInit(init.data), "smart-poster", depth);
    return description("smart-poster", { id, records });
  }

  // Data of a local or external type: bytes, or a nested message made in `context`.
  function payloadOf(init, context, depth, fields) {
    const bytes = bufferSourceBytes(init.data);
    if (bytes !== null) {
      fields.data = bytes;
    } else if (isObject(init.data)) {
      fields.records = createMessage(convertMessageInit(init.data), context, depth);
    } else {
      throw typeError(`NDEFRecord: "${init.recordType}" needs data as a BufferSource or an NDEFMessageInit`);
    }
    return description(init.recordType, fields);
  }

  function mapLocal(init, id, context, depth) {
    if (context === "") throw typeError(`NDEFRecord: the local type "${init.recordType}" is only allowed inside another record`);
    if (!isLocalType(init.recordType)) throw typeError(`NDEFRecord: "${init.recordType}" is not a valid local type`);
    refuseMediaType(init);
    if (context === "smart-poster" && (init.recordType === ":s" || init.recordType === ":act")) {
      const bytes = bufferSourceBytes(init.data);
      if (init.recordType === ":s" && (bytes === null || typedArrayLength(bytes) > 4)) {
        throw typeError('NDEFRecord: a smart poster\'s ":s" is a BufferSource of at most 4 bytes');
      }
      if (init.recordType === ":act" && (bytes === null || typedArrayLength(bytes) !== 1)) {
        throw typeError('NDEFRecord: a smart poster\'s ":act" is a BufferSource of 1 byte');
      }
    }
    return payloadOf(init, "local", depth, { id });
  }

  function mapExternal(init, id, typeField, depth) {
    refuseMediaType(init);
    if (utf8Length(typeField) > MAX_FIELD_BYTES) throw typeError("NDEFRecord: an external type is at most 255 bytes");
    return payloadOf(init, "external", depth, { id, typeField });
  }

  function createRecord(init, context, depth) {
    const type = init.recordType;
    const id = init.id === undefined ? null : init.id;
    // The ID LENGTH field is one byte.
    if (id !== null && utf8Length(id) > MAX_FIELD_BYTES) throw typeError("NDEFRecord: id is longer than 255 bytes");
    switch (type) {
      case "empty":
        refuseMediaType(init);
        if (id !== null) throw typeError('NDEFRecord: "empty" takes no id');
        return description("empty", null);
      case "text":
        return mapText(init, id);
      case "url":
        return mapURL(init, id);
      case "mime":
        return mapMIME(init, id);
      case "smart-poster":
        return mapSmartPoster(init, id, depth);
      case "absolute-url":
        return mapAbsoluteURL(init, id, context);
      case "unknown":
        return mapUnknown(init, id);
    }
    if (startsWith(type, ":")) return mapLocal(init, id, context, depth);
    const typeField = externalTypeField(type);
    if (typeField !== null) return mapExternal(init, id, typeField, depth);
    throw typeError(`NDEFRecord: "${type}" is not a record type`);
  }

  function createMessage(messageInit, context, depth) {
    const inits = messageInit.records;
    if (inits.length === 0) throw typeError("NDEFMessageInit.records is empty");
    if (depth + 1 > MAX_DEPTH) throw typeError("NDEF messages are nested more than 32 deep");
    const records = [];
    for (let i = 0; i < inits.length; i++) append(records, createRecord(inits[i], context, depth + 1));
    if (context === "smart-poster") return smartPosterOrder(records);
    return records;
  }

  // "Check created records" for a smart poster: one URI record, moved first, and at most one
  // type, size and action record.
  function smartPosterOrder(records) {
    const counts = { __proto__: null, url: 0, ":t": 0, ":s": 0, ":act": 0 };
    let url = null;
    for (let i = 0; i < records.length; i++) {
      const type = records[i].recordType;
      if (type in counts) counts[type]++;
      if (type === "url") url = records[i];
    }
    if (counts.url !== 1) throw typeError("a smart poster holds exactly one url record");
    if (counts[":t"] > 1 || counts[":s"] > 1 || counts[":act"] > 1) {
      throw typeError('a smart poster holds at most one ":t", one ":s" and one ":act" record');
    }
    const ordered = [url];
    for (let i = 0; i < records.length; i++) if (records[i] !== url) append(ordered, records[i]);
    return ordered;
  }

  // What write() writes: "create NDEF message" with the source, context "" and depth 0.
  function messageFromSource(source) {
    if (source.kind === "string") {
      return createMessage({ __proto__: null, records: [{ __proto__: null, recordType: "text", data: source.value }] }, "", 0);
    }
    if (source.kind === "bytes") {
      const init = { __proto__: null, recordType: "mime", mediaType: "application/octet-stream", data: source.value };
      return createMessage({ __proto__: null, records: [init] }, "", 0);
    }
    return createMessage(source.value, "", 0);
  }

  // ---- Records on the wire (PROTOCOL.md's RECORD) ------------------------------------------

  function base64(bytes) {
    let binary = "";
    const n = typedArrayLength(bytes);
    for (let i = 0; i < n; i += 0x2000) {
      binary += apply(fromCharCode, null, typedArraySubarray(bytes, i, i + 0x2000));
    }
    return btoa_(binary);
  }

  function fromBase64(s) {
    const binary = atob_(s);
    const out = new Uint8Array_(binary.length);
    for (let i = 0; i < binary.length; i++) out[i] = charCodeAt(binary, i);
    return out;
  }

  function wireRecords(list) {
    const out = [];
    for (let i = 0; i < list.length; i++) {
      const d = list[i];
      append(out, {
        __proto__: null,
        recordType: d.typeField,
        mediaType: d.mediaType,
        id: d.id,
        encoding: d.encoding,
        lang: d.lang,
        data: d.data === null ? null : base64(d.data),
        records: d.records === null ? null : wireRecords(d.records),
      });
    }
    return out;
  }

  const KNOWN_TYPES = { __proto__: null, empty: 1, text: 1, url: 1, "smart-poster": 1, "absolute-url": 1, mime: 1, unknown: 1 };
  const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

  function optionalWireString(v) {
    if (v === undefined || v === null) return null;
    if (typeof v !== "string") throw typeError("malformed record from nfcscan");
    return v;
  }

  // A description of a record the host read, checked field by field; throws when malformed.
  function readRecord(r, depth) {
    if (!isObject(r) || isArray(r) || typeof r.recordType !== "string") throw typeError("malformed record from nfcscan");
    const type = r.recordType;
    // Readings carry external types with their domain in Unicode (the spec's ToUnicode).
    if (!(type in KNOWN_TYPES) && !isLocalType(type) && externalTypeField(type) === null) throw typeError("malformed record type from nfcscan");
    const d = description(type, null);
    if (type !== "empty") d.id = optionalWireString(r.id);
    if (type === "mime") d.mediaType = optionalWireString(r.mediaType);
    if (type === "text") {
      d.encoding = optionalWireString(r.encoding);
      d.lang = optionalWireString(r.lang);
    }
    const data = optionalWireString(r.data);
    if (data !== null && type !== "empty") {
      if (!matches(BASE64, data)) throw typeError("malformed record data from nfcscan");
      d.data = fromBase64(data);
    }
    if (r.records !== undefined && r.records !== null) d.records = readRecords(r.records, depth + 1, false);
    return d;
  }

  function readRecords(list, depth, mayBeEmpty) {
    if (!isArray(list) || depth > MAX_DEPTH || (list.length === 0 && !mayBeEmpty)) throw typeError("malformed records from nfcscan");
    const out = [];
    for (let i = 0; i < list.length; i++) append(out, readRecord(list[i], depth));
    return out;
  }

  // ---- The interfaces ----------------------------------------------------------------------

  let recordFromDescription;
  let messageFromDescriptions;

  class NDEFRecord {
    #d;

    constructor(recordInit) {
      if (recordInit === INTERNAL) {
        this.#d = arguments[1];
        return;
      }
      if (arguments.length < 1) throw typeError("NDEFRecord: 1 argument required");
      this.#d = createRecord(convertRecordInit(recordInit), "", 0);
    }

    get recordType() {
      return this.#d.recordType;
    }

    get mediaType() {
      return this.#d.mediaType;
    }

    get id() {
      return this.#d.id;
    }

    // A fresh copy each time, so a page cannot change the record through it.
    get data() {
      const bytes = this.#d.data;
      if (bytes === null) return null;
      const n = typedArrayLength(bytes);
      const buffer = new ArrayBuffer_(n);
      typedArraySet(new Uint8Array_(buffer), bytes);
      return new DataView_(buffer);
    }

    get encoding() {
      return this.#d.encoding;
    }

    get lang() {
      return this.#d.lang;
    }

    // Smart posters, external and local types may hold a message; null when this one does not
    // (records made here from bytes are not parsed: only nfcscan's readings and records made from
    // an NDEFMessageInit carry nested records).
    toRecords() {
      const d = this.#d;
      if (d.recordType !== "smart-poster" && !startsWith(d.recordType, ":") && externalTypeField(d.recordType) === null) {
        throw domError("NotSupportedError", `NDEFRecord: a "${d.recordType}" record holds no records`);
      }
      if (d.records === null) return null;
      const out = [];
      for (let i = 0; i < d.records.length; i++) append(out, new NDEFRecord(INTERNAL, d.records[i]));
      return out;
    }

    static {
      recordFromDescription = (d) => new NDEFRecord(INTERNAL, d);
    }
  }

  class NDEFMessage {
    #records;

    constructor(messageInit) {
      let descriptions;
      if (messageInit === INTERNAL) {
        descriptions = arguments[1];
      } else {
        if (arguments.length < 1) throw typeError("NDEFMessage: 1 argument required");
        descriptions = createMessage(convertMessageInit(messageInit), "", 0);
      }
      const records = [];
      for (let i = 0; i < descriptions.length; i++) append(records, recordFromDescription(descriptions[i]));
      this.#records = freeze(records);
    }

    get records() {
      return this.#records;
    }

    static {
      messageFromDescriptions = (list) => new NDEFMessage(INTERNAL, list);
    }
  }

  class NDEFReadingEvent extends Event_ {
    #serialNumber;
    #message;

    constructor(type, readingEventInitDict) {
      if (type === INTERNAL) {
        super("reading");
        this.#serialNumber = arguments[1];
        this.#message = arguments[2];
        return;
      }
      if (arguments.length < 2) throw typeError("NDEFReadingEvent: 2 arguments required");
      const eventType = toDOMString(type);
      const src = dictionarySource(readingEventInitDict, "NDEFReadingEventInit");
      const get = (name) => (src === null ? undefined : src[name]);
      const eventInit = { __proto__: null, bubbles: !!get("bubbles"), cancelable: !!get("cancelable"), composed: !!get("composed") };
      const messageInit = get("message");
      if (messageInit === undefined) throw typeError("NDEFReadingEventInit needs a message");
      const descriptions = createMessage(convertMessageInit(messageInit), "", 0);
      const serial = get("serialNumber");
      super(eventType, eventInit);
      this.#message = messageFromDescriptions(descriptions);
      this.#serialNumber = serial === undefined || serial === null ? "" : toDOMString(serial);
    }

    get serialNumber() {
      return this.#serialNumber;
    }

    get message() {
      return this.#message;
    }
  }

  // ---- The page's NFC state: one host scan shared by every activated reader ----------------

  let nextId = 1;
  // The host scan: its id (0 when none), whether it started, and the scan() calls on it.
  const hostScan = { __proto__: null, id: 0, started: false, waiting: [], activated: [] };
  // Write and makeReadOnly operations by id.
  const operations = { __proto__: null };
  let pendingWrite = null;
  let pendingMakeReadOnly = null;

  function send(message) {
    const detail = jsonStringify(message);
    dispatch(doc, new CustomEvent_(TO_BRIDGE, { __proto__: null, detail }));
  }

  function without(list, item) {
    const out = [];
    for (let i = 0; i < list.length; i++) if (list[i] !== item) append(out, list[i]);
    return out;
  }

  let readerState;

  // The reader's scan() ended: by its signal, or because the host scan did.
  function endScan(entry) {
    entry.live = false;
    readerState(entry.reader, null);
    hostScan.waiting = without(hostScan.waiting, entry);
    hostScan.activated = without(hostScan.activated, entry);
  }

  function stopHostScanIfUnused() {
    if (hostScan.id === 0 || hostScan.waiting.length > 0 || hostScan.activated.length > 0) return;
    const id = hostScan.id;
    hostScan.id = 0;
    hostScan.started = false;
    send({ __proto__: null, op: "cancel", id });
  }

  function startScan(reader, signal, resolve, reject) {
    const entry = { __proto__: null, reader, resolve, reject, live: true, activated: false };
    readerState(reader, entry);
    if (signal !== null) {
      addListener(signal, "abort", () => {
        if (!entry.live) return;
        endScan(entry);
        // The spec only deactivates the reader; a scan() still waiting for nfcscan also ends.
        if (!entry.activated) reject(signalReason(signal));
        stopHostScanIfUnused();
      });
    }
    if (hostScan.started) {
      entry.activated = true;
      append(hostScan.activated, entry);
      resolve();
      return;
    }
    append(hostScan.waiting, entry);
    if (hostScan.id === 0) {
      hostScan.id = nextId++;
      send({ __proto__: null, op: "scan", id: hostScan.id });
    }
  }

  function onScanEvent(m) {
    switch (m.event) {
      case "started": {
        if (hostScan.started) return;
        hostScan.started = true;
        const waiting = hostScan.waiting;
        hostScan.waiting = [];
        for (let i = 0; i < waiting.length; i++) {
          waiting[i].activated = true;
          append(hostScan.activated, waiting[i]);
          waiting[i].resolve();
        }
        return;
      }
      case "error": {
        // Before "started" the scan() calls fail; after it the scan stopped, and every reader is
        // deactivated so that it may scan again.
        const error = errorFrom(m);
        const waiting = hostScan.waiting;
        const activated = hostScan.activated;
        hostScan.id = 0;
        hostScan.started = false;
        for (let i = 0; i < waiting.length; i++) {
          endScan(waiting[i]);
          waiting[i].reject(error);
        }
        for (let i = 0; i < activated.length; i++) endScan(activated[i]);
        return;
      }
      case "reading":
        if (hostScan.started) deliverReading(m);
        return;
      case "readingerror":
        if (hostScan.started) deliverToReaders(() => new Event_("readingerror"));
        return;
    }
  }

  function deliverToReaders(makeEvent) {
    const targets = hostScan.activated;
    // Readers activated by a listener during this delivery wait for the next reading.
    const n = targets.length;
    for (let i = 0; i < n; i++) {
      // A listener may have ended another reader's scan meanwhile.
      if (targets[i].live) dispatch(targets[i].reader, makeEvent());
    }
  }

  function deliverReading(m) {
    let message;
    try {
      message = messageFromDescriptions(readRecords(m.message.records, 1, true));
    } catch {
      deliverToReaders(() => new Event_("readingerror"));
      return;
    }
    const serial = m.serialNumber === null || m.serialNumber === undefined ? "" : m.serialNumber;
    deliverToReaders(() => new NDEFReadingEvent(INTERNAL, serial, message));
  }

  function errorFrom(m) {
    const message = typeof m.message === "string" ? m.message : "";
    if (m.name === "TypeError") return typeError(message);
    return domError(m.name, message);
  }

  function settle(op) {
    if (op.settled) return false;
    op.settled = true;
    delete operations[op.id];
    if (pendingWrite === op) pendingWrite = null;
    if (pendingMakeReadOnly === op) pendingMakeReadOnly = null;
    return true;
  }

  function onOperationEvent(m) {
    const op = operations[m.id];
    if (op === undefined) return;
    if (m.event === "done") {
      if (settle(op)) op.resolve();
    } else if (m.event === "error") {
      if (settle(op)) op.reject(errorFrom(m));
    }
  }

  // The spec's "attempt to abort a pending write (or make read-only) operation".
  function abortOperation(op, reason) {
    if (op === null || !settle(op)) return;
    send({ __proto__: null, op: "cancel", id: op.id });
    op.reject(reason);
  }

  function startOperation(kind, message, signal, resolve, reject) {
    const op = { __proto__: null, id: nextId++, kind, resolve, reject, settled: false };
    // A write replaces the page's pending write; a makeReadOnly its pending makeReadOnly.
    if (kind === "write") {
      abortOperation(pendingWrite, domError("AbortError", "replaced by a newer write()"));
      pendingWrite = op;
    } else {
      abortOperation(pendingMakeReadOnly, domError("AbortError", "replaced by a newer makeReadOnly()"));
      pendingMakeReadOnly = op;
    }
    operations[op.id] = op;
    if (signal !== null) addListener(signal, "abort", () => abortOperation(op, signalReason(signal)));
    message.id = op.id;
    send(message);
  }

  // Hidden documents may not write: pending writes and locks end, as the spec's "page
  // visibility change steps" ask. Scans are paused by nfcscan itself.
  addListener(doc, "visibilitychange", () => {
    if (visibilityState(doc) === "visible") return;
    abortOperation(pendingWrite, domError("AbortError", "the page was hidden"));
    abortOperation(pendingMakeReadOnly, domError("AbortError", "the page was hidden"));
  });

  addListener(doc, TO_PAGE, (event) => {
    let m;
    try {
      const detail = customEventDetail(event);
      if (typeof detail !== "string") return;
      m = jsonParse(detail);
    } catch {
      return;
    }
    if (!isObject(m) || !isSafeInteger(m.id) || m.id <= 0 || typeof m.event !== "string") return;
    if (m.event === "error" && (typeof m.name !== "string" || !matches(/^[A-Z][A-Za-z]{0,63}$/, m.name))) return;
    if (m.event === "reading" && (!isObject(m.message) || (m.serialNumber != null && typeof m.serialNumber !== "string"))) return;
    if (m.id === hostScan.id) onScanEvent(m);
    else onOperationEvent(m);
  });

  function invalidState(what) {
    return domError("InvalidStateError", `${what} is only available in the top-level document`);
  }

  class NDEFReader extends EventTarget_ {
    // The reader's current scan() (an entry of hostScan), or null.
    #scan = null;
    #handlers = { __proto__: null, reading: null, readingerror: null };
    #listeners = { __proto__: null, reading: null, readingerror: null };

    constructor() {
      super();
    }

    get onreading() {
      return this.#handlers.reading;
    }

    set onreading(value) {
      this.#setHandler("reading", value);
    }

    get onreadingerror() {
      return this.#handlers.readingerror;
    }

    set onreadingerror(value) {
      this.#setHandler("readingerror", value);
    }

    // HTML's event handler attributes: non-objects are null, the listener keeps the place it
    // was first added at, and a handler returning false cancels the event.
    #setHandler(type, value) {
      const handler = isObject(value) ? value : null;
      this.#handlers[type] = handler;
      if (handler === null) {
        if (this.#listeners[type] !== null) removeListener(this, type, this.#listeners[type]);
        this.#listeners[type] = null;
        return;
      }
      if (this.#listeners[type] !== null) return;
      const handlers = this.#handlers;
      const listener = function (event) {
        const h = handlers[type];
        if (typeof h !== "function") return;
        if (apply(h, this, [event]) === false) preventDefault(event);
      };
      this.#listeners[type] = listener;
      addListener(this, type, listener);
    }

    scan(options = undefined) {
      if (!(#scan in this)) return rejected(typeError("Illegal invocation"));
      let signal;
      try {
        signal = convertSignalOptions(options, "NDEFScanOptions", false);
      } catch (e) {
        return rejected(e);
      }
      if (!isTop) return rejected(invalidState("NDEFReader.scan()"));
      if (signal !== null && signalAborted(signal)) return rejected(signalReason(signal));
      if (this.#scan !== null) return rejected(domError("InvalidStateError", "this NDEFReader is already scanning"));
      return new Promise_((resolve, reject) => startScan(this, signal, resolve, reject));
    }

    write(message, options = undefined) {
      if (!(#scan in this)) return rejected(typeError("Illegal invocation"));
      let source;
      let writeOptions;
      try {
        source = convertMessageSource(message);
        writeOptions = convertWriteOptions(options);
      } catch (e) {
        return rejected(e);
      }
      if (!isTop) return rejected(invalidState("NDEFReader.write()"));
      const signal = writeOptions.signal;
      if (signal !== null && signalAborted(signal)) return rejected(signalReason(signal));
      let records;
      try {
        records = wireRecords(messageFromSource(source));
      } catch (e) {
        return rejected(e);
      }
      // op and id first: the bridge reads them from the start of a message too large to parse.
      const op = { __proto__: null, op: "write", id: 0, records, overwrite: writeOptions.overwrite };
      return new Promise_((resolve, reject) => startOperation("write", op, signal, resolve, reject));
    }

    makeReadOnly(options = undefined) {
      if (!(#scan in this)) return rejected(typeError("Illegal invocation"));
      let signal;
      try {
        signal = convertSignalOptions(options, "NDEFMakeReadOnlyOptions", true);
      } catch (e) {
        return rejected(e);
      }
      if (!isTop) return rejected(invalidState("NDEFReader.makeReadOnly()"));
      if (signal !== null && signalAborted(signal)) return rejected(signalReason(signal));
      const op = { __proto__: null, op: "makeReadOnly", id: 0 };
      return new Promise_((resolve, reject) => startOperation("makeReadOnly", op, signal, resolve, reject));
    }

    static {
      readerState = (reader, entry) => {
        reader.#scan = entry;
      };
    }
  }

  // ---- Making the interfaces look like the browser's own -----------------------------------

  // WebIDL: operations and attributes are enumerable; the class tag names the interface.
  function finish(ctor) {
    const proto = ctor.prototype;
    const keys = ownKeys(proto);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (key === "constructor") continue;
      const desc = getOwnPropertyDescriptor(proto, key);
      desc.enumerable = true;
      defineProperty(proto, key, desc);
    }
    defineProperty(proto, toStringTag, { __proto__: null, value: ctor.name, configurable: true });
    defineProperty(win, ctor.name, { __proto__: null, value: ctor, writable: true, configurable: true, enumerable: false });
  }

  finish(NDEFReader);
  finish(NDEFReadingEvent);
  finish(NDEFMessage);
  finish(NDEFRecord);
})();
