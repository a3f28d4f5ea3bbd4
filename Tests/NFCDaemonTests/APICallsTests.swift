import DBusValues
import NFCBusAPI
@testable import NFCDaemon
import Systemd
import Testing

/// Decoding the API's method calls without a bus: what the fuzz target `options` found, kept.
@Suite struct APICallsTests {
    static func register(_ options: [String: DBusValue]) -> Result<DaemonRequest, APICalls.Refusal> {
        APICalls.request(path: ScannerAPI.path, interface: ScannerAPI.interface, member: "RegisterHandler",
                         signature: "oa{sv}", arguments: [.objectPath("/org/example/Handler"), .vardict(options)])
    }

    static func startSession(_ options: [String: DBusValue]) -> Result<DaemonRequest, APICalls.Refusal> {
        APICalls.request(path: ScannerAPI.path, interface: ScannerAPI.interface, member: "StartScanSession",
                         signature: "a{sv}", arguments: [.vardict(options)])
    }

    /// Found by fuzzing: with several faults, the one named followed the dictionary's order, which
    /// differs from one dictionary to the next, so the same call got different answers.
    @Test func aCallWithSeveralFaultsAlwaysGetsTheSameAnswer() {
        for _ in 0..<50 {
            let filter: [String: DBusValue] = ["uri-scheme": .boolean(true), "uri-host": .int32(1), "uri-path-prefix": .uint32(2),
                                               "media-type": .byte(3), "external-type": .double(4), "android-package": .int64(5)]
            #expect(Self.register(["app-name": .string("Posters"), "filters": .array(elementSignature: "a{sv}", [.vardict(filter)])])
                == .failure(.init(name: ScannerAPI.ErrorName.invalidArgs, message: "filter 0: \"android-package\" must be a string")))
            #expect(Self.startSession(["timeout": .string("1"), "multiple": .string("yes"), "object": .boolean(true),
                                       "language": .int32(0), "alert-message": .int32(0), "colour": .string("red")])
                == .failure(.init(name: ScannerAPI.ErrorName.invalidArgs, message: "option \"alert-message\" must be a string (s)")))
        }
    }

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
