/// The seam between tag protocols and reader backends: raw command frames in, raw responses out.
///
/// Tag protocols (``Type2Tag``, ``Type4Tag``) are written once against this protocol; the libnfc
/// and PC/SC backends and the in-process simulator implement it. The backend owns everything
/// below the command layer (CRC, parity, ISO 14443-4 block framing, PC/SC pseudo-APDU mapping),
/// so a protocol sees the bytes its specification describes and nothing else.
///
/// A 4-bit ACK/NAK (Type 2 chips answer errors with 4 bits, not a frame) arrives as a one-byte
/// response holding those bits in its low nibble: no data response of a Type 2 command is one
/// byte long, so protocols can tell them apart.
///
/// MIFARE Classic (``MifareClassicTag``) travels as the frames libnfc gives a PN53x in
/// InDataExchange: AUTHENTICATE `60|61 BB <6-byte key> <last 4 UID bytes>` (the reader runs
/// the authentication and Crypto1; success is an empty response, a refused key a one-byte NAK),
/// READ `30 BB` (16 bytes, or a one-byte NAK when the sector is not authenticated) and WRITE
/// `A0 BB <16 bytes>` (the PN53x runs MIFARE WRITE's two ACKed phases itself: success is an
/// empty response, a refusal a one-byte NAK). A PC/SC backend maps AUTHENTICATE to LOAD KEYS
/// `FF 82 00 00 06 <key>` + GENERAL AUTHENTICATE `FF 86 00 00 05 01 00 BB 60|61 00`, READ to
/// `FF B0 00 BB 10` and WRITE to UPDATE BINARY `FF D6 00 BB 10 <16 bytes>`. ISO 15693 (``Type5Tag``)
/// travels as request flags, command and parameters without CRC; responses start with their
/// flags byte. A PC/SC backend maps READ SINGLE BLOCK `02 20 BB` to `FF B0 00 BB 00`, WRITE
/// SINGLE BLOCK `02 21 BB data` to `FF D6 00 BB Lc data` and INVENTORY to GET DATA `FF CA`;
/// libnfc cannot reach ISO 15693 at all (PN53x chips have no such radio).
///
/// Framing per platform, as the frames cross this seam:
/// - Type 2: the chip's command bytes (`30 PP`, `60`, `3A SS EE`, `3C 00`), no CRC_A.
/// - Type 4: command APDUs; responses end with SW1 SW2.
/// - Type 3 (NFC-F): the whole FeliCa frame from its length byte on — `LEN CMD IDm params…`,
///   LEN counting itself — and the response likewise (`LEN 07 IDm SF1 SF2 …` for Check); no
///   preamble, sync code or CRC. This is exactly what libnfc's `nfc_initiator_transceive_bytes`
///   (PN53x InDataExchange) takes and returns for a FeliCa target (``FeliCaFrame``).
/// - Type 1 (Topaz/Jewel): the short form a PN53x takes — command code, then ADD and DATA where
///   the command has them (`78`, `00`, `10 ADDS`); the reader adds the zero padding, the UID echo
///   and CRC_B. Responses carry no CRC; the address echo of READ/READ8/RSEG may be dropped (a
///   PN53x drops it) or kept (``Type1Command``).
public protocol TagTransport: Sendable {
    /// What the link can carry. Protocols size and choose their commands from it.
    var capabilities: LinkCapabilities { get }

    /// Sends one command frame and returns the object's response frame.
    func transceive(_ command: [UInt8]) async throws(TransportError) -> [UInt8]

    /// Wakes and selects the same object again after it fell silent.
    ///
    /// Type 2 chips go to IDLE after a NAK or a command they do not know (a plain Ultralight on
    /// GET_VERSION) and answer nothing until re-selected; backends re-run activation (WUPA,
    /// anticollision, SELECT). Throws ``TransportError/objectRemoved`` when the object is gone.
    func reactivate() async throws(TransportError)
}

/// What a reader link can carry, as far as tag protocols need to know.
public struct LinkCapabilities: Hashable, Sendable {
    /// Largest response frame the link delivers in one exchange, in bytes (status words included).
    /// A PN532 delivers at most 252 data bytes per InDataExchange; PC/SC readers usually 256 + 2.
    public var maxResponseLength: Int
    /// Whether NXP's own Type 2 commands (GET_VERSION 0x60, FAST_READ 0x3A, READ_SIG 0x3C) reach the chip.
    /// A PC/SC Part 3 storage-card link maps only READ (FF B0), so protocols fall back to READ
    /// and to the capability container for the size.
    public var passesType2Extensions: Bool
    /// Whether ISO 7816-4 extended-length APDUs (3-byte Le) reach the object.
    public var extendedLengthAPDUs: Bool

    public init(maxResponseLength: Int, passesType2Extensions: Bool, extendedLengthAPDUs: Bool) {
        self.maxResponseLength = maxResponseLength
        self.passesType2Extensions = passesType2Extensions
        self.extendedLengthAPDUs = extendedLengthAPDUs
    }

    /// A link without limits of its own (the in-process simulator by default).
    public static let unrestricted = LinkCapabilities(maxResponseLength: 65_538, passesType2Extensions: true,
                                                      extendedLengthAPDUs: true)
}
