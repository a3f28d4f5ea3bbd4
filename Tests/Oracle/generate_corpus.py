#!/usr/bin/env python3
"""Generate the differential-test corpus for `nfcscan decode`.

Every message is built with the independent Python NDEF library ndeflib
(PyPI `ndeflib`, module `ndef`): records are made with its classes and encoded
with `ndef.message_encoder`.  A few encodings ndeflib never produces are then
made BY HAND from the ndeflib bytes: long records (SR=0) for short payloads,
IL=1 with a zero-length ID, and chunked records.

The expected JSON (Docs/json-schema.md) of every record is derived from
ndeflib's DECODER (`ndef.message_decoder`, strict) run on the unchunked
equivalent of the record; only fields ndeflib can tell (or that are plain
structure, such as a prefix code or a flag byte) are put into it.  Where ndeflib
is known to deviate from the NFC Forum specifications, the deviation is written
down next to the code that works around it.

Output: DIR/corpus.jsonl, one JSON object per line:
    {"hex": "...", "expected": {"records": [...]}, "desc": "..."}
`desc` is a short human-readable summary for triage; the comparator ignores it.

Usage: generate_corpus.py --seed N --count 2000 --out DIR
"""

import argparse
import collections
import json
import os
import random
import string
import struct
import sys
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'Support'))
from ndef_wire import record as write_record  # noqa: E402

import ndef
from ndef import handover as nd_ho
from ndef import smartposter as nd_sp
from ndef import wifi as nd_wifi

TNF_NAMES = ('empty', 'well-known', 'media', 'absolute-uri', 'external',
             'unknown', 'unchanged')

# Record types decoded into classes at the top level of a message.  ndeflib
# chooses the known types of a whole message from its FIRST record (a quirk:
# after a Handover Select record a Text record is not decoded as text), so
# every record is decoded on its own against this global mapping instead.
# The Handover Carrier record is a global type (NFC Forum CH 1.3 §3.1.4) but
# ndeflib registers it only in the Handover Request context; add it.
TOP_TYPES = dict(ndef.Record._known_types)
TOP_TYPES[ndef.HandoverCarrierRecord._type] = ndef.HandoverCarrierRecord
NO_TYPES = {}

# ndeflib bug: its Signature decoder insists on a payload of at least 7
# octets, but a marker signature (Signature RTD 2.0: version, type 0, hash
# type, length 0, certificate field) has 6 -- as ndeflib's own ENCODER
# produces for SignatureRecord(None).  Let its decoder accept 6.
ndef.SignatureRecord._decode_min_payload_length = 6

HANDOVER_KINDS = {
    'urn:nfc:wkt:Hs': 'handover-select',
    'urn:nfc:wkt:Hr': 'handover-request',
    'urn:nfc:wkt:Hm': 'handover-mediation',
    'urn:nfc:wkt:Hi': 'handover-initiate',
}
SPECIAL_MEDIA = ('application/vnd.wfa.wsc', 'application/vnd.wfa.p2p',
                 'application/vnd.bluetooth.ep.oob',
                 'application/vnd.bluetooth.le.oob', 'text/vcard',
                 'text/x-vcard')
ACTIONS = {'exec': 'do', 'save': 'save', 'edit': 'edit'}
LE_ROLES = {'Peripheral': 'peripheral', 'Central': 'central',
            'Peripheral/Central': 'peripheral-preferred',
            'Central/Peripheral': 'central-preferred'}
WIFI_AUTH_BITS = ((0x0001, 'Open'), (0x0002, 'WPA-Personal'),
                  (0x0004, 'Shared'), (0x0008, 'WPA-Enterprise'),
                  (0x0010, 'WPA2-Enterprise'), (0x0020, 'WPA2-Personal'))
WIFI_ENCR_BITS = ((0x0001, 'None'), (0x0002, 'WEP'), (0x0004, 'TKIP'),
                  (0x0008, 'AES'))
URI_PREFIXES = ndef.UriRecord._prefix_strings
assert len(URI_PREFIXES) == 36


# ---------------------------------------------------------------------------
# Raw NDEF framing (used only for the hand-made encodings and for reading
# payload structure; the message content itself comes from ndeflib).

def parse_records(octets):
    """Split an (unchunked) NDEF message into record tuples
    (tnf, type, id, payload, flags)."""
    out, i = [], 0
    while i < len(octets):
        h = octets[i]
        tl = octets[i + 1]
        i += 2
        if h & 0x10:
            pl = octets[i]
            i += 1
        else:
            pl = struct.unpack('>I', octets[i:i + 4])[0]
            i += 4
        il = 0
        if h & 0x08:
            il = octets[i]
            i += 1
        rtype = octets[i:i + tl]
        i += tl
        rid = octets[i:i + il]
        i += il
        payload = octets[i:i + pl]
        i += pl
        assert len(payload) == pl, 'truncated record'
        out.append((h & 7, bytes(rtype), bytes(rid), bytes(payload), h & 0xF8))
    return out


def dechunk(octets):
    """Reassemble chunked records (independent check of the hand encoder)."""
    out, cur = [], None
    for tnf, rtype, rid, payload, flags in parse_records(octets):
        if cur is None:
            cur = [tnf, rtype, rid, payload]
        else:
            assert tnf == 6 and rtype == b'' and rid == b'' and not flags & 8
            cur[3] += payload
        if not flags & 0x20:
            out.append(tuple(cur))
            cur = None
    assert cur is None
    return out


def decode_one(tnf, rtype, rid, payload, known):
    """Decode a single record with ndeflib (strict)."""
    octets = write_record(1, 1, 0, tnf, rtype, rid, payload)
    records = list(ndef.message_decoder(octets, 'strict', known))
    assert len(records) == 1
    return records[0]


# ---------------------------------------------------------------------------
# Mapping ndeflib objects to the JSON schema

def hexbits(value, table):
    names = [name for mask, name in table if value & mask]
    known = 0
    for mask, _ in table:
        known |= mask
    names += ['0x%04x' % (1 << b) for b in range(16)
              if value & ~known & (1 << b)]
    return names


def octets_field(out, name, octets):
    try:
        out[name] = octets.decode('utf-8')
    except UnicodeDecodeError:
        out[name + '_hex'] = octets.hex()


def expected_record(tnf, rtype, rid, payload, known):
    """The schema object for one record, as far as ndeflib can tell."""
    generic = decode_one(tnf, rtype, rid, payload, NO_TYPES)
    gtype = generic.type
    if tnf in (1, 4):
        type_text = gtype[len('urn:nfc:wkt:'):]
    elif tnf in (2, 3):
        type_text = gtype
    else:
        type_text = ''
    assert type_text == rtype.decode('ascii'), (type_text, rtype)
    assert generic.name == rid.decode('latin-1')
    assert bytes(generic.data) == payload
    exp = {'tnf': TNF_NAMES[tnf], 'type': type_text, 'id': generic.name,
           'payload': bytes(generic.data).hex()}
    # Media types (RFC 2045 §5.1) and external type names (NFC Forum RTD
    # 1.0 §2.5) compare case-insensitively; ndeflib looks its classes up
    # case-sensitively, so the typed decoding is done on the lowercased type.
    canon = rtype.lower() if tnf in (2, 4) else rtype
    obj = decode_one(tnf, canon, rid, payload, known)
    exp.update(kind_fields(obj, tnf, type_text, payload))
    return exp


def nested(octets, known):
    return [expected_record(t, ty, i, p, known)
            for t, ty, i, p, _ in parse_records(octets)]


# The expectation for a record whose payload does not fit its type: an `error`
# string (its wording is nfcscan's own) and no `kind`; compare.py reads `$type`
# and `$absent`.
PAYLOAD_ERROR = {'error': {'$type': 'string'}, '$absent': ['kind']}


