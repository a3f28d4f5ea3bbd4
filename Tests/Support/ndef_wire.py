"""Raw NDEF record headers written by hand, for test inputs no encoder would produce on its own
(long headers on short payloads, IL with an empty ID, chunks, broken flags). Shared by the fuzz
seed generator and the ndeflib differential corpus."""
import struct


def record(mb, me, cf, tnf, rtype=b'', rid=b'', payload=b'', sr=None, il=None):
    """One record header and its fields (NFC Forum NDEF 1.0 §3.2). SR defaults to "payload fits in
    one length byte", IL to "ID present"."""
    if sr is None:
        sr = len(payload) < 256
    if il is None:
        il = len(rid) > 0
    assert not sr or len(payload) < 256
    octet0 = (mb << 7) | (me << 6) | (cf << 5) | (sr << 4) | (il << 3) | tnf
    out = bytes([octet0, len(rtype)])
    out += bytes([len(payload)]) if sr else struct.pack('>I', len(payload))
    if il:
        out += bytes([len(rid)])
    return out + rtype + rid + payload
