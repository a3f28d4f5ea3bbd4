import NDEF

/// What makes an object's message afresh on each read, as an NTAG 424 DNA mirrors its UID, read
/// counter and MAC into its link (secure dynamic messages): ``VirtualType4Tag`` asks it each time
/// a reader selects the NDEF file.
public protocol DynamicMessage: Sendable {
    /// The message of the next read (the chip's counter one more); nil keeps the last one.
    mutating func next() -> NDEFMessage?
}