def kind_fields(obj, tnf, type_text, payload):
    cls = type(obj)
    if cls is ndef.UriRecord:
        # The payload-derived IRI (prefix expanded, rest as UTF-8), not
        # ndeflib's percent-encoded/IDNA `.uri`.
        return {'kind': 'uri', 'uri': obj.iri, 'prefix_code': payload[0]}
    if cls is ndef.TextRecord:
        return {'kind': 'text', 'text': obj.text, 'language': obj.language,
                'encoding': obj.encoding.lower()}
    if cls is ndef.SmartposterRecord:
        out = {'kind': 'smart-poster', 'uri': obj.resource.iri}
        titles = [{'language': t.language, 'text': t.text}
                  for t in obj.title_records]
        if titles:
            out['titles'] = titles
        if obj.action_records:
            out['action'] = ACTIONS[obj.action]
        if obj.size_records:
            out['size'] = obj.resource_size
        if obj.type_records:
            out['resource_type'] = obj.resource_type
        icons = [{'mime_type': r.type.lower(), 'payload': bytes(r.data).hex()}
                 for r in obj.icon_records]
        if icons:
            out['icons'] = icons
        out['records'] = nested(payload, ndef.SmartposterRecord._known_types)
        return out
    if obj.type in HANDOVER_KINDS and isinstance(obj, nd_ho.HandoverRecord):
        out = {'kind': HANDOVER_KINDS[obj.type],
               'version': obj.version_string}
        acs = [{'power_state': ac.carrier_power_state,
                'carrier_data_reference': ac.carrier_data_reference,
                'auxiliary_data_references': list(ac.auxiliary_data_reference)}
               for ac in obj.alternative_carriers]
        if acs:
            out['alternative_carriers'] = acs
        if cls is ndef.HandoverRequestRecord:
            if obj.collision_resolution_number is not None:
                out['collision_resolution'] = obj.collision_resolution_number
        if cls is ndef.HandoverSelectRecord and obj.error is not None:
            out['error'] = {'reason': obj.error.error_reason,
                            'data': error_data_hex(obj.error)}
        records = nested(payload[1:], cls._known_types)
        if records:
            out['records'] = records
        return out
    if cls in (nd_sp.ActionRecord, nd_sp.SizeRecord, nd_sp.TypeRecord):
        return {}   # Smart Poster local records: no kind in the schema
    if cls is nd_ho.AlternativeCarrierRecord:
        return {'kind': 'alternative-carrier',
                'power_state': obj.carrier_power_state,
                'carrier_data_reference': obj.carrier_data_reference,
                'auxiliary_data_references': list(obj.auxiliary_data_reference)}
    if cls is nd_ho.CollisionResolutionRecord:
        return {'kind': 'collision-resolution',
                'random_number': obj.random_number}
    if cls is nd_ho.ErrorRecord:
        return {'kind': 'handover-error', 'reason': obj.error_reason,
                'data': error_data_hex(obj)}
    if cls is ndef.HandoverCarrierRecord:
        ctf = payload[0] & 7
        ctype = payload[2:2 + payload[1]]
        assert obj.carrier_type == ndef.Record._decode_type(ctf, ctype)
        assert bytes(obj.carrier_data) == payload[2 + payload[1]:]
        return {'kind': 'handover-carrier',
                'carrier_type_format': TNF_NAMES[ctf],
                'carrier_type': ctype.decode('ascii'),
                'carrier_data': bytes(obj.carrier_data).hex()}
    if cls is ndef.SignatureRecord:
        return signature_fields(obj, payload)
    if cls is ndef.DeviceInformationRecord:
        out = {'kind': 'device-information', 'vendor_name': obj.vendor_name,
               'model_name': obj.model_name}
        if obj.unique_name is not None:
            out['unique_name'] = obj.unique_name
        if obj.uuid_string is not None:
            out['uuid'] = obj.uuid_string
        if obj.version_string is not None:
            out['version_string'] = obj.version_string
        others = [{'type': t, 'data': bytes(d).hex()}
                  for t, d in obj.undefined_data_elements]
        if others:
            out['other_elements'] = others
        return out
    if cls is ndef.WifiSimpleConfigRecord:
        return wifi_fields(obj, type_text)
    if cls is ndef.BluetoothEasyPairingRecord:
        out = {'kind': 'bluetooth', 'mime_type': type_text.lower(),
               'address': obj.device_address.addr}
        if 'Complete Local Name' in obj or 'Shortened Local Name' in obj:
            out['local_name'] = obj.device_name
        if 'Class of Device' in obj:
            out['class_of_device'] = obj.device_class.cod
        return out
    if cls is ndef.BluetoothLowEnergyRecord:
        out = {'kind': 'bluetooth-le', 'mime_type': type_text.lower()}
        addr = obj.device_address
        if addr is not None:
            out['address'] = addr.addr
            out['address_type'] = addr.type
        role = obj.role_capabilities
        if role in LE_ROLES:
            out['role'] = LE_ROLES[role]
        if 'Complete Local Name' in obj or 'Shortened Local Name' in obj:
            out['local_name'] = obj.device_name
        if obj.appearance is not None:
            out['appearance'] = obj.appearance[0]
        return out
    assert cls is ndef.Record, cls
    if tnf == 2:
        mime = type_text.lower()
        out = {'mime_type': mime}
        if mime in ('text/vcard', 'text/x-vcard'):
            try:
                out.update({'kind': 'vcard', 'vcard': payload.decode('utf-8')})
            except UnicodeDecodeError:
                # ndeflib keeps such a record as raw bytes beside the others;
                # nfcscan reports it raw with an error (issue 12).
                out.update(PAYLOAD_ERROR)
        else:
            assert mime not in SPECIAL_MEDIA, mime
            out['kind'] = 'media'
        return out
    if tnf == 3:
        return {'kind': 'absolute-uri', 'uri': type_text}
    if tnf == 4:
        domain_type = type_text.lower()
        out = {'domain_type': domain_type}
        if domain_type == 'android.com:pkg':
            try:
                out.update({'kind': 'android-app',
                            'package': payload.decode('utf-8')})
            except UnicodeDecodeError:
                out.update(PAYLOAD_ERROR)
        else:
            out['kind'] = 'external'
        return out
    return {}


def error_data_hex(err):
    if err.error_reason in (1, 3):
        return bytes([err.error_data]).hex()
    if err.error_reason == 2:
        return struct.pack('>L', err.error_data).hex()
    return bytes(err.error_data).hex()


def signature_fields(obj, payload):
    # ndeflib maps unassigned signature/hash/certificate codes to None and
    # its constructor then silently substitutes defaults ('SHA-256',
    # 'X.509'), so the codes themselves are read from the payload bytes; the
    # assigned names, the signature, URIs and certificates come from ndeflib.
    version = payload[0]
    sup, sst, sht = payload[1] >> 7, payload[1] & 0x7F, payload[2]
    slen = struct.unpack('>H', payload[3:5])[0]
    cbyte = payload[5 + slen]
    cup, ccf, cnc = cbyte >> 7, (cbyte >> 4) & 7, cbyte & 15
    out = {'kind': 'signature', 'version': '%d.%d' % (version >> 4,
                                                      version & 15)}
    assert out['version'] == '%d.%d' % obj.version
    if sst != 0:
        name = dict(ndef.SignatureRecord._mapping_signature_type).get(sst)
        assert obj.signature_type == name
        out['signature_type'] = name if name else '0x%02x' % sst
        name = dict(ndef.SignatureRecord._mapping_hash_type).get(sht)
        out['hash_type'] = name if name else '0x%02x' % sht
    if sup:
        out['signature_uri'] = obj.signature_uri
    elif obj.signature:
        out['signature'] = bytes(obj.signature).hex()
    if cnc:
        out['certificates'] = [bytes(c).hex() for c in obj.certificate_store]
        assert len(out['certificates']) == cnc
    if cnc or cup:
        name = dict(ndef.SignatureRecord._mapping_certificate_format).get(ccf)
        out['certificate_format'] = name if name else '0x%02x' % ccf
    if cup:
        out['certificate_uri'] = obj.certificate_uri
    return out


