import DBusValues
import Synchronization

/// The objects a service exports below one root path, with their properties: written once for
/// every object, so `org.freedesktop.DBus.Properties` (Get, GetAll, Set, PropertiesChanged),
/// `Introspectable` and the root's `ObjectManager` (GetManagedObjects, InterfacesAdded/Removed)
/// behave the same everywhere.
///
/// Reads are answered here, on the connection's thread, from the last published values: a
/// property read never waits for the service's own loop (which may be busy) nor for any peer.
/// Every other call (and a Set of a writable property) goes to the `calls` handler given to
/// ``serve(calls:)``.
///
/// An object with an `owner` is private to that connection (an app's scan session): others get
/// AccessDenied (Introspect excepted), it is not listed by the ObjectManager, and its signals are
/// sent to the owner alone.
public final class ObjectTree: Sendable {
    public struct Object: Sendable, Equatable {
        public var interface: String
        public var properties: [String: DBusValue]
        /// Properties a Set may change: the call goes to the service's handler to decide.
        public var writable: Set<String>
        /// What Introspect answers (the interface's XML document).
        public var introspection: String
        public var owner: String?

        public init(interface: String, properties: [String: DBusValue], writable: Set<String> = [],
                    introspection: String, owner: String? = nil) {
            self.interface = interface
            self.properties = properties
            self.writable = writable
            self.introspection = introspection
            self.owner = owner
        }
    }

    public static let properties = "org.freedesktop.DBus.Properties"
    public static let introspectable = "org.freedesktop.DBus.Introspectable"
    public static let objectManager = "org.freedesktop.DBus.ObjectManager"

    private let bus: BusConnection
    public let root: String
    private let objects = Mutex<[String: Object]>([:])

    public init(bus: BusConnection, root: String) {
        self.bus = bus
        self.root = root
    }

    /// Starts answering calls to the root and below; the subscription ends that.
    public func serve(calls: @escaping @Sendable (BusMethodCall) -> Void) throws(BusError) -> BusSubscription {
        try bus.exportSubtree(root) { [self] call in route(call, calls) }
    }

    /// Adds (or replaces) the object at `path`; announced by InterfacesAdded when it is public and
    /// below the root.
    public func publish(_ path: String, _ object: Object) {
        objects.withLock { $0[path] = object }
        if managed(path, object) {
            try? bus.emitSignal(path: root, interface: Self.objectManager, member: "InterfacesAdded",
                                [.objectPath(path), Self.interfaces(object)])
        }
    }

    /// Changes some properties of `path` and emits PropertiesChanged (to the owner alone when it has one).
    public func update(_ path: String, _ changed: [String: DBusValue]) {
        guard !changed.isEmpty, let object = objects.withLock({ objects -> Object? in
            guard objects[path] != nil else { return nil }
            objects[path]!.properties.merge(changed) { $1 }
            return objects[path]
        }) else { return }
        try? bus.emitSignal(path: path, interface: Self.properties, member: "PropertiesChanged",
                            [.string(object.interface), .vardict(changed), .strings([])], destination: object.owner)
    }

    /// Removes `path`; announced by InterfacesRemoved when it was public.
    public func remove(_ path: String) {
        guard let object = objects.withLock({ $0.removeValue(forKey: path) }) else { return }
        if managed(path, object) {
            try? bus.emitSignal(path: root, interface: Self.objectManager, member: "InterfacesRemoved",
                                [.objectPath(path), .strings([object.interface])])
        }
    }

    public func object(at path: String) -> Object? { objects.withLock { $0[path] } }

    private func managed(_ path: String, _ object: Object) -> Bool {
        object.owner == nil && path.hasPrefix(root + "/")
    }

    private static func interfaces(_ object: Object) -> DBusValue {
        .dictionary(keySignature: "s", valueSignature: "a{sv}",
                    [DBusDictEntry(.string(object.interface), .vardict(object.properties))])
    }

    private func route(_ call: BusMethodCall, _ calls: @Sendable (BusMethodCall) -> Void) {
        guard let object = object(at: call.path) else {
            return call.fail(BusMethodCall.unknownObject, "no object at \(call.path)")
        }
        if call.interface == Self.introspectable, call.member == "Introspect" {
            return call.reply([.string(object.introspection)])
        }
        if let owner = object.owner, call.sender != owner {
            return call.fail(BusMethodCall.accessDenied, "only the app that created \(call.path) may use it")
        }
        switch call.interface {
        case Self.properties: properties(call, object, calls)
        case Self.objectManager where call.path == root && call.member == "GetManagedObjects":
            let listed = objects.withLock { $0.filter { managed($0.key, $0.value) } }
            call.reply([.dictionary(keySignature: "o", valueSignature: "a{sa{sv}}", listed.sorted { $0.key < $1.key }.map {
                DBusDictEntry(.objectPath($0.key), Self.interfaces($0.value))
            })])
        default: calls(call)
        }
    }

    private func properties(_ call: BusMethodCall, _ object: Object, _ calls: @Sendable (BusMethodCall) -> Void) {
        let asked = call.arguments.first?.stringValue ?? ""
        switch call.member {
        case "GetAll" where call.signature == "s":
            call.reply([.vardict(asked == object.interface ? object.properties : [:])])
        case "Get" where call.signature == "ss":
            guard asked == object.interface, let name = call.arguments[1].stringValue, let value = object.properties[name] else {
                return call.fail(BusMethodCall.unknownProperty, "\(asked) has no property \(call.arguments[1].stringValue ?? "")")
            }
            call.reply([.variant(value)])
        case "Set" where call.signature == "ssv":
            guard asked == object.interface, let name = call.arguments[1].stringValue, object.writable.contains(name) else {
                let writable = object.writable.sorted().joined(separator: ", ")
                return call.fail(BusMethodCall.propertyReadOnly, writable.isEmpty
                                 ? "the properties of \(object.interface) are read-only"
                                 : "only \(writable) of \(object.interface) can be set")
            }
            calls(call)
        default:
            call.fail(BusMethodCall.invalidArgs, "Properties.\(call.member) with arguments (\(call.signature))")
        }
    }
}
