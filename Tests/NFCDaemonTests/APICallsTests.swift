@testable import NFCDaemon
import Systemd
import Testing

/// Decoding the API's method calls without a bus.
@Suite struct APICallsTests {
    @Test func argumentsThatDisagreeWithTheSignatureAreRefusedNotATrap() {
        let sessionPath = ScannerAPI.sessionsPath + "/1"
        #expect(APICalls.request(path: sessionPath, interface: ObjectTree.properties, member: "Set", signature: "ssv", arguments: [])
            == .failure(.init(name: ScannerAPI.ErrorName.invalidArgs, message: "AlertMessage is a string (s)")))
        #expect(APICalls.request(path: ScannerAPI.path, interface: ScannerAPI.interface, member: "Inhibit", signature: "sss",
                                 arguments: [.string("background")])
            == .failure(.init(name: ScannerAPI.ErrorName.invalidArgs, message: "Inhibit takes what, who and why (sss)")))
        #expect(APICalls.request(path: sessionPath + "0", interface: ScannerAPI.sessionInterface, member: "Frob", signature: "", arguments: [])
            == .failure(.init(name: BusMethodCall.unknownMethod,
                              message: "org.nfcscan.ScanSession1.Frob is not a method of \(sessionPath)0")))
        #expect(APICalls.request(path: sessionPath, interface: ScannerAPI.sessionInterface, member: "Invalidate", signature: "s",
                                 arguments: [.string("Read failed")])
            == .success(.invalidate(session: 1, message: "Read failed")))
    }
}