def wifi_fields(obj, type_text):
    out = {'kind': 'wifi', 'mime_type': type_text.lower()}
    creds, index = [], 0
    while True:
        cred = obj.get_attribute('credential', index)
        if cred is None:
            break
        index += 1
        c = {}
        ssid = cred.get_attribute('ssid')
        if ssid is not None:
            octets_field(c, 'ssid', ssid.value)
        key = cred.get_attribute('network-key')
        if key is not None:
            octets_field(c, 'network_key', key.value)
        auth = cred.get_attribute('authentication-type')
        if auth is not None:
            c['authentication'] = hexbits(auth.value[0], WIFI_AUTH_BITS)
        encr = cred.get_attribute('encryption-type')
        if encr is not None:
            c['encryption'] = hexbits(encr.value[0], WIFI_ENCR_BITS)
        mac = cred.get_attribute('mac-address')
        if mac is not None:
            c['mac_address'] = ':'.join('%02x' % b for b in mac.value)
        creds.append(c)
    if creds:
        out['credentials'] = creds
        out.update(creds[0])
    return out


# ---------------------------------------------------------------------------
# Content pools

LATIN = 'àáâãäåæçèéêëìíîïñòóôõöøùúûüýÿßÀÉÎÕÜÇŒœ€£¥©®°±µ¶·¿¡'
GREEK = 'αβγδεζηθικλμνξοπρστυφχψωΑΒΓΔΩ'
CYRILLIC = 'абвгдеёжзийклмнопрстуфхцчшщъыьэюяБЖЩЯ'
ARABIC = ''.join(chr(c) for c in range(0x0621, 0x064B)) + '٠١٢٣٤٥'
HEBREW = ''.join(chr(c) for c in range(0x05D0, 0x05EB))
DEVANAGARI = ''.join(chr(c) for c in range(0x0905, 0x0939)) + '\u093e\u093f\u094d'
THAI = ''.join(chr(c) for c in range(0x0E01, 0x0E2F))
HIRAGANA = ''.join(chr(c) for c in range(0x3041, 0x3097))
EMOJI = ['😀', '😂', '🥰', '👍', '🎉', '🌍', '🚀', '❤️', '🇩🇪', '🇯🇵',
         '👨‍👩‍👧‍👦', '🏳️‍🌈', '👋🏽', '🤖', '☕', '✅', '🔥', '𝄞', '𠜎', '🀄']
SPECIAL = ['\t', '\n', '\r\n', '"', '\\', '/', '\u2028', '\u2029', '\x1b',
           '\x7f', '\x00', '\x01', '\u200b', '\u00a0', 'e\u0301', '\ufffd',
           '<script>', '&amp;', "'", '\u202e']

TEXT_SAMPLES = [
    ('en', 'Hello, world!'),
    ('en-US', 'The quick brown fox jumps over the lazy dog.'),
    ('en-GB', 'Colour, flavour & behaviour'),
    ('de', 'Grüße aus Köln – schöne Straße'),
    ('de-CH-1901', 'Grüezi mitenand'),
    ('fr', 'Ça va ? Très bien, merci.'),
    ('fr-CA', 'Bonjour le monde'),
    ('es-419', '¿Dónde está la biblioteca? ¡Allí!'),
    ('pt-BR', 'Olá, tudo bem? Ação e coração.'),
    ('it', 'Perché così?'),
    ('pl', 'Zażółć gęślą jaźń'),
    ('cs', 'Příliš žluťoučký kůň úpěl ďábelské ódy'),
    ('tr', 'İstanbul ığdır şeker'),
    ('is', 'Þórður ætlar að fá sér ís'),
    ('ru', 'Привет, мир! Съешь же ещё этих мягких французских булок.'),
    ('uk', 'Ґудзик і їжак'),
    ('el', 'Γειά σου Κόσμε'),
    ('ja', 'こんにちは世界。日本語のテキストです。'),
    ('ja-JP', 'カタカナとひらがなと漢字'),
    ('zh', '你好，世界'),
    ('zh-Hans-CN', '简体中文测试'),
    ('zh-Hant-TW', '繁體中文測試'),
    ('ko', '안녕하세요 세계'),
    ('ar', 'مرحبا بالعالم'),
    ('ar-EG', 'النص العربي ١٢٣'),
    ('he', 'שלום עולם'),
    ('fa', 'سلام دنیا'),
    ('ur', 'ہیلو دنیا'),
    ('hi', 'नमस्ते दुनिया'),
    ('bn', 'ওহে বিশ্ব'),
    ('ta', 'வணக்கம் உலகம்'),
    ('th', 'สวัสดีชาวโลก'),
    ('vi', 'Xin chào thế giới'),
    ('ka', 'გამარჯობა მსოფლიო'),
    ('hy', 'Բարեւ աշխարհ'),
    ('am', 'ሰላም ልዑል'),
    ('yue-Hant-HK', '廣東話'),
    ('sr-Latn-RS', 'Zdravo svete'),
    ('und', '😀🎉👍🏽👨‍👩‍👧‍👦🇺🇳'),
    ('en', 'Mixed: English עברית العربية 中文 😀'),
    ('en', ''),
    ('x-klingon', 'nuqneH'),
    ('i-default', 'default'),
    ('en', 'Line one\nLine two\r\nTab\there "quoted" \\ back'),
    ('en', 'Control: \x1b[31mred\x1b[0m \x00 NUL \x7f DEL'),
    ('en', '\u202eRTL override\u202c and \u2028 separators \u2029'),
]
LANGS = [s[0] for s in TEXT_SAMPLES] + [
    'a', 'en-Latn-US-x-private', 'zh-cmn-Hans-CN',
    'de-DE-u-co-phonebk', 'x' * 63, 'en-a-bbb-x-a-ccc']

WORDS = ['alpha', 'beta', 'nfc', 'tag', 'reader', 'poster', 'example',
         'test', 'data', 'info', 'home', 'shop', 'docs', 'news', 'user']
TLDS = ['com', 'org', 'net', 'de', 'io', 'co.uk', 'jp', 'example']
IDN_HOSTS = ['bücher.example', 'münchen.de', '例え.jp', 'пример.рф',
             'xn--bcher-kva.example', 'straße.de', '🍕.ws']


def rand_chars(rng, pool_name, n):
    if pool_name == 'ascii':
        pool = string.ascii_letters + string.digits + ' .,;:!?-_()[]{}@#$%&*+='
        return ''.join(rng.choice(pool) for _ in range(n))
    if pool_name == 'cjk':
        return ''.join(chr(rng.randint(0x4E00, 0x9FA5)) for _ in range(n))
    if pool_name == 'hangul':
        return ''.join(chr(rng.randint(0xAC00, 0xD7A3)) for _ in range(n))
    if pool_name == 'emoji':
        return ''.join(rng.choice(EMOJI) for _ in range(n))
    if pool_name == 'special':
        return ''.join(rng.choice(SPECIAL) for _ in range(n))
    pool = {'latin': LATIN, 'greek': GREEK, 'cyrillic': CYRILLIC,
            'arabic': ARABIC + ' ', 'hebrew': HEBREW + ' ',
            'devanagari': DEVANAGARI, 'thai': THAI,
            'hiragana': HIRAGANA}[pool_name]
    return ''.join(rng.choice(pool) for _ in range(n))


POOLS = ['ascii', 'ascii', 'ascii', 'latin', 'greek', 'cyrillic', 'arabic',
         'hebrew', 'devanagari', 'thai', 'hiragana', 'cjk', 'hangul', 'emoji',
         'special']


def rand_text(rng, lo=0, hi=40):
    n = rng.randint(lo, hi)
    parts, total = [], 0
    while total < n:
        k = rng.randint(1, max(1, min(12, n - total)))
        parts.append(rand_chars(rng, rng.choice(POOLS), k))
        total += k
    return ''.join(parts)


