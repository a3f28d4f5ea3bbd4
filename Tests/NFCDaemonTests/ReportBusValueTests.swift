import DBusValues
import NDEFReport
import NFCBusAPI
import NFCDaemon
import Systemd
import Testing

/// What apps receive: the `--json` tree with D-Bus types they can rely on.
@Suite struct ReportBusValueTests {
    @Test func objectsArraysAndScalarsKeepTheirOrderAndTypes() {
        let report = ReportValue.object([
            .init("records", .array([.object([.init("kind", .string("uri")), .init("prefix_code", .int(4))])])),
            .init("chunked", .bool(false)),
        ])
        let expected = DBusValue.dictionary(keySignature: "s", valueSignature: "v", [
            DBusDictEntry(.string("records"), .variant(.array(elementSignature: "v", [
                .variant(.dictionary(keySignature: "s", valueSignature: "v", [
                    DBusDictEntry(.string("kind"), .variant(.string("uri"))),
                    DBusDictEntry(.string("prefix_code"), .variant(.int64(4))),
                ])),
            ]))),
            DBusDictEntry(.string("chunked"), .variant(.boolean(false))),
        ])
        #expect(report.busValue == expected)
        #expect(report.busValue.signature == "a{sv}")
    }
}
