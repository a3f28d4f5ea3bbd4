#!/usr/bin/env python3
"""The records ndeflib finds in a dump file, and nfcscan's records compared with them.

Used by scripts/check-dumps.sh. Reads the dump formats itself (independently of nfcsim's Swift
parsers, so a shared mistake cannot hide): Flipper Zero .nfc, Proxmark3 and Metrodroid JSON, raw
Type 5 user memory (.bin). Finds the NDEF message the way the NFC Forum read procedures do
(Type 2 and 5 TLVs, MIFARE Classic MAD sectors with AID 03E1, FeliCa attribute block) and decodes
it with ndeflib (errors='relax', as phones read).

  dump_records.py kind FILE            prints the chip kind: type2, classic, type5, felica, none
  dump_records.py compare FILE JSON    compares nfcscan --json output (a file) with ndeflib;
                                       prints one line and exits 0 (same), 1 (differs)
"""
import json
import os
import sys

import ndef

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Support"))
import json_schema  # noqa: E402  (the one validator of nfcscan's --json, Docs/schemas)


def hexbytes(text):
    return bytes(0 if t == "??" else int(t, 16) for t in text.split())


def flipper_fields(text):
    """A Flipper .nfc file's `Key: value` lines, and its `Page N:`/`Block N:` lines by number."""
    fields, numbered = {}, {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#") or ":" not in line:
            continue
        key, _, value = line.partition(":")
        value = value.strip()
        parts = key.split()
        if len(parts) == 2 and parts[0] in ("Page", "Block") and parts[1].isdigit():
            numbered.setdefault(parts[0], {})[int(parts[1])] = value
        else:
            fields[key] = value
    return fields, numbered


def flipper(parsed):
    fields, numbered = parsed
    kind = fields.get("Device type", "").lower()
    if "ntag" in kind or "ultralight" in kind:
        pages = numbered.get("Page", {})
        return "type2", b"".join(hexbytes(pages.get(i, "00 00 00 00")) for i in range(max(pages) + 1))
    if kind == "mifare classic":
        blocks = numbered.get("Block", {})
        return "classic", b"".join(hexbytes(blocks.get(i, " ".join(["00"] * 16))) for i in range(max(blocks) + 1))
    if kind.startswith("iso15693") or kind.startswith("slix"):
        return "type5", hexbytes(fields.get("Data Content", ""))
    if kind == "felica":
        blocks = numbered.get("Block", {})
        return "felica", b"".join(hexbytes(blocks[i])[2:] for i in range(14) if i in blocks)
    return "none", b""


def metrodroid(doc):
    if "mifareUltralight" in doc:
        return "type2", b"".join(bytes.fromhex(p.get("data", "00000000")) for p in doc["mifareUltralight"]["pages"])
    if "mifareClassic" in doc:
        out = b""
        for sector in doc["mifareClassic"]["sectors"]:
            blocks = sector.get("blocks") or ["00" * 16] * 4
            out += b"".join(bytes.fromhex(b) if isinstance(b, str) else bytes(16) for b in blocks)
        return "classic", out
    if "felica" in doc:
        systems = doc["felica"]["systems"]
        for code in ("4860", "34996", *systems):
            service = systems.get(code, {}).get("services", {}).get("11")
            if service:
                table = {int(k): bytes.fromhex(v["data"]) for k, v in service["blocksMap"].items()}
                return "felica", b"".join(table.get(i, bytes(16)) for i in range(max(table) + 1))
    return "none", b""


def proxmark(doc):
    blocks = doc.get("blocks", {})
    data = b"".join(bytes.fromhex(blocks[str(i)]) for i in range(len(blocks)))
    kind = {"mfu": "type2", "mfcard": "classic"}.get(doc.get("FileType"), "none")
    if doc.get("FileType", "").startswith("15693"):
        return "type5", bytes.fromhex(doc["raw"]) if "raw" in doc else data
    return kind, data


def parse(path):
    """The file's format and content: ("flipper", (fields, numbered)), ("proxmark" or
    "metrodroid", the JSON document), ("view", None) or ("raw", the bytes)."""
    raw = open(path, "rb").read()
    if raw.lstrip().startswith(b"Filetype:"):
        return "flipper", flipper_fields(raw.decode("utf-8"))
    if raw.lstrip().startswith(b"{"):
        doc = json.loads(raw)
        return ("proxmark" if "FileType" in doc else "metrodroid"), doc
    if raw.lstrip().startswith(b"["):
        return "view", None   # Metrodroid's exported card view, not a dump
    return "raw", raw


def load(path):
    form, content = parse(path)
    if form == "raw":
        return "type5", content   # raw .bin in the checked folders: Type 5 user memory
    readers = {"flipper": flipper, "proxmark": proxmark, "metrodroid": metrodroid}
    return readers[form](content) if form in readers else ("none", b"")


def tlv_message(data):
    i = 0
    while i < len(data):
        tag = data[i]
        if tag == 0x00:
            i += 1
            continue
        if tag == 0xFE or i + 1 >= len(data):
            return None
        length, i = data[i + 1], i + 2
        if length == 0xFF:
            length, i = int.from_bytes(data[i:i + 2], "big"), i + 2
        if tag == 0x03:
            return data[i:i + length]
        i += length
    return None


def message(kind, data):
    if kind == "type2":
        return tlv_message(data[16:]) if len(data) > 16 and data[12] == 0xE1 else None
    if kind == "type5":
        if len(data) < 4 or data[0] not in (0xE1, 0xE2):
            return None
        return tlv_message(data[8:] if data[2] == 0 else data[4:])
    if kind == "felica":
        # Attribute block: version 1.x, checksum over bytes 0-13 (Type 3 Tag spec 6.2).
        if len(data) < 16 or data[0] >> 4 != 1 or sum(data[0:14]) & 0xFFFF != int.from_bytes(data[14:16], "big"):
            return None
        length = int.from_bytes(data[11:14], "big")
        return data[16:16 + length] if length else None
    if kind == "classic":
        # MAD1 in block 1-2: AIDs of sectors 1-15 (4K: MAD2 in sector 16 for 17-39).
        if len(data) < 64:
            return None
        mad = data[16 + 2:48]
        sectors = [s + 1 for s in range(15) if mad[2 * s:2 * s + 2] == b"\x03\xe1"]
        area = b"".join(data[s * 64:s * 64 + 48] for s in sectors)
        return tlv_message(area) if sectors else None
    return None


def ndeflib_records(octets):
    try:
        records = list(ndef.message_decoder(octets, errors="relax", known_types={}))
    except ndef.DecodeError as error:
        return "ndeflib cannot decode it (%s)" % error
    return [(r.type, r.data.hex()) for r in records]


def nfcscan_records(doc):
    if "ending" in doc:
        return None   # a failed scan's ending: no records read
    names = {"well-known": "urn:nfc:wkt:", "external": "urn:nfc:ext:"}
    out = []
    for r in doc.get("records", []):
        tnf, rtype = r.get("tnf"), r.get("type", "")
        t = names[tnf] + rtype if tnf in names else ("" if tnf == "empty" else "unknown" if tnf == "unknown" else rtype)
        out.append((t, r.get("payload", "")))
    return out


def main():
    verb, path = sys.argv[1], sys.argv[2]
    kind, data = load(path)
    if verb == "kind":
        print(kind)
        return 0
    octets = message(kind, data)
    text = open(sys.argv[3]).read().strip()
    expected = ndeflib_records(octets) if octets else None
    if expected in (None, []) and not octets:
        print("no message (ndeflib finds none)" + ("; nfcscan printed " + text[:80] if text else ""))
        return 0
    problems = json_schema.problems("scan", text) if text else []
    if problems:
        print("nfcscan --json does not follow scan.schema.json: " + "; ".join(problems)[:300])
        return 1
    try:
        got = nfcscan_records(json.loads(text)) if text else None
    except ValueError:
        got = None
    if isinstance(expected, str):
        print(expected + ("; nfcscan printed " + text[:80] if text else "; nfcscan printed nothing"))
        return 0 if not got else 1
    if got == expected:
        print("%d record(s) as ndeflib: %s" % (len(got), ", ".join(t or "(empty)" for t, _ in got)))
        return 0
    print("differs: ndeflib %s; nfcscan %s" % (expected, got if got is not None else "printed nothing"))
    return 1


if __name__ == "__main__":
    sys.exit(main())
