import NDEF
import TestSupport
import Testing

func parse(_ text: String, mode: NDEFParser.Mode = .strict) throws(NDEFError) -> NDEFParser.Result {
    try NDEFParser(mode: mode).parse(hex(text))
}

/// The error of type `E` thrown by `body`, or nil when it throws nothing. Any other error fails the test.
func thrown<E: Error>(_ type: E.Type, _ body: () throws -> Void) -> E? {
    do {
        try body()
        return nil
    } catch let error as E {
        return error
    } catch {
        Issue.record("unexpected error \(error)")
        return nil
    }
}

func error(_ body: () throws -> Void) -> NDEFError? { thrown(NDEFError.self, body) }
func encodingError(_ body: () throws -> Void) -> NDEFEncodingError? { thrown(NDEFEncodingError.self, body) }
func tlvError(_ body: () throws -> Void) -> TLVError? { thrown(TLVError.self, body) }
func ccError(_ body: () throws -> Void) -> CapabilityContainerError? { thrown(CapabilityContainerError.self, body) }
