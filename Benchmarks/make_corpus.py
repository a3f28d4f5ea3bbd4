#!/usr/bin/env python3
"""Writes the benchmark corpus: typical messages (each at most 1 KiB), length-prefixed.

Usage: make_corpus.py OUT [COUNT] [SEED]
Made with ndeflib's encoder, so both decoders in the benchmark read well-formed, realistic input:
links, smart posters, texts, contact cards, Wi-Fi credentials, app records, Bluetooth pairing data.
"""
import random
import struct
import sys

import ndef

WORDS = "poster badge toy label concert museum coupon ticket menu train station garden summer".split()


def words(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n))


def link(rng):
    return rng.choice(["https://www.", "https://", "http://"]) + "example.com/" + "/".join(
        rng.choice(WORDS) for _ in range(rng.randint(1, 4))) + f"?id={rng.randint(0, 10**6)}"


def wifi(rng):
    credential = ndef.wifi.Credential()
    credential.set_attribute("network-index", 1)
    credential.set_attribute("ssid", words(rng, 2).encode())
    credential.set_attribute("authentication-type", "WPA2-Personal")
    credential.set_attribute("encryption-type", "AES")
    credential.set_attribute("network-key", words(rng, 3).encode())
    credential.set_attribute("mac-address", b"\xff" * 6)
    record = ndef.WifiSimpleConfigRecord()
    record.set_attribute("version-1", 1, 0)
    record.set_attribute("credential", credential)
    return record


def message(rng):
    kind = rng.randrange(8)
    if kind == 0:
        return [ndef.UriRecord(link(rng))]
    if kind == 1:
        return [ndef.SmartposterRecord(link(rng), {"en": words(rng, 4), "de": words(rng, 4)},
                                       action="exec", resource_type="text/html")]
    if kind == 2:
        return [ndef.TextRecord(words(rng, rng.randint(3, 40)), rng.choice(["en", "de", "fr"]))]
    if kind == 3:
        card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:{0}\r\nORG:{1}\r\nTEL:+1555{2:07d}\r\nEMAIL:{3}@example.com\r\nEND:VCARD\r\n"
        return [ndef.Record("text/vcard", "", card.format(words(rng, 2), words(rng, 3), rng.randint(0, 10**7), rng.choice(WORDS)).encode())]
    if kind == 4:
        return [wifi(rng)]
    if kind == 5:
        return [ndef.UriRecord(link(rng)), ndef.Record("urn:nfc:ext:android.com:pkg", "", b"com.example." + rng.choice(WORDS).encode())]
    if kind == 6:
        record = ndef.BluetoothEasyPairingRecord("01:02:03:04:05:%02X" % rng.randrange(256))
        record.device_name = words(rng, 2)
        record.device_class = 0x200404
        return [record]
    return [ndef.UriRecord(link(rng)), ndef.TextRecord(words(rng, 20)), ndef.TextRecord(words(rng, 60), "de")]


def main():
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 2026)
    written = 0
    with open(out, "wb") as f:
        while written < count:
            data = b"".join(ndef.message_encoder(message(rng)))
            if len(data) <= 1024:
                f.write(struct.pack(">I", len(data)) + data)
                written += 1


if __name__ == "__main__":
    main()