def rand_name(rng, lo=1, hi=24):
    """Text without NUL/control characters (names, titles)."""
    while True:
        t = rand_text(rng, lo, hi)
        t = ''.join(c for c in t if c >= ' ' and c != '\x7f')
        if len(t) >= lo:
            return t


def fit_utf8(text, limit):
    """UTF-8 bytes of text, cut at a character boundary to <= limit."""
    out = text.encode('utf-8')
    while len(out) > limit:
        text = text[:-1]
        out = text.encode('utf-8')
    return out


def rand_bytes(rng, n):
    return bytes(rng.getrandbits(8) for _ in range(n))


def rand_id(rng, lo=1, hi=12):
    pool = string.ascii_letters + string.digits + '-_.:#'
    if rng.random() < 0.03:
        lo, hi = 100, 255
    return ''.join(rng.choice(pool) for _ in range(rng.randint(lo, hi)))


def rand_host(rng, www_ok=True):
    if rng.random() < 0.12:
        return rng.choice(IDN_HOSTS)
    host = '.'.join(rng.choice(WORDS) for _ in range(rng.randint(1, 2)))
    host += '.' + rng.choice(TLDS)
    if not www_ok and host.startswith('www.'):
        host = 'x' + host
    if host.startswith('ftp.') or host.startswith('anonymous'):
        host = 'h' + host
    if rng.random() < 0.1:
        host += ':%d' % rng.randint(1, 65535)
    return host


def rand_path(rng):
    r = rng.random()
    if r < 0.2:
        return ''
    segs = []
    for _ in range(rng.randint(1, 4)):
        x = rng.random()
        if x < 0.7:
            segs.append(rng.choice(WORDS) + str(rng.randint(0, 99)))
        elif x < 0.8:
            segs.append('%E2%82%AC%20x')
        elif x < 0.9:
            segs.append(rng.choice(['straße', '路径', 'ファイル', 'файл',
                                    '🎉', 'a b', 'ü~x']))
        else:
            segs.append('~' + rng.choice(WORDS))
    path = '/' + '/'.join(segs)
    if rng.random() < 0.3:
        path += '?q=%s&lang=%s' % (rng.choice(WORDS), rng.choice(['en', 'de']))
    if rng.random() < 0.15:
        path += '#' + rng.choice(WORDS)
    if rng.random() < 0.05:
        path += '/' + 'x' * rng.randint(200, 400)
    return path


def uri_rest(rng, code):
    p = URI_PREFIXES[code]
    if p in ('http://www.', 'https://www.', 'ftp://ftp.'):
        return rand_host(rng) + rand_path(rng)
    if p in ('http://', 'https://'):
        return rand_host(rng, www_ok=False) + rand_path(rng)
    if p == 'tel:':
        return rng.choice(['+', '']) + ''.join(
            rng.choice('0123456789') for _ in range(rng.randint(3, 15)))
    if p == 'mailto:':
        s = rng.choice(WORDS) + '@' + rand_host(rng)
        if rng.random() < 0.4:
            s += '?subject=' + rng.choice(['Hello%20there', 'Grüße', 'hi'])
        return s
    if p == 'ftp://':
        return rng.choice(WORDS) + '.example' + rand_path(rng)
    if p in ('news:',):
        return 'comp.lang.' + rng.choice(WORDS)
    if p in ('imap:', 'pop:'):
        return '//' + rng.choice(WORDS) + '@mail.' + rand_host(rng)
    if p == 'urn:':
        return rng.choice(['isbn:0451450523', 'uuid:' + str(uuid.UUID(
            int=rng.getrandbits(128))), 'ietf:rfc:3986', 'oid:2.5.4.3'])
    if p in ('sip:', 'sips:'):
        return 'alice' + str(rng.randint(0, 9)) + '@' + rand_host(rng)
    if p == 'tftp:':
        return '//' + rand_host(rng) + rand_path(rng)
    if p.startswith('urn:epc:'):
        if p == 'urn:epc:':
            return 'idpat:sgtin:0614141.*.*'
        return {'urn:epc:id:': 'sgtin:0614141.107346.%d',
                'urn:epc:tag:': 'sgtin-96:3.0614141.812345.%d',
                'urn:epc:pat:': 'sgtin-96:3.0614141.812345.%d',
                'urn:epc:raw:': '96.x3074257bf7194e400000%d'}[p] % rng.randint(
                    0, 9999)
    if p == 'urn:nfc:':
        return rng.choice(['wkt:U', 'ext:example.com:x', 'sn:handover'])
    if p == '':
        return rng.choice([
            'geo:37.786971,-122.399677', 'market://details?id=com.example',
            'spotify:track:4uLU6hMCjMI75M1A2tKUQC', 'sms:+15550100',
            'bitcoin:1BoatSLRy?amount=0.1', 'data:text/plain,hello',
            'HTTP://EXAMPLE.COM/UPPER', 'intent://scan/#Intent;end',
            'ms-settings:bluetooth', 'about:blank', 'fido:/abc', '',
            'x-' + rand_name(rng, 1, 10), 'wifi:' + rand_name(rng, 1, 10)])
    # btspp://, btl2cap://, btgoep://, tcpobex://, irdaobex://, file://,
    # ftps://, sftp://, smb://, nfs://, dav://, telnet://, rtsp://
    if p == 'file://':
        return '/home/user/' + rng.choice(WORDS) + '.txt'
    if p.startswith('bt'):
        return '%012X:%d' % (rng.getrandbits(48), rng.randint(1, 30))
    return rand_host(rng) + rand_path(rng)


def rand_uri(rng, code=None):
    if code is None:
        code = rng.randrange(36)
    return URI_PREFIXES[code] + uri_rest(rng, code)


def png_icon(rng, n):
    return b'\x89PNG\r\n\x1a\n' + rand_bytes(rng, n)


# ---------------------------------------------------------------------------
# Record makers.  Each returns an Item.

class Item(object):
    def __init__(self, obj, tag=''):
        self.obj = obj          # ndeflib record, encoded by ndeflib
        self.tag = tag
        self.long = False       # force SR=0 (hand re-encoding)
        self.il_empty = False   # IL=1 with ID_LENGTH=0 (hand re-encoding)
        self.chunks = 0         # number of chunks (hand re-encoding)
        self.override = None    # expected fields that ndeflib gets wrong

    @property
    def rid(self):
        return self.obj.name

    def set_id(self, rid):
        self.obj.name = rid


