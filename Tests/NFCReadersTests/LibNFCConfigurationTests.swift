import Foundation
import NFCReaders
import Testing

/// The devices libnfc's configuration names, which the hotplug watch follows.
@Suite struct LibNFCConfigurationTests {
    @Test func connstringsAreReadAsLibNFCWritesThem() {
        let text = """
        # device.connstring = "pn532_uart:/dev/commented"
        allow_autoscan = true
        device.name = "microBuilder.eu"
          device.connstring = "pn532_uart:/dev/ttyUSB0"
        device.connstring=pn532_i2c:/dev/i2c-1
        device.optional = true
        device.connstring = ""
        """
        #expect(LibNFCConfiguration.connstrings(in: text) == ["pn532_uart:/dev/ttyUSB0", "pn532_i2c:/dev/i2c-1"])
        #expect(LibNFCConfiguration.connstrings(in: "device.connstring = \"" + String(repeating: "x", count: 2000) + "\"").isEmpty,
                "longer than libnfc's buffer")
    }

    @Test func theEnvironmentAndTheFilesCountAsNFCInitReadsThem() throws {
        let directory = NSTemporaryDirectory() + "libnfc-conf-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory + "/devices.d", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "device.connstring = \"pn532_uart:/dev/ttyS0\"\n".write(toFile: directory + "/libnfc.conf", atomically: true, encoding: .utf8)
        try "device.connstring = \"pn532_uart:/dev/ttyACM0\"\ndevice.optional = true\n"
            .write(toFile: directory + "/devices.d/b.conf", atomically: true, encoding: .utf8)
        try "device.connstring = \"arygon:/dev/ttyUSB1\"\n".write(toFile: directory + "/devices.d/a.conf", atomically: true, encoding: .utf8)
        try "device.connstring = \"pn532_uart:/dev/ignored\"\n".write(toFile: directory + "/devices.d/c.txt", atomically: true, encoding: .utf8)
        let none: (String) -> String? = { _ in nil }
        #expect(LibNFCConfiguration.current(directory: directory, environment: none).connstrings
                == ["pn532_uart:/dev/ttyS0", "arygon:/dev/ttyUSB1", "pn532_uart:/dev/ttyACM0"])
        let defaultDevice: (String) -> String? = { $0 == "LIBNFC_DEFAULT_DEVICE" ? "pn532_uart:/dev/default" : nil }
        #expect(LibNFCConfiguration.current(directory: directory, environment: defaultDevice).connstrings.first == "pn532_uart:/dev/default")
        let only: (String) -> String? = { $0 == "LIBNFC_DEVICE" ? "pn532_uart:/tmp/pn532" : nil }
        #expect(LibNFCConfiguration.current(directory: directory, environment: only).connstrings == ["pn532_uart:/tmp/pn532"])
        let empty: (String) -> String? = { $0 == "LIBNFC_DEVICE" ? "" : nil }
        #expect(LibNFCConfiguration.current(directory: directory, environment: empty).connstrings == [])
    }

    @Test func theNodesFollowedAreSerialOnes() {
        #expect(LibNFCReader.devicePath(of: "pn532_uart:/dev/ttyUSB0:115200") == "/dev/ttyUSB0")
        #expect(LibNFCReader.devicePath(of: "pn532_i2c:/dev/i2c-1") == "/dev/i2c-1")
        #expect(LibNFCReader.devicePath(of: "pn53x_usb:001:004") == nil, "USB: /dev/bus/usb is followed whole")
        #expect(LibNFCReader.devicePath(of: "pn532_uart:") == nil)
        #expect(LibNFCReader.devicePath(of: "") == nil)
    }
}
