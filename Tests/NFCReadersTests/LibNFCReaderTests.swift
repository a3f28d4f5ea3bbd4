import Foundation
import LibNFC
import NDEF
import NFCReaders
import NFCSim
import NFCTags
import Testing
import TestSupport

@Suite(.serialized) struct LibNFCReaderTests {
    static let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]

    static func message(for product: Type2Product) throws -> NDEFMessage {
        // Long enough on the larger chips to need several 252-byte frames and the 3-byte TLV length.
        let repeats = product == .ntag213 ? 3 : product == .ntag215 ? 25 : 50
        return NDEFMessage(URIRecord(uri: "https://example.com/poster").record(),
                           try TextRecord(text: String(repeating: "Summer concert. ", count: repeats)).record())
    }

    @Test(arguments: [Type2Product.ntag213, .ntag215, .ntag216])
    func readsAType2ObjectThroughLibnfc(product: Type2Product) async throws {
        let message = try Self.message(for: product)
        let tag = try VirtualType2Tag(product: product, uid: Self.uid, message: message)
        let emulated = try EmulatedPN532(PN532Emulator(target: tag.pn532Target))
        defer { emulated.close() }
        guard let arrival = try await LibNFCArrival.first(at: emulated.connstring, within: 5) else { return }
        let (reader, object) = (arrival.reader, arrival.object)
        #expect(reader.backend == .libnfc)
        #expect(reader.modulations.contains(.iso14443A))
        #expect(reader.status == .objectPresent)
        #expect(object.identifier == Self.uid)
        #expect(object.platform == .type2)
        #expect(object.technology == .iso14443A(atqa: [0x00, 0x44], sak: 0x00, ats: []))
        #expect(object.transport.capabilities.maxResponseLength == 252)
        let reading = try await object.readNDEF()
        #expect(reading.message == message)
        #expect(reading.uid == Self.uid)
        #expect(reading.product == product.name)
        print("libnfc \(product.name): \(reading.ndefBytes.count) bytes in \(reading.roundTrips) round trips")
        await reader.close()
        #expect(reader.status == .closed)
    }

    /// READ_SIG crosses the real libnfc (InDataExchange) and comes back as the chip's signature; a
    /// clone that refuses it (a NAK, which a PN53x reports as a failed exchange) is missing its
    /// signature, is selected again through libnfc, and its message still reads.
    @Test func theOriginalitySignatureCrossesLibnfc() async throws {
        let signature = (0..<32).map { UInt8(0xC0 ^ $0) }
        for signed in [true, false] {
            var tag = try VirtualType2Tag(product: .ntag213, uid: Self.uid, message: try Self.message(for: .ntag213))
            tag.signature = signed ? signature : nil
            let emulated = try EmulatedPN532(PN532Emulator(target: tag.pn532Target))
            defer { emulated.close() }
            guard let arrival = try await LibNFCArrival.first(at: emulated.connstring, within: 5) else { return }
            let reading = try await arrival.object.readNDEF()
            #expect(reading.message == (try Self.message(for: .ntag213)))
            #expect(reading.originality == (signed ? .signature(.ntag21x, signature) : .missing(.ntag21x)))
            print("libnfc NTAG213 \(signed ? "signed" : "refusing READ_SIG"): \(reading.roundTrips) round trips")
            await arrival.close()
        }
    }

    /// libnfc's drivers are one list for the process, and every `nfc_exit` empties it: a context
    /// ended while another lived left that one unable to open anything ("No driver available").
    @Test func aContextEndedBesideAnotherLeavesItAbleToOpen() async throws {
        let tag = try VirtualType2Tag(product: .ntag213, uid: Self.uid, message: try Self.message(for: .ntag213))
        let emulated = try EmulatedPN532(PN532Emulator(target: tag.pn532Target))
        defer { emulated.close() }
        let context = try LibNFCContext()
        do { _ = try LibNFCContext() }
        let reader = try await LibNFCReader.open(emulated.connstring, context: context)
        await reader.close()
    }

    @Test func readsAType4ObjectThroughLibnfc() async throws {
        let message = try Self.message(for: .ntag215)
        var tag = try VirtualType4Tag(message: message)
        tag.signature = (0..<56).map { UInt8($0) }
        let emulated = try EmulatedPN532(PN532Emulator(target: tag.pn532Target(uid: Self.uid)))
        defer { emulated.close() }
        guard let arrival = try await LibNFCArrival.first(at: emulated.connstring, within: 5) else { return }
        let object = arrival.object
        #expect(object.platform == .type4)
        #expect(object.technology == .iso14443A(atqa: [0x03, 0x44], sak: 0x20, ats: [0x75, 0x77, 0x81, 0x02, 0x80]))
        let reading = try await object.readNDEF()
        #expect(reading.message == message)
        #expect(reading.originality == .signature(.desfire, (0..<56).map { UInt8($0) }))
        await arrival.close()
    }

    @Test func anObjectRemovedMidReadIsMovedAwayTooSoon() async throws {
        let tag = try VirtualType2Tag(product: .ntag216, uid: Self.uid, message: try Self.message(for: .ntag216))
        let emulated = try EmulatedPN532(PN532Emulator(target: LeavesAfter(inner: tag.pn532Target, exchanges: 2)))
        defer { emulated.close() }
        guard var arrival = try await LibNFCArrival.first(at: emulated.connstring, within: 5) else { return }
        let object = arrival.object
        await #expect {
            _ = try await object.readNDEF()
        } throws: { error in
            if case TagReadError.objectRemoved = error { return true }
            return false
        }
        guard case .removed(let identifier)? = try await nextEvent(&arrival.events, within: 3, "removal") else {
            Issue.record("expected a removal"); await arrival.close(); return
        }
        #expect(identifier == Self.uid)
        // The old object's link stays dead.
        await #expect(throws: TransportError.objectRemoved) { _ = try await object.transport.transceive([0x30, 0x00]) }
        await arrival.close()
    }

    @Test func arrivalAndRemovalFollowTheObject() async throws {
        let tag = try VirtualType2Tag(product: .ntag213, uid: Self.uid, message: try Self.message(for: .ntag213))
        let start = ContinuousClock.now
        let arrival = start + .milliseconds(800), departure = start + .milliseconds(2300)
        let emulated = try EmulatedPN532(PN532Emulator(target: tag.pn532Target, arrival: arrival, departure: departure))
        defer { emulated.close() }
        guard var seen = try await LibNFCArrival.first(at: emulated.connstring, within: 5) else { return }
        let reader = seen.reader
        let arrived = ContinuousClock.now
        #expect(arrived >= arrival)
        #expect(arrived < arrival + .milliseconds(1500), "seen \(arrival.duration(to: arrived)) after it arrived")
        guard case .removed? = try await nextEvent(&seen.events, within: 5, "removal") else {
            Issue.record("expected a removal"); await reader.close(); return
        }
        let removed = ContinuousClock.now
        #expect(removed >= departure)
        #expect(removed < departure + .milliseconds(1000), "removal seen \(departure.duration(to: removed)) after it left")
        print("libnfc: arrival seen after \(arrival.duration(to: arrived)), removal after \(departure.duration(to: removed))")
        #expect(reader.status == .searching)
        let closing = ContinuousClock.now
        await reader.close()
        #expect(closing.duration(to: .now) < .seconds(2), "close ends the search within one bounded round")
    }

    /// No object: the search is paced by the chip's own poll (no busy loop). Measured as the
    /// whole test process's CPU time (reader, libnfc and the emulator together) over 3 s.
    @Test func anIdleReaderDoesNotSpin() async throws {
        let emulated = try EmulatedPN532(PN532Emulator(target: nil))
        defer { emulated.close() }
        let context = try LibNFCContext()
        let reader = try await LibNFCReader.open(emulated.connstring, context: context)
        let events = reader.events()
        let watcher = Task { for try await _ in events {} }
        try await Task.sleep(for: .milliseconds(300))
        func cpu() -> Double {
            var usage = rusage()
            getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        }
        let before = cpu(), start = ContinuousClock.now
        try await Task.sleep(for: .seconds(3))
        let wall = start.duration(to: .now), used = cpu() - before
        let share = used / (Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18)
        print("libnfc idle: \(used) s CPU in \(wall) = \(share * 100) % of one core (reader + libnfc + emulator)")
        #expect(share < 0.05, "an idle reader must not spin")
        let closing = ContinuousClock.now
        await reader.close()
        let closeTime = closing.duration(to: .now)
        print("libnfc close during a poll round: \(closeTime)")
        #expect(closeTime < .milliseconds(1500))
        _ = try await watcher.value
    }

    @Test func noDeviceAtTheConnstringIsNoReaderFound() async throws {
        let context = try LibNFCContext()
        let missing = "pn532_uart:/nonexistent/nfcscan-\(UUID().uuidString)"
        await #expect(throws: ReaderError.noReaderFound(searched: missing)) {
            _ = try await LibNFCReader.open(missing, context: context)
        }
        let message = ReaderError.noReaderFound(searched: missing).description
        #expect(message.contains("LIBNFC_DEVICE"))
    }

    @Test func aDeviceNodeThatIsNotAReaderFailsToOpen() async throws {
        // /dev/null opens, but nothing answers the wake-up: libnfc gives up after its Diagnose timeout.
        let context = try LibNFCContext()
        let start = ContinuousClock.now
        await #expect(throws: ReaderError.openFailed(connstring: "pn532_uart:/dev/null")) {
            _ = try await LibNFCReader.open("pn532_uart:/dev/null", context: context)
        }
        #expect(start.duration(to: .now) < .seconds(5))
    }
}

