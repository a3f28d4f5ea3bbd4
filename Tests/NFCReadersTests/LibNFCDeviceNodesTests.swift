import Foundation
@testable import NFCReaders
import Testing

/// What makes the libnfc hotplug watch list devices again: its nodes and the known USB readers
/// changing, not any USB device coming and going.
@Suite struct LibNFCDeviceNodesTests {
    @Test func aSerialNodeAppearingChangingOrMadeAgainCountsAndOtherFilesDoNot() throws {
        let (root, probe) = try USBReaderProbeTests.tree(driver: nil)
        defer { try? FileManager.default.removeItem(at: root) }
        let node = root.appendingPathComponent("pn532").path, target = root.appendingPathComponent("pts0").path
        let nodes = LibNFCDeviceNodes(paths: [node], probe: probe)
        let none = nodes.state()
        #expect(none.nodes == [nil])
        #expect(none.usb.count == 1, "the fake tree's ACR122U")
        FileManager.default.createFile(atPath: target, contents: nil)
        try FileManager.default.createSymbolicLink(atPath: node, withDestinationPath: target)
        let there = nodes.state()
        #expect(there != none)
        FileManager.default.createFile(atPath: root.appendingPathComponent("unrelated").path, contents: nil)
        #expect(nodes.state() == there, "another file")
        chmod(target, 0o600)
        let restricted = nodes.state()
        #expect(restricted != there, "its permissions")
        // The link made again to the same node (a pseudo-terminal of the same number).
        try FileManager.default.removeItem(atPath: node)
        usleep(10_000)
        try FileManager.default.createSymbolicLink(atPath: node, withDestinationPath: target)
        #expect(nodes.state() != restricted)
    }

    @Test func onlyKnownUSBReadersCount() throws {
        let (root, probe) = try USBReaderProbeTests.tree(driver: nil)
        defer { try? FileManager.default.removeItem(at: root) }
        let nodes = LibNFCDeviceNodes(paths: [], probe: probe)
        let before = nodes.state()
        // A mouse on the same bus: sysfs and a usbfs node, but no reader.
        let mouse = root.appendingPathComponent("sys/1-3")
        try FileManager.default.createDirectory(at: mouse, withIntermediateDirectories: true)
        for (name, value) in [("idVendor", "046d"), ("idProduct", "c077"), ("busnum", "1"), ("devnum", "8")] {
            try Data((value + "\n").utf8).write(to: mouse.appendingPathComponent(name))
        }
        FileManager.default.createFile(atPath: root.appendingPathComponent("dev/001/008").path, contents: nil)
        #expect(nodes.state() == before)
        // The reader's node no longer open to this user (udev's rule not applied yet).
        chmod(root.appendingPathComponent("dev/001/007").path, 0o000)
        if getuid() != 0 { #expect(nodes.state() != before) }
        try FileManager.default.removeItem(at: root.appendingPathComponent("sys/1-2"))
        #expect(nodes.state().usb.isEmpty, "the reader unplugged")
    }
}
