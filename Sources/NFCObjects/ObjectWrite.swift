import NDEF
import NFCCopy
import NFCTags

/// One write asked of the next object to arrive, as every face runs it: the message (or erase),
/// formatting and password as ``WriteOptions`` carry them, and locking only after the write was
/// verified and only when asked. Values only: the faces (nfcscand's write session, `nfcscan
/// write`) check their input into one of these (``WriteInput``), then ``run(on:)`` does the I/O.
public struct ObjectWrite: Sendable, Equatable {
    /// The encoded NDEF message to write; empty: erase (an empty NDEF message stays); nil: only
    /// lock what the object holds.
    public var message: [UInt8]?
    public var options: WriteOptions
    /// Make the object read-only after the verified write: irreversible, so never implied.
    public var lock: Bool
    /// What the person asked for, as the prompts and endings name it.
    public var action: WriteAction
    /// False: write only to an object that holds no message (blank, or an empty message); one
    /// that holds records ends ``WriteEnding/notEmpty``, unchanged (Web NFC's `overwrite`).
    public var overwrite: Bool

    public init(message: [UInt8]?, options: WriteOptions = .init(), lock: Bool = false, action: WriteAction, overwrite: Bool = true) {
        self.overwrite = overwrite
        self.message = message
        self.options = options
        self.lock = lock
        self.action = action
    }

    /// A message of one link record.
    public static func link(_ uri: String, options: WriteOptions = .init(), lock: Bool = false) -> ObjectWrite {
        ObjectWrite(message: NDEFMessage(URIRecord(uri: uri).record()).encoded(), options: options, lock: lock, action: .save(.link))
    }

    /// A message of one text record; nil when `language` is not a language code a text record carries.
    public static func text(_ text: String, language: String = "en", options: WriteOptions = .init(), lock: Bool = false) -> ObjectWrite? {
        guard let record = try? TextRecord(text: text, language: language).record() else { return nil }
        return ObjectWrite(message: NDEFMessage(record).encoded(), options: options, lock: lock, action: .save(.text))
    }

    /// A link, a text, or both (two records, the link first, as `nfcscan write --uri --text`
    /// writes them); nil when neither is given or `language` is not a language code a text record carries.
    public static func records(link: String?, text: String?, language: String = "en", options: WriteOptions = .init(),
                               lock: Bool = false) -> ObjectWrite? {
        switch (link, text) {
        case (let link?, nil): return .link(link, options: options, lock: lock)
        case (nil, let text?): return .text(text, language: language, options: options, lock: lock)
        case (let link?, let text?):
            guard let record = try? TextRecord(text: text, language: language).record() else { return nil }
            return ObjectWrite(message: NDEFMessage(URIRecord(uri: link).record(), record).encoded(), options: options, lock: lock,
                               action: .save(.information))
        case (nil, nil): return nil
        }
    }

    /// The empty message.
    public static func erase(options: WriteOptions = .init(), lock: Bool = false) -> ObjectWrite {
        ObjectWrite(message: [], options: options, lock: lock, action: .erase)
    }

    /// What a message holds, as a prompt names it: one link, one text, or anything else.
    public static func subject(of message: NDEFMessage) -> WriteSubject {
        guard message.records.count == 1, let record = message.records.first else { return .information }
        if record.isWellKnown("U"), (try? URIRecord(payload: record.payload)) != nil { return .link }
        if record.isWellKnown("T"), (try? TextRecord(payload: record.payload)) != nil { return .text }
        return .information
    }

}

/// How one ``ObjectWrite`` ended.
public struct WriteResult: Sendable, Equatable {
    public var ending: WriteEnding
    /// The driver's error (for logs and reports); nil when done.
    public var error: TagWriteError?
    public var report: TagWriteReport?
    /// Whether the message was written and verified (it may be, and a lock after it fail).
    public var written: Bool
    /// Whether the object was made read-only.
    public var locked: Bool

    public init(ending: WriteEnding, error: TagWriteError? = nil, report: TagWriteReport? = nil, written: Bool = false, locked: Bool = false) {
        self.ending = ending
        self.error = error
        self.report = report
        self.written = written
        self.locked = locked
    }
}
