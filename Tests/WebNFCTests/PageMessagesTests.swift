import AppIdentity
import Testing
@testable import WebNFC

/// The extension's messages as the host reads them, and the host's events as the extension reads
/// them (browser-extension/PROTOCOL.md).
@Suite struct PageMessagesTests {
    func request(_ json: String) throws -> PageRequest { try PageRequest(json: Array(json.utf8)) }

    @Test func requestsOfTheProtocol() throws {
        #expect(try request(#"{"op":"hello","origin":"https://example.com","language":"en-US"}"#)
            == .hello(origin: WebOrigin("https://example.com")!, language: "en-US"))
        #expect(try request(#"{"op":"focus","active":false,"visible":true}"#) == .focus(active: false, visible: true))
        #expect(try request(#"{"op":"focus","active":true}"#) == .focus(active: true, visible: true), "an older bridge: active for both")
        #expect(try request(#"{"op":"scan","id":9007199254740991}"#) == .scan(id: PageRequest.maximumID))
        #expect(try request(#"{"op":"write","id":2,"records":[{"recordType":"unknown","data":"AAE="}]}"#)
            == .write(id: 2, records: [WebRecord(recordType: "unknown", data: [0, 1])], overwrite: true))
        #expect(try request(#"{"op":"cancel","id":3}"#) == .cancel(id: 3))
    }

    @Test func whatTheProtocolDoesNotSayIsRefused() {
        for json in [#"{"op":"hello","origin":"http://example.com"}"#, #"{"op":"hello"}"#, #"{"op":"scan"}"#,
                     #"{"op":"scan","id":0}"#, #"{"op":"scan","id":9007199254740992}"#, #"{"op":"scan","id":1.5}"#,
                     #"{"op":"write","id":1}"#, #"{"op":"write","id":1,"records":[{"recordType":"x","data":"%%"}]}"#,
                     #"{"op":"format","id":1}"#, #"{"op":"focus"}"#, "[]", "", "{", #"{"op":1}"#] {
            #expect(throws: PageRequest.Malformed.self, "\(json)") { try request(json) }
        }
    }

    @Test func eventsAreWhatTheExtensionReads() {
        #expect(String(decoding: PageEvent.started(id: 1).json(), as: UTF8.self) == #"{"event":"started","id":1}"#)
        #expect(String(decoding: PageEvent.reading(id: 1, serialNumber: nil, records: []).json(), as: UTF8.self)
            == #"{"event":"reading","id":1,"message":{"records":[]},"serialNumber":null}"#)
        #expect(String(decoding: PageEvent.error(id: 4, name: .notAllowed, message: "no").json(), as: UTF8.self)
            == #"{"event":"error","id":4,"message":"no","name":"NotAllowedError"}"#)
        let record = WebRecord(recordType: "text", encoding: "utf-8", lang: "en", data: Array("hi".utf8))
        #expect(String(decoding: PageEvent.reading(id: 2, serialNumber: "04:a1", records: [record]).json(), as: UTF8.self)
            == #"{"event":"reading","id":2,"message":{"records":[{"data":"aGk=","encoding":"utf-8","id":null,"lang":"en","mediaType":null,"recordType":"text","records":null}]},"serialNumber":"04:a1"}"#)
    }

    @Test func aReadingTooLargeForTheBrowserBecomesAReadingError() {
        let big = WebRecord(recordType: "unknown", data: [UInt8](repeating: 7, count: PageEvent.maximumLength))
        #expect(PageEvent.reading(id: 5, serialNumber: nil, records: [big]).json() == PageEvent.readingError(id: 5).json())
    }
}