def make_text(rng, big=False):
    r = rng.random()
    if r < 0.45:
        lang, text = rng.choice(TEXT_SAMPLES)
    else:
        lang = rng.choice(LANGS)
        text = rand_text(rng, 0, 60)
    if big:
        text = (text or 'x') * (300 // max(1, len((text or 'x').encode())) + 1)
        text += rand_text(rng, 0, 50)
    mode = rng.random()
    if mode < 0.7:
        return Item(ndef.TextRecord(text, lang, 'UTF-8'), tag='T8')
    if mode < 0.85:
        # ndeflib: Python's 'UTF-16' codec, i.e. a little-endian BOM.
        return Item(ndef.TextRecord(text, lang, 'UTF-16'), tag='T16le')
    lb = lang.encode('ascii')
    if mode < 0.93:
        # UTF-16 big-endian WITH BOM, by hand (ndeflib decodes it correctly).
        payload = bytes([0x80 | len(lb)]) + lb + b'\xfe\xff' + \
            text.encode('utf-16-be')
        return Item(ndef.Record('urn:nfc:wkt:T', None, payload), tag='T16be')
    # UTF-16 WITHOUT BOM: NFC Forum Text RTD 1.0 §3.4 says big-endian.
    # ndeflib decodes with Python's 'UTF-16' codec, which assumes the host
    # byte order (little-endian) -- an ndeflib bug -- so the text is
    # overridden with the big-endian decoding. Text that would start with
    # U+FEFF/U+FFFE (a BOM look-alike) or that ndeflib cannot decode at all
    # is avoided.
    while True:
        body = text.encode('utf-16-be')
        try:
            body.decode('utf-16')
            ok = not body.startswith((b'\xfe\xff', b'\xff\xfe'))
        except UnicodeDecodeError:
            ok = False
        if ok:
            break
        text = rand_text(rng, 1, 30)
    payload = bytes([0x80 | len(lb)]) + lb + body
    item = Item(ndef.Record('urn:nfc:wkt:T', None, payload), tag='T16nobom')
    item.override = {'text': text}
    return item


def make_uri(rng, code=None, big=False):
    uri = rand_uri(rng, code)
    if big:
        uri += '/' + 'p' * rng.randint(260, 600)
    if rng.random() < 0.12 and code is None:
        # Hand-chosen, not the longest, prefix: e.g. 0x03 + "www.x.com".
        candidates = [c for c in range(36) if uri.startswith(URI_PREFIXES[c])]
        c = rng.choice(candidates)
        payload = bytes([c]) + uri[len(URI_PREFIXES[c]):].encode('utf-8')
        return Item(ndef.Record('urn:nfc:wkt:U', None, payload), tag='Uhand')
    return Item(ndef.UriRecord(uri), tag='U')


def make_smartposter(rng, big=False):
    uri = rand_uri(rng)
    ntitles = rng.choice([0, 1, 1, 2, 3, 4])
    langs = rng.sample([s[0] for s in TEXT_SAMPLES[:38]] + ['en-AU', 'nl'],
                       ntitles)
    titles = []
    for lang in langs:
        text = rand_name(rng, 0, 30) if rng.random() < 0.5 else \
            dict(TEXT_SAMPLES[:38]).get(lang, 'Title')
        titles.append((lang, text, rng.choice(['UTF-8', 'UTF-8', 'UTF-16'])))
    action = rng.choice([None, 'exec', 'save', 'edit'])
    icons = []
    for _ in range(rng.choice([0, 0, 0, 1, 1, 2])):
        mt = rng.choice(['image/png', 'image/jpeg', 'image/gif',
                         'image/svg+xml', 'video/mp4'])
        n = rng.randint(0, 40) if not big else rng.randint(256, 900)
        data = png_icon(rng, n) if mt == 'image/png' else rand_bytes(rng, n)
        icons.append((mt, data))
    size = rng.choice([None, None, 0, rng.randint(1, 1 << 20), 0xFFFFFFFF])
    rtype = rng.choice([None, None, 'text/html', 'application/pdf',
                        'image/jpeg', 'video/mp4; codecs="avc1"'])
    if rng.random() < 0.6:
        sp = ndef.SmartposterRecord(uri)
        for lang, text, enc in titles:
            sp.set_title(text, lang, enc)
        if action:
            sp.action = action
        for mt, data in icons:
            sp.add_icon(mt, data)
        if size is not None:
            sp.resource_size = size
        if rtype is not None:
            sp.resource_type = rtype
        return Item(sp, tag='Sp')
    # Nested records in a shuffled order, encoded by ndeflib's encoder.
    nested = [ndef.UriRecord(uri)]
    nested += [ndef.TextRecord(t, l, e) for l, t, e in titles]
    if action:
        nested.append(nd_sp.ActionRecord(action))
    nested += [ndef.Record(mt, None, data) for mt, data in icons]
    if size is not None:
        nested.append(nd_sp.SizeRecord(size))
    if rtype is not None:
        nested.append(nd_sp.TypeRecord(rtype))
    rng.shuffle(nested)
    for record in nested:
        if rng.random() < 0.1:
            record.name = rand_id(rng, 1, 6)
    payload = b''.join(ndef.message_encoder(nested))
    return Item(ndef.Record('urn:nfc:wkt:Sp', None, payload), tag='Sphand')


def make_media(rng, big=False):
    mt = rng.choice([
        'application/octet-stream', 'application/json', 'text/plain',
        'text/plain; charset=utf-8', 'image/png', 'image/jpeg', 'video/mp4',
        'audio/mpeg', 'application/vnd.example+json', 'Application/Octet-Stream',
        'TEXT/HTML', 'application/x-www-form-urlencoded', 'model/gltf+json',
        'application/vnd.wfa.WSC', 'Text/VCard', 'x-custom/x-type'])
    n = rng.randint(0, 60) if not big else rng.randint(256, 1500)
    if mt.startswith(('text', 'TEXT', 'application/json')):
        data = rand_text(rng, n // 2, n).encode('utf-8')
    else:
        data = rand_bytes(rng, n)
    if mt == 'application/vnd.wfa.WSC':
        # A mixed-case spelling of the Wi-Fi type: a real WSC payload.
        data = make_wifi(rng).obj.data
    elif mt == 'Text/VCard':
        data = make_vcard(rng).obj.data
    return Item(ndef.Record(mt, None, data), tag='media')


def make_vcard(rng, big=False):
    first, last = rand_name(rng, 1, 12), rand_name(rng, 1, 14)
    lines = ['BEGIN:VCARD', 'VERSION:' + rng.choice(['2.1', '3.0', '4.0']),
             'N:%s;%s;;;' % (last, first), 'FN:%s %s' % (first, last),
             'TEL;TYPE=cell:+1-555-%04d' % rng.randint(0, 9999),
             'EMAIL:%s@example.com' % rng.choice(WORDS)]
    if rng.random() < 0.5:
        lines.append('ORG:' + rand_name(rng))
    if rng.random() < 0.3:
        lines.append('NOTE:' + rand_text(rng, 0, 50).replace('\n', '\\n'))
    if big:
        lines.append('PHOTO;ENCODING=b;TYPE=JPEG:' + 'QUJD' * 120)
    lines.append('END:VCARD')
    card = '\r\n'.join(lines) + '\r\n'
    mt = rng.choice(['text/vcard', 'text/vcard', 'text/x-vcard'])
    return Item(ndef.Record(mt, None, card.encode('utf-8')), tag='vcard')


def make_legacy_vcard(rng, big=False):
    """A vCard 2.1 in Latin-1 or Shift-JIS, as old phones and writers made
    them: not UTF-8, so not a `vcard` kind, but it must not hide the other
    records of its message (issue 12)."""
    if rng.random() < 0.5:
        name, charset, codec = rng.choice(['Jos\u00e9 M\u00fcller', 'Fran\u00e7oise',
                                           'Bj\u00f6rk \u00c5sa']), 'ISO-8859-1', 'latin-1'
    else:
        name, charset, codec = rng.choice(['\u5c71\u7530\u592a\u90ce',
                                           '\u30b5\u30c8\u30a6']), 'SHIFT_JIS', 'shift_jis'
    card = ('BEGIN:VCARD\r\nVERSION:2.1\r\nFN;CHARSET=%s:%s\r\n'
            'TEL;CELL:+81-90-%04d-%04d\r\nEND:VCARD\r\n') % (
        charset, name, rng.randint(0, 9999), rng.randint(0, 9999))
    payload = card.encode(codec)
    try:
        payload.decode('utf-8')
        raise AssertionError('legacy vCard decodes as UTF-8: %r' % payload)
    except UnicodeDecodeError:
        pass
    return Item(ndef.Record('text/vcard', None, payload), tag='vcard-legacy')


def make_absolute_uri(rng, big=False):
    n = rng.randint(0, 40) if not big else rng.randint(256, 700)
    data = rand_bytes(rng, n)
    # ndeflib can only handle absolute-URI types with a scheme, an authority
    # and a path (it re-parses the type string when decoding).
    t = '%s://%s.%s/%s' % (
        rng.choice(['https', 'http', 'HTTPS', 'ftp', 'coap', 'x-my-scheme']),
        rng.choice(WORDS), rng.choice(TLDS), rng.choice(WORDS))
    if rng.random() < 0.3:
        t += rng.choice(['#frag', '?q=1', '/sub/type', ';v=2', '%20x'])
    return Item(ndef.Record(t, None, data), tag='abs')


def make_external(rng, big=False):
    domain = rng.choice(['example.com', 'nfcpy.org', 'acme.co.uk',
                         'Example.COM', 'foo-bar.example'])
    name = rng.choice(['mytype', 'Type', 'a', 'device.state', 'x-y_z',
                       'Sensor01'])
    n = rng.randint(0, 50) if not big else rng.randint(256, 800)
    return Item(ndef.Record('urn:nfc:ext:%s:%s' % (domain, name), None,
                            rand_bytes(rng, n)), tag='ext')


def make_android(rng, big=False):
    pkg = rng.choice(['com.example.app', 'org.nfcpy.reader',
                      'com.google.android.apps.maps', 'de.müller.app',
                      'a.b', 'com.example.' + 'x' * rng.randint(1, 40)])
    if big:
        pkg += '.' + 'y' * 300
    rtype = 'urn:nfc:ext:android.com:pkg'
    if rng.random() < 0.05:
        rtype = 'urn:nfc:ext:Android.COM:pkg'   # case-insensitive
    return Item(ndef.Record(rtype, None, pkg.encode('utf-8')), tag='aar')


def make_empty(rng, big=False):
    return Item(ndef.Record(), tag='empty')


def make_unknown(rng, big=False):
    n = rng.randint(0, 40) if not big else rng.randint(256, 900)
    return Item(ndef.Record('unknown', None, rand_bytes(rng, n)), tag='unknown')


def make_unknown_wkt(rng, big=False):
    t = rng.choice(['X', 'xyz', 'Gc', 'Te', 'Foo', 'Hx', 'V1'])
    n = rng.randint(0, 30) if not big else rng.randint(256, 400)
    return Item(ndef.Record('urn:nfc:wkt:' + t, None, rand_bytes(rng, n)),
                tag='wkt?')


def make_deviceinfo(rng, big=False):
    vendor = rand_name(rng, 1, 20)
    model = rand_name(rng, 1, 20)
    unique = rand_name(rng, 0, 20) if rng.random() < 0.5 else None
    uid = str(uuid.UUID(int=rng.getrandbits(128))) if rng.random() < 0.6 \
        else None
    version = rng.choice([None, '1.0', 'v2.3.4-beta', 'Firmware 7 ✓'])
    others = []
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        others.append((rng.randint(5, 255), rand_bytes(rng, rng.randint(0, 20))))
    if big:
        others.append((rng.randint(5, 255), rand_bytes(rng, 255)))
    di = ndef.DeviceInformationRecord(vendor, model, unique, uid, version,
                                      *others)
    if rng.random() < 0.25:
        # The same TLVs in a shuffled order.
        tlvs, p = [], di.data
        while p:
            tlvs.append(p[:2 + p[1]])
            p = p[2 + p[1]:]
        rng.shuffle(tlvs)
        return Item(ndef.Record('urn:nfc:wkt:Di', None, b''.join(tlvs)),
                    tag='Dihand')
    return Item(di, tag='Di')


def rand_bits(rng, table, unknown_pool):
    value = 0
    for mask, _ in table:
        if rng.random() < 0.35:
            value |= mask
    if value == 0:
        value = rng.choice(table)[0]
    if rng.random() < 0.08:
        value |= rng.choice(unknown_pool)
    return value


def make_credential(rng):
    cred = nd_wifi.Credential()
    cred.set_attribute('network-index', 1)
    r = rng.random()
    if r < 0.75:
        ssid = fit_utf8(rand_name(rng, 1, 10), 32)
    elif r < 0.9:
        ssid = rand_bytes(rng, rng.randint(1, 32))
    elif r < 0.95:
        ssid = b''
    else:
        ssid = ('x' * 32).encode()
    if rng.random() < 0.95:
        cred.set_attribute('ssid', ssid)
    auth = rand_bits(rng, WIFI_AUTH_BITS, [0x0040, 0x0080, 0x0100, 0x8000])
    encr = rand_bits(rng, WIFI_ENCR_BITS, [0x0010, 0x0020, 0x0400])
    if rng.random() < 0.93:
        cred.set_attribute('authentication-type', auth)
    if rng.random() < 0.93:
        cred.set_attribute('encryption-type', encr)
    r = rng.random()
    if r < 0.6:
        key = fit_utf8(rand_name(rng, 8, 40), 63)
    elif r < 0.75:
        key = ''.join(rng.choice('0123456789abcdef')
                      for _ in range(64)).encode()
    elif r < 0.9:
        key = rand_bytes(rng, rng.randint(5, 32))
    else:
        key = None
    if key is not None:
        cred.set_attribute('network-key', key)
    if rng.random() < 0.85:
        mac = rng.choice([b'\xff' * 6, rand_bytes(rng, 6)])
        cred.set_attribute('mac-address', mac)
    if rng.random() < 0.2:
        cred.set_attribute('key-provided-automatically', rng.random() < 0.5)
    if rng.random() < 0.15:
        cred.set_attribute('vendor-extension', b'\x00\x37\x2a',
                           b'\x02\x01\x01')
    return cred


def make_wifi(rng, big=False):
    rec = ndef.WifiSimpleConfigRecord()
    rec.set_attribute('version-1', 0x10)
    ncred = rng.choice([1, 1, 1, 1, 1, 2, 3, 0])
    if big:
        ncred = max(ncred, 4)
    for _ in range(ncred):
        rec.add_attribute('credential', make_credential(rng))
    if ncred == 0:
        # Handover-select style: SSID and MAC at the top level only.
        rec.set_attribute('ssid', fit_utf8(rand_name(rng, 1, 10), 32))
        rec.set_attribute('mac-address', rand_bytes(rng, 6))
    if rng.random() < 0.6:
        rec.set_attribute('wfa-vendor-extension',
                          nd_wifi.WifiAllianceVendorExtension(
                              ('version-2', b'\x20')))
    if rng.random() < 0.2:
        rec.set_attribute('device-name', fit_utf8(rand_name(rng, 1, 16), 64)
                          .decode('utf-8'))
    return Item(rec, tag='wifi')


def rand_addr(rng):
    return ':'.join('%02X' % b for b in rand_bytes(rng, 6))


def make_bt_ep(rng, big=False):
    rec = ndef.BluetoothEasyPairingRecord(rand_addr(rng))
    r = rng.random()
    if r < 0.6:
        rec.device_name = rand_name(rng, 1, 24)
    elif r < 0.75:
        rec['Shortened Local Name'] = rand_name(rng, 1, 8).encode('utf-8')
    if rng.random() < 0.7:
        rec.device_class = rng.choice([0x20041C, 0x5A020C, 0x240404,
                                       0x000000, rng.getrandbits(24)])
    if rng.random() < 0.3:
        for sc in rng.sample([0x1101, 0x110B, 0x110A, 0x111E, 0x1108], 2):
            rec.add_service_class(sc, complete=rng.random() < 0.5)
    if rng.random() < 0.3:
        rec.simple_pairing_hash_192 = rng.getrandbits(128)
        rec.simple_pairing_randomizer_192 = rng.getrandbits(128)
    if big:
        rec[0xFF] = rand_bytes(rng, 250)
        rec[0x07] = rand_bytes(rng, 64)
    return Item(rec, tag='btep')


def make_bt_le(rng, big=False):
    rec = ndef.BluetoothLowEnergyRecord()
    if rng.random() < 0.92:
        rec.device_address = (rand_addr(rng), rng.choice(['public', 'random']))
    if rng.random() < 0.8:
        rec.role_capabilities = rng.choice(list(LE_ROLES))
    r = rng.random()
    if r < 0.6:
        rec.device_name = rand_name(rng, 1, 24)
    elif r < 0.7:
        rec['Shortened Local Name'] = rand_name(rng, 1, 8).encode('utf-8')
    if rng.random() < 0.6:
        rec.appearance = rng.choice([0x0000, 0x0040, 0x00C1, 0x03C2, 0x0C41,
                                     rng.getrandbits(16)])
    if rng.random() < 0.4:
        rec.flags = rng.choice([0x02, 0x06, 0x1A])
    if rng.random() < 0.3:
        rec.security_manager_tk_value = rng.getrandbits(128)
    if big:
        rec[0xFF] = rand_bytes(rng, 250)
        rec[0x22] = rand_bytes(rng, 16)
    return Item(rec, tag='btle')


def make_carrier_record(rng, big=False):
    ctype = rng.choice(['application/vnd.wfa.wsc',
                        'application/vnd.bluetooth.ep.oob',
                        'application/vnd.bluetooth.le.oob',
                        'urn:nfc:ext:example.com:carrier',
                        'urn:nfc:wkt:xyz', 'https://example.com/carrier'])
    n = rng.choice([0, 0, rng.randint(1, 20)]) if not big else 300
    return Item(ndef.HandoverCarrierRecord(ctype, rand_bytes(rng, n)),
                tag='Hc')


SIG_TYPES = [name for _, name in ndef.SignatureRecord._mapping_signature_type]


def make_signature(rng, big=False):
    if rng.random() < 0.7:
        stype = rng.choice(SIG_TYPES)   # includes None: a marker signature
        if stype is None:
            sig, suri = b'', ''
        elif rng.random() < 0.25:
            sig, suri = b'', rand_uri(rng, rng.choice([1, 2, 3, 4]))
        else:
            sig, suri = rand_bytes(rng, rng.choice([40, 64, 72, 128, 256])), ''
        certs = [rand_bytes(rng, rng.randint(1, 300 if big else 80))
                 for _ in range(rng.choice([0, 0, 1, 2, 3]))]
        curi = rand_uri(rng, 4) if rng.random() < 0.25 else None
        fmt = rng.choice(['X.509', 'M2M'])
        return Item(ndef.SignatureRecord(stype, 'SHA-256', sig, suri, fmt,
                                         certs, curi), tag='Sig')
    # By hand: unassigned signature type, hash type or certificate format.
    sst = rng.choice([0x0C, 0x0D, 0x40, 0x7F, rng.randint(1, 11)])
    sht = rng.choice([0x02, 0x02, 0x00, 0x01, 0x03, 0x10, 0xFF])
    ccf = rng.choice([0, 1, 2, 3, 7])
    if rng.random() < 0.3:
        sup, s = 0x80, rand_uri(rng, 4).encode('utf-8')
    else:
        sup, s = 0, rand_bytes(rng, rng.choice([0, 32, 64]))
    certs = [rand_bytes(rng, rng.randint(1, 60))
             for _ in range(rng.choice([0, 1, 2]))]
    curi = rand_uri(rng, 3).encode('utf-8') if rng.random() < 0.3 else b''
    p = bytes([0x20, sup | sst, sht]) + struct.pack('>H', len(s)) + s
    p += bytes([(0x80 if curi else 0) | (ccf << 4) | len(certs)])
    for c in certs:
        p += struct.pack('>H', len(c)) + c
    if curi:
        p += struct.pack('>H', len(curi)) + curi
    return Item(ndef.Record('urn:nfc:wkt:Sig', None, p), tag='Sighand')


SINGLE_MAKERS = [
    (make_text, 20), (make_uri, 20), (make_smartposter, 5), (make_media, 8),
    (make_vcard, 4), (make_absolute_uri, 4), (make_external, 6),
    (make_android, 5), (make_empty, 3), (make_unknown, 3),
    (make_unknown_wkt, 2), (make_deviceinfo, 4), (make_wifi, 5),
    (make_bt_ep, 4), (make_bt_le, 4), (make_carrier_record, 3),
    (make_signature, 3),
]


def make_huge(rng):
    """A payload above 65535 octets: all four PAYLOAD_LENGTH octets used."""
    data = rand_bytes(rng, rng.randint(65536, 70000))
    rtype = rng.choice(['application/octet-stream', 'unknown',
                        'urn:nfc:ext:example.com:blob'])
    return Item(ndef.Record(rtype, None, data), tag='huge')


def random_item(rng):
    if rng.random() < 0.0015:
        return make_huge(rng)
    makers = [m for m, _ in SINGLE_MAKERS]
    weights = [w for _, w in SINGLE_MAKERS]
    maker = rng.choices(makers, weights)[0]
    return maker(rng, big=rng.random() < 0.06)


# ---------------------------------------------------------------------------
# Messages

def msg_handover(rng, kind=None, cps=None):
    kind = kind or rng.choice(['Hs', 'Hs', 'Hr', 'Hm', 'Hi'])
    carriers, aux = [], []
    for i in range(rng.choice([0, 1, 1, 2, 3])):
        maker = rng.choice([make_wifi, make_bt_ep, make_bt_le, make_media,
                            make_external] +
                           ([make_carrier_record] * 2 if kind == 'Hr' else []))
        item = maker(rng)
        item.set_id(rng.choice(['0', '1', '2', 'wifi', 'bt', 'c%d' % i,
                                rand_id(rng)]) + str(i))
        carriers.append(item)
    for i in range(rng.choice([0, 0, 1, 2])):
        item = rng.choice([make_deviceinfo, make_text, make_external])(rng)
        item.set_id('aux%d' % i)
        aux.append(item)
    version = rng.choice(['1.2', '1.3', '1.3', '1.4', '1.5', '1.%d' %
                          rng.randint(6, 15)])
    if kind == 'Hs':
        err = None
        if rng.random() < 0.3:
            reason = rng.choice([1, 2, 3, 4, 200])
            data = {1: rng.randint(0, 255), 2: rng.getrandbits(32),
                    3: rng.randint(0, 255)}.get(reason, rand_bytes(rng, 3))
            err = (reason, data)
        elif rng.random() < 0.2:
            version = rng.choice(['1.0', '1.1'])
        head = ndef.HandoverSelectRecord(version, err)
    elif kind == 'Hr':
        crn = rng.getrandbits(16)
        if rng.random() < 0.15:
            version, crn = rng.choice(['1.0', '1.1']), None
        head = ndef.HandoverRequestRecord(version, crn)
    elif kind == 'Hm':
        head = ndef.HandoverMediationRecord(version)
    else:
        head = ndef.HandoverInitiateRecord(version)
    for c in carriers:
        refs = [a.rid for a in aux if rng.random() < 0.6]
        if rng.random() < 0.1:
            refs.append('missing')
        state = cps if cps is not None else rng.choice(
            ['inactive', 'active', 'activating', 'unknown'])
        head.add_alternative_carrier(state, c.rid, *refs)
    if rng.random() < 0.1:
        head.unknown_records.append(
            ndef.Record('urn:nfc:ext:example.com:hx', None, rand_bytes(rng, 4)))
    return [Item(head, tag=kind)] + carriers + aux


def msg_signed(rng):
    body = [random_item(rng) for _ in range(rng.randint(1, 4))]
    sig = make_signature(rng)
    if rng.random() < 0.2:
        return [Item(ndef.SignatureRecord(None), tag='Sigmark')] + body + [sig]
    return body + [sig]


def build_message(rng, forced=None):
    if forced is not None:
        return forced
    r = rng.random()
    if r < 0.36:
        return [random_item(rng)]
    if r < 0.68:
        return [random_item(rng) for _ in range(rng.randint(2, 6))]
    if r < 0.78:
        items = [make_smartposter(rng, big=rng.random() < 0.1)]
        items += [random_item(rng) for _ in range(rng.choice([0, 0, 1, 2]))]
        return items
    if r < 0.9:
        return msg_handover(rng)
    if r < 0.95:
        return msg_signed(rng)
    if r < 0.975:
        return [make_wifi(rng)] + ([make_text(rng)] if rng.random() < .3 else [])
    return [rng.choice([make_bt_ep, make_bt_le])(rng)]


def forced_messages(rng):
    """Messages that guarantee coverage of enumerated values."""
    out = []
    for code in range(36):
        out.append([make_uri(rng, code)])
    for lang, text in TEXT_SAMPLES:
        for enc in ('UTF-8', 'UTF-16'):
            out.append([Item(ndef.TextRecord(text, lang, enc), tag='T')])
    for kind in ('Hs', 'Hr', 'Hm', 'Hi'):
        for cps in ('inactive', 'active', 'activating', 'unknown'):
            msg = msg_handover(rng, kind, cps)
            if len(msg) == 1:   # make sure there is a carrier to reference
                c = make_bt_le(rng)
                c.set_id('le')
                msg.append(c)
                msg[0].obj.add_alternative_carrier(cps, 'le')
            out.append(msg)
    for action in ('exec', 'save', 'edit'):
        sp = ndef.SmartposterRecord(rand_uri(rng), {'en': 'Poster'}, action,
                                    resource_size=1234,
                                    resource_type='text/html')
        sp.add_icon('image/png', png_icon(rng, 10))
        out.append([Item(sp, tag='Sp')])
    for stype in SIG_TYPES:
        sig = ndef.SignatureRecord(stype, 'SHA-256',
                                   rand_bytes(rng, 64) if stype else b'',
                                   None, 'X.509', [rand_bytes(rng, 20)])
        out.append([make_text(rng), Item(sig, tag='Sig')])
    # One payload that does not fit its type, alone, first, between and last.
    out.append([make_legacy_vcard(rng)])
    out.append([make_legacy_vcard(rng), make_uri(rng)])
    out.append([make_uri(rng), make_legacy_vcard(rng), make_text(rng)])
    out.append([make_smartposter(rng), make_text(rng), make_legacy_vcard(rng)])
    return out


def apply_hand_mods(rng, items):
    for item in items:
        tnf = ndef.Record._encode_type(item.obj.type)[0]
        if tnf == 0:
            continue
        r = rng.random()
        if r < 0.06:
            item.long = True
        if rng.random() < 0.25 and not item.rid:
            item.set_id(rand_id(rng))
        if rng.random() < 0.03 and not item.rid:
            item.il_empty = True
        if rng.random() < 0.07:
            item.chunks = rng.randint(2, 5)


def item_raw(item):
    recs = parse_records(b''.join(ndef.message_encoder([item.obj])))
    assert len(recs) == 1
    return recs[0][:4]


def encode_message(rng, items):
    """Returns (octets, unchunked_octets, raw_records, hand_encoded)."""
    raws = [item_raw(it) for it in items]
    hand = any(it.long or it.il_empty or it.chunks for it in items)
    plain = b''.join(ndef.message_encoder([it.obj for it in items]))
    assert [r[:4] for r in parse_records(plain)] == raws
    mine = b''.join(write_record(i == 0, i == len(raws) - 1, 0, *r)
                    for i, r in enumerate(raws))
    assert mine == plain, 'hand encoder differs from ndeflib'
    if not hand:
        return plain, plain, raws, False
    unchunked, chunked = b'', b''
    last = len(items) - 1
    for i, (it, (tnf, rtype, rid, payload)) in enumerate(zip(items, raws)):
        il = True if it.il_empty else None
        unchunked += write_record(i == 0, i == last, 0, tnf, rtype, rid,
                                  payload, sr=False if it.long else None,
                                  il=il)
        n = it.chunks = min(it.chunks, len(payload))
        if n < 2:
            chunked += write_record(i == 0, i == last, 0, tnf, rtype, rid,
                                    payload, sr=False if it.long else None,
                                    il=il)
            continue
        cuts = sorted(rng.sample(range(1, len(payload)), n - 1))
        parts = [payload[a:b] for a, b in zip([0] + cuts, cuts + [None])]
        for k, part in enumerate(parts):
            first, final = k == 0, k == len(parts) - 1
            chunked += write_record(
                i == 0 and first, i == last and final, 0 if final else 1,
                tnf if first else 6, rtype if first else b'',
                rid if first else b'', part,
                sr=False if it.long else None,
                il=il if first else False)
    return chunked, unchunked, raws, True


def expected_message(items, raws):
    records = []
    for it, (tnf, rtype, rid, payload) in zip(items, raws):
        exp = expected_record(tnf, rtype, rid, payload, TOP_TYPES)
        if it.override:
            exp.update(it.override)
        if it.chunks >= 2:
            exp['chunked'] = True
        records.append(exp)
    return {'records': records}


def validate(octets, unchunked, raws):
    # ndeflib, strict, on the unchunked equivalent (its own type context).
    decoded = list(ndef.message_decoder(unchunked, 'strict'))
    assert len(decoded) == len(raws)
    # ... and with the global type mapping used for the expectations.
    decoded = list(ndef.message_decoder(unchunked, 'strict', TOP_TYPES))
    assert len(decoded) == len(raws)
    # The (possibly chunked) wire form reassembles to the same records.
    assert dechunk(octets) == [r[:4] for r in raws]
    assert dechunk(unchunked) == [r[:4] for r in raws]


def walk_kinds(records, counter, prefix=''):
    for r in records:
        counter[prefix + r.get('kind', '(tnf %s)' % r['tnf'])] += 1
        if 'records' in r:
            walk_kinds(r['records'], counter, prefix='nested ')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--seed', type=int, required=True)
    ap.add_argument('--count', type=int, default=2000)
    ap.add_argument('--out', required=True)
    ap.add_argument('--quiet', action='store_true')
    args = ap.parse_args()

    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    forced = forced_messages(rng)
    stats = collections.Counter()
    kinds = collections.Counter()
    prefix_codes = collections.Counter()
    path = os.path.join(args.out, 'corpus.jsonl')
    with open(path, 'w', encoding='utf-8') as out:
        for index in range(args.count):
            items = build_message(rng, forced[index] if index < len(forced)
                                  else None)
            if index >= len(forced) or rng.random() < 0.3:
                apply_hand_mods(rng, items)
            octets, unchunked, raws, hand = encode_message(rng, items)
            validate(octets, unchunked, raws)
            expected = expected_message(items, raws)
            walk_kinds(expected['records'], kinds)
            for r in expected['records']:
                if r.get('kind') == 'uri':
                    prefix_codes[r['prefix_code']] += 1
            stats['messages'] += 1
            stats['records'] += len(items)
            stats['multi-record messages'] += len(items) > 1
            stats['hand-encoded messages'] += hand
            stats['chunked records'] += sum(it.chunks >= 2 for it in items)
            stats['SR=0 short-payload records'] += sum(
                it.long and len(r[3]) < 256 for it, r in zip(items, raws))
            stats['IL=1 empty-ID records'] += sum(it.il_empty for it in items)
            stats['long (>=256 B payload) records'] += sum(
                len(r[3]) >= 256 for r in raws)
            stats['records with ID'] += sum(bool(r[2]) for r in raws)
            desc = ' '.join(
                it.tag + ('[%d chunks]' % it.chunks if it.chunks >= 2 else '') +
                ('[SR=0]' if it.long else '') + ('[IL,0]' if it.il_empty else '')
                for it in items)
            out.write(json.dumps({'hex': octets.hex(), 'expected': expected,
                                  'desc': desc}) + '\n')
    missing = [c for c in range(36) if c not in prefix_codes]
    assert not missing, 'URI prefix codes not covered: %r' % missing
    summary = {'stats': dict(stats), 'kinds': dict(sorted(kinds.items())),
               'uri_prefix_codes': dict(sorted(prefix_codes.items()))}
    with open(os.path.join(args.out, 'summary.json'), 'w') as f:
        json.dump(summary, f, indent=1)
    if not args.quiet:
        for k, v in stats.items():
            print('%-34s %d' % (k, v))
        for k, v in sorted(kinds.items()):
            print('  kind %-40s %d' % (k, v))
        print('corpus: %d messages written to %s' % (stats['messages'], path))


if __name__ == '__main__':
    sys.exit(main())
