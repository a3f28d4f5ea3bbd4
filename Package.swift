// swift-tools-version: 6.1
// nfcscan: reads the contactless chips on real-world objects through real readers on Linux.
// Data flows one way: reader backend → tag protocol → NDEF codec → detection → session | dispatcher.
// Each module below holds one layer; see Docs/architecture.md.
import PackageDescription

let package = Package(
    name: "nfcscan",
    products: [
        .library(name: "NDEF", targets: ["NDEF"]),
        .library(name: "NDEFReport", targets: ["NDEFReport"]),
        .library(name: "NFCTags", targets: ["NFCTags"]),
        .library(name: "NFCSim", targets: ["NFCSim"]),
        .executable(name: "nfcscan", targets: ["nfcscan"]),
        .executable(name: "nfcscand", targets: ["nfcscand"]),
        .executable(name: "nfcscan-sheet", targets: ["nfcscan-sheet"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
    ],
    targets: [
        // C interop: one system-library module per C library, found through pkg-config.
        .systemLibrary(name: "CLibNFC", path: "CNFC/CLibNFC", pkgConfig: "libnfc",
                       providers: [.apt(["libnfc-dev"])]),
        .systemLibrary(name: "CPCSCLite", path: "CNFC/CPCSCLite", pkgConfig: "libpcsclite",
                       providers: [.apt(["libpcsclite-dev"])]),
        .systemLibrary(name: "CSystemd", path: "CNFC/CSystemd", pkgConfig: "libsystemd",
                       providers: [.apt(["libsystemd-dev"])]),
        // Not linked: opened on first use (CNFC/CMosquitto/shim.h says why).
        .systemLibrary(name: "CMosquitto", path: "CNFC/CMosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // OpenSSL's libcrypto, for authenticity checks (LibCrypto): ECDSA on NXP's curves, AES, CMAC, X.509.
        .systemLibrary(name: "COpenSSL", path: "CNFC/COpenSSL", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),
        // glibc's mallopt, for nfcscand's memory to go back after a hostile caller's message.
        .systemLibrary(name: "CMalloc", path: "CNFC/CMalloc"),
        // glibc's libintl (dgettext, bindtextdomain), which Swift's Glibc module leaves out: the
        // copy catalogs' lookups (NFCCopy's Gettext); part of libc, no library to link.
        .systemLibrary(name: "CIntl", path: "CNFC/CIntl"),
        // GTK 4 and libadwaita, for the scan sheet's own program only (nfcscan-sheet): nfcscan and
        // nfcscand never link a toolkit.
        .systemLibrary(name: "CAdwaita", path: "CNFC/CAdwaita", pkgConfig: "libadwaita-1",
                       providers: [.apt(["libadwaita-1-dev"])]),

        // The one poll-and-wake loop (a thread in poll(2) on owned descriptors): Glibc and swift-system only.
        .target(name: "POSIXEvents", dependencies: [.product(name: "SystemPackage", package: "swift-system")]),

        // The NDEF codec: standard library only.
        .target(name: "NDEF"),
        // A transport-neutral tree of a decoded message (the JSON schema in Docs/json-schema.md).
        .target(name: "NDEFReport", dependencies: ["NDEF"]),
        // Tag protocols (Type 2, Type 4) over the TagTransport byte seam; standard library only.
        .target(name: "NFCTags", dependencies: ["NDEF"]),
        // Virtual objects answering commands as the real chips do, and an in-process transport.
        .target(name: "NFCSim", dependencies: [
            "NDEF", "NFCTags", "POSIXEvents", .product(name: "SystemPackage", package: "swift-system"),
        ]),
        // Is this object genuine? Originality signatures, signed messages, tamper-evident links:
        // what is checked and what a result means, the cryptography behind seams; pure.
        .target(name: "Authenticity", dependencies: ["NDEF", "NFCTags"]),
        // Thin Swift wrappers, one per C library; nothing above them sees a C pointer.
        // OpenSSL's libcrypto behind Authenticity's seams.
        .target(name: "LibCrypto", dependencies: ["COpenSSL", "Authenticity"]),
        .target(name: "LibNFC", dependencies: ["CLibNFC", "POSIXEvents"]),
        .target(name: "PCSC", dependencies: ["CPCSCLite"]),
        // An MQTT client connection (libmosquitto on its own thread, events as an AsyncStream).
        .target(name: "Mosquitto", dependencies: ["CMosquitto", "POSIXEvents"]),
        // The reader abstraction and its backends (libnfc, PC/SC); the TagTransport for a selected object.
        .target(name: "NFCReaders", dependencies: ["LibNFC", "PCSC", "NDEF", "NFCTags", "POSIXEvents"]),
        // Unbuffered whole-line output shared by the command-line tools.
        .target(name: "CommandLineIO"),
        // Every string a person reads, pure: the copy catalogs and their rules, content described
        // in plain words, why background reading pauses; no C library below it but glibc (its
        // libintl reads the translations: po/, installed as <localedir>/<lang>/LC_MESSAGES/nfcscan.mo).
        .target(name: "NFCCopy", dependencies: ["NDEF", "NDEFReport", "NFCTags", "CIntl"]),
        // What was read from an object (its report in one tree) and what to write to one: the
        // values the daemon's core decides on, pure.
        .target(name: "NFCObjects", dependencies: ["NDEF", "NDEFReport", "NFCTags", "NFCCopy", "Authenticity"]),
        // Scanning for a person: a scan over every reader the backends see, reports and writes;
        // the daemon's Swift clients (scan and write sessions over D-Bus).
        .target(name: "NFCScanKit", dependencies: ["Authenticity", "LibCrypto", "NDEF", "NDEFReport", "NFCTags", "NFCReaders", "NFCCopy", "NFCObjects", "NFCBusAPI", "DBusValues", "Systemd"]),
        // D-Bus values as a value type: what the daemon's core builds and decodes, with no bus.
        .target(name: "DBusValues"),
        // The values nfcscand's D-Bus API shares with its clients: its names, a report as a{sv}.
        .target(name: "NFCBusAPI", dependencies: ["DBusValues", "NDEFReport", "NFCCopy"]),
        // What nfcscand's scan sheet shows and the lines its program and the daemon exchange; pure.
        .target(name: "ScanSheet"),
        // Web NFC for browsers (issue 22): the native messaging framing, the extension's messages,
        // records to NDEF and back, and what the web host decides for a page; pure.
        .target(name: "WebNFC", dependencies: ["NDEF", "NDEFReport", "AppIdentity"]),

        // libsystemd as Swift sees it: D-Bus values and an sd-bus connection, sd_notify, the journal.
        .target(name: "Systemd", dependencies: [
            "CSystemd", "POSIXEvents", "DBusValues", .product(name: "SystemPackage", package: "swift-system"),
        ]),
        // Desktop entries (Desktop Entry Specification): the file format, Exec lines and their field
        // codes, the XDG application directories; standard library and Glibc only.
        .target(name: "DesktopEntries"),
        // Who a D-Bus caller is, from its process (the unit it runs in, /.flatpak-info, its
        // executable) and its desktop entry: the resolver and the parsers of what it reads; pure.
        .target(name: "AppIdentity", dependencies: ["DesktopEntries", "NDEF"]),
        // What the daemon decides, free of any bus: app handlers and which one an object goes to,
        // and the notification offering it to the person.
        .target(name: "NFCDispatch", dependencies: ["NDEF", "NDEFReport", "NFCCopy", "DesktopEntries"]),
        // The background service: readers → dispatcher → notifications → app handlers, on D-Bus;
        // with [broker], each background object to an MQTT broker too.
        .target(name: "NFCDaemon", dependencies: [
            "Systemd", "CommandLineIO", "DBusValues", "NDEF", "NFCBusAPI", "NFCCopy", "NFCObjects", "NFCDispatch", "NFCScanKit", "NFCReaders", "NDEFReport", "POSIXEvents",
            "Mosquitto", "DesktopEntries", "ScanSheet", "AppIdentity",
            .product(name: "SystemPackage", package: "swift-system"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ], resources: [.embedInCode("dbus")]),
        // The three commands' command lines, as libraries: each has an executable of its own, and
        // nfcscan holds all three, the one binary the package installs behind three names.
        .target(name: "NFCScanDaemonCLI", dependencies: [
            "NFCDaemon", "NFCBusAPI", "NFCCopy", "Systemd", "DesktopEntries", "CMalloc",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .target(name: "NFCScanCLI", dependencies: [
            "NDEF", "NDEFReport", "NFCTags", "NFCReaders", "NFCCopy", "NFCObjects", "NFCScanKit", "CommandLineIO", "DBusValues", "NFCBusAPI", "Systemd",
            "AppIdentity", "Authenticity", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // nfcscan's web host (nfcscan-webnfc-host): one page's scans and writes as nfcscand sessions.
        .target(name: "WebNFCHost", dependencies: [
            "WebNFC", "NFCScanKit", "NFCObjects", "NFCCopy", "Systemd", "POSIXEvents",
            .product(name: "SystemPackage", package: "swift-system"),
        ]),
        .target(name: "NFCSimCLI", dependencies: [
            "NDEF", "NFCTags", "NFCSim", "CommandLineIO", "Authenticity", "LibCrypto",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "nfcscan", dependencies: ["NFCScanCLI", "NFCScanDaemonCLI", "NFCSimCLI", "WebNFCHost"]),
        .executableTarget(name: "nfcscand", dependencies: ["NFCScanDaemonCLI"]),
        // The scan sheet's window, a process of its own that nfcscand starts and feeds views
        // (ScanSheet's lines on its stdin); not part of the nfcscan binary, which never links GTK.
        .executableTarget(name: "nfcscan-sheet", dependencies: ["ScanSheet", "CAdwaita"]),
        .executableTarget(name: "ndef-bench", dependencies: ["NDEF"], path: "Benchmarks/ndef-bench"),
        // The figures of a station publishing to an MQTT broker (Benchmarks/broker-bench.sh).
        .executableTarget(name: "broker-bench", dependencies: [
            "NFCDaemon", "Mosquitto", "NDEFReport",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ], path: "Benchmarks/broker-bench"),
        // Virtual readers with virtual objects for real reader software (a PN532 for libnfc).
        .executableTarget(name: "nfcsim", dependencies: ["NFCSimCLI"]),

        .testTarget(name: "NDEFTests", dependencies: [
            "NDEF", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        .testTarget(name: "POSIXEventsTests", dependencies: [
            "POSIXEvents", .product(name: "SystemPackage", package: "swift-system"),
        ]),
        .testTarget(name: "NDEFReportTests", dependencies: ["NDEF", "NDEFReport"]),
        .testTarget(name: "LibNFCTests", dependencies: ["LibNFC", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["NDEF", "TestSupport"]),
        .testTarget(name: "NFCTagsTests", dependencies: [
            "NDEF", "NFCTags", "NFCSim", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        // The dump formats nfcsim --dump reads: parsing, the chips they make, hostile files.
        .testTarget(name: "NFCSimDumpTests", dependencies: ["NDEF", "NFCTags", "NFCSim", "TestSupport"]),
        .testTarget(name: "NFCSimPN532Tests", dependencies: ["NDEF", "NFCTags", "NFCSim", "TestSupport"]),
        .testTarget(name: "NFCSimVPCDTests", dependencies: ["NDEF", "NFCTags", "NFCSim", "TestSupport"],
                    exclude: ["pcsc_apdu.py"]),
        // One PC/SC check per process for PCSCReadersTests (the client library reads the socket once).
        .executableTarget(name: "pcsc-readers-probe", dependencies: ["NDEF", "PCSC", "NFCTags", "NFCReaders"],
                          path: "Tests/PCSCReadersProbe"),
        .testTarget(name: "PCSCReadersTests", dependencies: ["NDEF", "NFCTags", "NFCSim", "PCSC", "NFCReaders", "TestSupport"]),
        .testTarget(name: "NFCReadersTests", dependencies: ["NDEF", "NFCTags", "NFCSim", "LibNFC", "NFCReaders", "TestSupport"]),
        // The test rigs, written once: a private dbus-daemon, a private pcscd, a private MQTT broker, simulated readers holding virtual
        // objects (in process, or a PN532 on a pseudo-terminal), bounded runs of built and installed programs.
        .target(name: "TestSupport", dependencies: ["NFCSim", "NFCReaders", "LibNFC", "NFCTags", "NDEF", "Mosquitto"], path: "Tests/TestSupport"),
        .testTarget(name: "SystemdTests", dependencies: ["Systemd", "DBusValues", "TestSupport"]),
        .testTarget(name: "MosquittoTests", dependencies: ["Mosquitto", "TestSupport"]),
        .testTarget(name: "NFCDaemonTests", dependencies: [
            "NFCDaemon", "Systemd", "DBusValues", "NFCBusAPI", "NFCCopy", "NFCObjects", "NDEF", "NDEFReport", "NFCTags", "NFCReaders", "NFCDispatch",
            "NFCScanKit", "TestSupport", "POSIXEvents",
            "Mosquitto", "DesktopEntries", "AppIdentity", "Authenticity",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .testTarget(name: "AuthenticityTests", dependencies: ["Authenticity", "LibCrypto", "NDEF", "NFCTags", "NFCSim", "TestSupport",
                                                          .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "AppIdentityTests", dependencies: ["AppIdentity", "DesktopEntries"]),
        .testTarget(name: "WebNFCTests", dependencies: ["WebNFC", "AppIdentity", "NDEF", "NDEFReport", "TestSupport"]),
        .testTarget(name: "NFCDispatchTests", dependencies: ["NFCDispatch", "NDEF", "NDEFReport", "NFCCopy", "DesktopEntries"]),
        .testTarget(name: "NFCScanCLITests", dependencies: ["Authenticity", "NDEF", "NDEFReport", "NFCTags", "NFCSim", "NFCCopy", "NFCObjects", "NFCScanKit", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