/// The USB diagnosis on a fake sysfs tree.
@Suite struct USBReaderProbeTests {
    static func tree(driver: String?) throws -> (root: URL, probe: USBReaderProbe) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("nfcscan-sysfs-\(UUID().uuidString)")
        let device = root.appendingPathComponent("sys/1-2")
        try FileManager.default.createDirectory(at: device.appendingPathComponent("1-2:1.0"), withIntermediateDirectories: true)
        for (name, value) in [("idVendor", "072f"), ("idProduct", "2200"), ("busnum", "1"), ("devnum", "7")] {
            try Data((value + "\n").utf8).write(to: device.appendingPathComponent(name))
        }
        if let driver {
            try FileManager.default.createSymbolicLink(atPath: device.appendingPathComponent("1-2:1.0/driver").path,
                                                       withDestinationPath: "../../../../bus/usb/drivers/\(driver)")
        }
        let usbfs = root.appendingPathComponent("dev")
        try FileManager.default.createDirectory(at: usbfs.appendingPathComponent("001"), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: usbfs.appendingPathComponent("001/007").path, contents: nil)
        return (root, USBReaderProbe(sysfsDevices: root.appendingPathComponent("sys").path, usbfs: usbfs.path))
    }

    @Test func aKernelModuleHoldingTheReaderIsNamedWithTheBlacklistAdvice() throws {
        let (root, probe) = try Self.tree(driver: "pn533_usb")
        defer { try? FileManager.default.removeItem(at: root) }
        let found = probe.scan()
        #expect(found.count == 1)
        #expect(found.first?.model.name == "ACS ACR122U")
        #expect(found.first?.devicePath == root.appendingPathComponent("dev/001/007").path)
        guard case .claimedByKernelDriver(let reader, let module)? = probe.problem() else {
            Issue.record("expected the kernel module"); return
        }
        #expect(module == "pn533_usb")
        #expect(reader.contains("072f:2200"))
        let advice = probe.problem()!.description
        #expect(advice.contains("echo 'blacklist pn533_usb' | sudo tee /etc/modprobe.d/"))
        #expect(advice.contains("rmmod pn533_usb"))
        // nfc_open on that bus address is explained the same way.
        #expect(LibNFCReader.diagnose(connstring: "pn53x_usb:001:007", probe: probe) == probe.problem())
    }

    @Test func aReaderHeldThroughUsbfsIsBusy() throws {
        let (root, probe) = try Self.tree(driver: "usbfs")
        defer { try? FileManager.default.removeItem(at: root) }
        guard case .busy? = probe.problem() else { Issue.record("expected busy"); return }
        #expect(probe.problem()!.description.contains("pcscd"))
    }

    @Test func aFreeReaderHasNoProblemAndANodeWithoutAccessIsPermissionDenied() throws {
        let (root, probe) = try Self.tree(driver: nil)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(probe.problem() == nil)
        var found = try #require(probe.scan().first)
        found.accessible = false
        #expect(found.problem == .permissionDenied(path: found.devicePath))
        #expect(found.problem!.description.contains("systemd/70-nfcscan-readers.rules"))
    }
}
