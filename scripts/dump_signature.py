#!/usr/bin/env python3
"""The originality signature a dump carries, judged by the openssl command, not by nfcscan.

Used by scripts/check-dumps.sh to know what `object.genuine` nfcscan must report for a dump.
Independent of nfcscan on purpose: the dump is read by dump_records.py (not nfcsim's Swift
parsers), the signature is verified by `openssl pkeyutl` (not the LibCrypto wrapper), under this
file's own list of NXP's keys (not Sources/Authenticity/OriginalityKeys.swift), so a wrong or
missing key in the product's table shows as a difference instead of being shared.

  dump_signature.py expect FILE         prints what a reader that can ask the chip must report:
                                          none        the dump has no signature
                                          absent WHY  the chip has no signature command
                                          true KEY    the signature verifies under NXP's KEY
                                          false WHY   it does not (zeros, copied bytes, ...)
  dump_signature.py changed FILE OUT    writes the dump with its UID's last byte changed to OUT
                                        (Type 2 pages 0-2 with their check byte too)
  dump_signature.py password FILE       prints the password (PWD) of an NTAG21x or Ultralight EV1
                                        dump whose configuration protects reading (nothing when
                                        none does): READ_SIG needs none, but a scan that cannot
                                        read the memory ends without an object to report on
  dump_signature.py judge EXPECT JSON   compares `object.genuine` in nfcscan --json output (a
                                        file) with an expectation `expect` printed; prints one
                                        clause and exits 0 (as expected) or 1
"""
import binascii
import json
import os
import subprocess
import sys
import tempfile

import dump_records

# NXP's originality keys (uncompressed points), as Proxmark3 lists them in
# client/src/crypto/originality.c (manufacturer_public_keys, the entries NXP's), with the
# application notes it cites: AN11350 (NTAG21x), AN11341 (Ultralight EV1); "NXP Public key" from
# NXP's TagInfo; the ICODE and MIFARE Classic EV1 keys from recovered chips' signatures.
# Only secp128r1: nfcsim presents no dump of a chip signed on another curve.
SECP128R1 = "06052b8104001c"   # OID 1.3.132.0.28
NXP_KEYS = {
    "NXP NTAG21x (2013)": "04494E1A386D3D3CFE3DC10E5DE68A499B1C202DB5B132393E89ED19FE5BE8BC61",
    "NXP Ultralight EV1": "0490933BDCD6E99B4E255E3DA55389A827564E11718E017292FAF23226A96614B8",
    "NXP Public key": "04A748B6A632FBEE2C0897702B33BEA1C074998E17B84ACA04FF267E5D2C91F6DC",
    "NXP ICODE DNA, ICODE SLIX2": "048878A2A2D3EEC336B4F261A082BD71F9BE11C4E2E896648B32EFA59CEA6E59F0",
    "NXP MIFARE Classic MFC1C14_x": "044F6D3F294DEA5737F0F46FFEE88A356EED95695DD7E0C27A591E6F6F65962BAF",
}


