#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import NDEF

/// Looks for known USB readers in sysfs, to explain why libnfc found or opened none: a kernel
/// driver bound to the reader, another program holding it (usbfs), or a device node this user
/// may not open. The paths are parameters so tests can point it at a fake tree.
public struct USBReaderProbe: Sendable {
    /// A USB reader model libnfc drives (libnfc 1.8 pn53x_usb.c and acr122_usb.c).
    public struct Model: Hashable, Sendable {
        public var vendor: UInt16
        public var product: UInt16
        public var name: String
    }

    public static let knownModels: [Model] = [
        Model(vendor: 0x04CC, product: 0x0531, name: "Philips / NXP PN531"),
        Model(vendor: 0x04CC, product: 0x2533, name: "NXP PN533"),
        Model(vendor: 0x04E6, product: 0x5591, name: "SCM Micro SCL3711"),
        Model(vendor: 0x04E6, product: 0x5594, name: "SCM Micro SCL3712"),
        Model(vendor: 0x054C, product: 0x0193, name: "Sony PN531"),
        Model(vendor: 0x054C, product: 0x02E1, name: "Sony RC-S360 / S"),
        Model(vendor: 0x1FD3, product: 0x0608, name: "ASK LoGO"),
        Model(vendor: 0x072F, product: 0x2200, name: "ACS ACR122U"),
        Model(vendor: 0x072F, product: 0x90CC, name: "Touchatag (ACS ACR122U)"),
    ]

    /// A known reader found on the bus.
    public struct Found: Hashable, Sendable {
        public var model: Model
        /// The usbfs node libnfc opens, /dev/bus/usb/BBB/DDD.
        public var devicePath: String
        /// The driver bound to interface 0: a kernel module (`pn533_usb`), `usbfs` (a user-space
        /// program holds it), or nil (free).
        public var driver: String?
        /// Whether this user may open ``devicePath`` for reading and writing.
        public var accessible: Bool

        public var label: String {
            "\(model.name) (USB \(Hex.digits(model.vendor)):\(Hex.digits(model.product)) at \(devicePath))"
        }
        /// Why libnfc cannot use this reader, if the system shows a reason.
        public var problem: ReaderError? {
            if let driver, driver == "usbfs" { return .busy(reader: label) }
            if let driver { return .claimedByKernelDriver(reader: label, module: driver) }
            if !accessible { return .permissionDenied(path: devicePath) }
            return nil
        }
    }

    public var sysfsDevices: String
    public var usbfs: String

    public init(sysfsDevices: String = "/sys/bus/usb/devices", usbfs: String = "/dev/bus/usb") {
        self.sysfsDevices = sysfsDevices
        self.usbfs = usbfs
    }

    public func scan() -> [Found] {
        guard let directory = opendir(sysfsDevices) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix("."), !name.contains(":") { names.append(name) }
        }
        return names.sorted().compactMap { name in
            let base = "\(sysfsDevices)/\(name)"
            guard let vendor = Self.readHex(base + "/idVendor"), let product = Self.readHex(base + "/idProduct"),
                  let model = Self.knownModels.first(where: { $0.vendor == vendor && $0.product == product }),
                  let bus = Self.readText(base + "/busnum").flatMap({ Int($0) }),
                  let device = Self.readText(base + "/devnum").flatMap({ Int($0) }) else { return nil }
            let path = "\(usbfs)/\(Self.pad3(bus))/\(Self.pad3(device))"
            let driver = Self.linkName(base + "/\(name):1.0/driver")
            return Found(model: model, devicePath: path, driver: driver, accessible: access(path, R_OK | W_OK) == 0)
        }
    }

    /// The first reason a known reader cannot be used, if any.
    public func problem() -> ReaderError? {
        scan().lazy.compactMap(\.problem).first
    }

    static func pad3(_ n: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }

    static func readText(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, 64, file) != nil else { return nil }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.trimmingSpaces
    }

    static func readHex(_ path: String) -> UInt16? { readText(path).flatMap { UInt16($0, radix: 16) } }

    static func linkName(_ path: String) -> String? {
        var target = [CChar](repeating: 0, count: 4096)
        let n = readlink(path, &target, target.count - 1)
        guard n > 0 else { return nil }
        let full = String(decoding: target[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return full.split(separator: "/").last.map(String.init)
    }
}

extension StringProtocol {
    /// Without the spaces, tabs and line ends around it.
    var trimmingSpaces: String {
        let space: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        return String(self.drop(while: space).reversed().drop(while: space).reversed())
    }
}