def der(tag, body):
    n = len(body)
    length = bytes([n]) if n < 0x80 else bytes([0x80 | ((n.bit_length() + 7) // 8)]) + n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([tag]) + length + body


def der_integer(raw):
    value = raw.lstrip(b"\0") or b"\0"
    return der(0x02, (b"\0" if value[0] & 0x80 else b"") + value)


def public_key(point_hex):
    """SubjectPublicKeyInfo: id-ecPublicKey on secp128r1, the point as it is."""
    algorithm = der(0x30, bytes.fromhex("06072a8648ce3d0201" + SECP128R1))
    return der(0x30, algorithm + der(0x03, b"\0" + bytes.fromhex(point_hex)))


def ecdsa_sig_value(signature):
    """r ‖ s as ECDSA-Sig-Value (SEQUENCE of two INTEGERs)."""
    half = len(signature) // 2
    return der(0x30, der_integer(signature[:half]) + der_integer(signature[half:]))


def verifying_key(message, signature):
    """The name of the NXP key `signature` verifies `message` under (pkeyutl takes the input as
    the digest: the UID is signed as it is, not hashed), or None."""
    with tempfile.TemporaryDirectory() as work:
        def put(name, data):
            path = os.path.join(work, name)
            with open(path, "wb") as f:
                f.write(data)
            return path
        data, sig = put("uid.bin", message), put("sig.der", ecdsa_sig_value(signature))
        for name, point in NXP_KEYS.items():
            key = put("key.der", public_key(point))
            run = subprocess.run(["openssl", "pkeyutl", "-verify", "-pubin", "-keyform", "DER", "-inkey", key,
                                  "-in", data, "-sigfile", sig], capture_output=True, text=True)
            if run.returncode == 0 and "Verified Successfully" in run.stdout:
                return name
            if "Verification Failure" not in run.stdout:
                # Not a verdict: openssl could not take the key or the signature. A zero r or s
                # is refused before verifying; anything else is this oracle's own fault.
                if any(signature[:len(signature) // 2]) and any(signature[len(signature) // 2:]):
                    raise RuntimeError("openssl pkeyutl failed: " + (run.stderr or run.stdout).strip()[:200])
    return None


def icode_signs(uid):
    """ICODE SLIX2 and DNA (NXP's ICODE UID format: E0, 04, type 01, type indicator in bits 4-3
    of the next byte 01 or 11) answer READ SIGNATURE; SLI and SLIX do not."""
    return len(uid) == 8 and uid[:3] == b"\xe0\x04\x01" and (uid[3] >> 3) & 3 in (1, 3)


def version_signs(version):
    """GET_VERSION of NXP (vendor 04) naming an Ultralight (03) or NTAG (04): READ_SIG answers."""
    return version is not None and len(version) == 8 and version[1] == 0x04 and version[2] in (0x03, 0x04)


def chip(path):
    """(kind, UID as the reader meets it, signature or None, GET_VERSION or None, the UID line
    where it names another UID)."""
    form, content = dump_records.parse(path)
    kind, data = dump_records.load(path)
    uid = signature = version = None
    if form == "flipper":
        fields, _ = content
        uid = dump_records.hexbytes(fields.get("UID", ""))
        signature = dump_records.hexbytes(fields["Signature"]) if "Signature" in fields else None
        version = dump_records.hexbytes(fields["Mifare version"]) if "Mifare version" in fields else None
    elif form == "proxmark":
        card = content.get("Card", {})
        uid = bytes.fromhex(card.get("UID", ""))
        signature = bytes.fromhex(card["Signature"]) if "Signature" in card else None
        version = bytes.fromhex(card["Version"]) if "Version" in card else None
    line = uid
    if kind == "type2" and len(data) >= 8:
        uid = data[0:3] + data[4:8]   # what the chip answers anticollision with: pages 0-1
    return kind, uid, signature, version, (line if line and line != uid else None)


def expect(path):
    kind, uid, signature, version, other = chip(path)
    if signature is None:
        return "none"
    if kind == "type2" and not version_signs(version):
        return "absent its GET_VERSION (%s) names no NXP chip with a signature" % (version.hex() if version else "none")
    if kind == "type5":
        if not icode_signs(uid):
            return "absent its UID names no ICODE SLIX2 or DNA"
        message = uid[::-1]   # ICODE signs its UID least significant byte first, as it sends it
    elif kind == "type2":
        message = uid
    else:
        return "absent not a chip with an originality signature"
    if not any(signature):
        return "false the signature is all zeros"
    key = verifying_key(message, signature)
    if key:
        return "true " + key
    if other and verifying_key(other, signature):
        return "false the signature is the UID line's (%s), not the chip's (pages 0-1: %s)" % (other.hex(), uid.hex())
    return "false the signature verifies under none of NXP's keys"


def password(path):
    """PWD, when ACCESS's PROT bit guards reading from AUTH0 on (NTAG21x and Ultralight EV1 data
    sheets: CFG0, CFG1, PWD, PACK are the last four pages)."""
    kind, _, _, version, _ = chip(path)
    _, data = dump_records.load(path)
    pages = len(data) // 4
    if kind != "type2" or not version_signs(version) or pages < 8:
        return ""
    auth0, access = data[(pages - 4) * 4 + 3], data[(pages - 3) * 4]
    return data[(pages - 2) * 4:(pages - 1) * 4].hex() if access & 0x80 and auth0 < pages else ""


def changed(path, out):
    """The dump with the UID's last byte XOR 01 (the manufacturer byte stays, so the chip still
    claims to be NXP's), everywhere the dump holds it."""
    form, content = dump_records.parse(path)
    if form == "proxmark":
        card = content["Card"]
        uid = bytearray.fromhex(card["UID"])
        uid[-1] ^= 1
        card["UID"] = uid.hex().upper()
        if content.get("FileType") == "mfu":
            for block, index in (("1", 3), ("2", 0)):   # UID byte 6 and BCC1
                page = bytearray.fromhex(content["blocks"][block])
                page[index] ^= 1
                content["blocks"][block] = page.hex().upper()
        with open(out, "w") as f:
            json.dump(content, f, indent=2)
        return
    if form != "flipper":
        raise SystemExit("dump_signature.py: cannot change the UID of %s" % path)
    lines = []
    for line in open(path, encoding="utf-8").read().splitlines():
        key, sep, value = line.partition(":")
        if sep and key in ("UID", "Page 1", "Page 2"):
            octets = value.split()
            at = {"UID": len(octets) - 1, "Page 1": 3, "Page 2": 0}[key]   # UID byte 6, BCC1
            octets[at] = "%02X" % (int(octets[at], 16) ^ 1)
            line = key + ": " + " ".join(octets)
        lines.append(line)
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def judge(expectation, output):
    want, _, why = expectation.partition(" ")
    try:
        doc = json.loads(open(output).read() or "{}")
    except ValueError:
        doc = {}
    obj = doc.get("object")
    if not isinstance(obj, dict):
        return "genuine not read (no object), openssl: %s" % expectation, 1
    got = obj.get("genuine")
    got = "absent" if got is None else json.dumps(got)
    key = " under %s" % obj["genuine_key"] if obj.get("genuine_key") else ""
    if got == want:
        return "genuine %s%s, as expected (%s)" % (got, key, why or want), 0
    return "genuine %s%s, expected %s (%s)" % (got, key, want, why), 1


def main():
    verb, path = sys.argv[1], sys.argv[2]
    if verb == "expect":
        print(expect(path))
    elif verb == "changed":
        changed(path, sys.argv[3])
    elif verb == "password":
        print(password(path))
    elif verb == "judge":
        clause, status = judge(path, sys.argv[3])
        print(clause)
        return status
    else:
        raise SystemExit(__doc__)
    return 0


if __name__ == "__main__":
    sys.exit(main())
