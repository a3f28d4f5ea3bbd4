import LibNFC
import PCSC

/// Why a reader could not be used, with what to do about it.
///
/// The descriptions are for developers and administrators (logs, `--verbose`): they name
/// drivers, modules and files. Wording for the person holding the object belongs to the scan
/// tools, which map these cases to their own copy.
public enum ReaderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No reader was found. `searched` says where (the connstrings, libnfc's scan, pcscd).
    case noReaderFound(searched: String)
    /// A kernel driver holds the reader (the `pn533_usb` module binds PN533/ACR122-class USB
    /// readers for the kernel's own stack), so libnfc cannot claim it.
    case claimedByKernelDriver(reader: String, module: String)
    /// Another program holds the reader (usually pcscd with its CCID or ACS driver).
    case busy(reader: String)
    /// The device node exists but this user may not open it.
    case permissionDenied(path: String)
    /// libnfc could not open the reader and the system shows no reason.
    case openFailed(connstring: String)
    /// The reader stopped answering or went away (unplugged, serial line closed).
    case readerGone(reader: String, detail: String)
    /// Another libnfc failure, with libnfc's own code and text.
    case backend(LibNFCError)
    /// PC/SC: pcscd is not running, or its socket cannot be reached (SCARD_E_NO_SERVICE).
    case pcscdNotRunning(socket: String)
    /// PC/SC: another program holds this reader's card exclusively (SCARD_E_SHARING_VIOLATION).
    case heldExclusively(reader: String)
    /// PC/SC: pcscd refused this user (its polkit policy said no).
    case pcscAccessDenied(detail: String)
    /// Another PC/SC failure, with pcsc-lite's own code and text.
    case pcsc(PCSCError)

    /// The udev rule file shipped with the project (copied to /etc/udev/rules.d/ when installed).
    public static let udevRulesFile = "systemd/70-nfcscan-readers.rules"

    public var description: String {
        switch self {
        case .noReaderFound(let searched):
            """
            no contactless reader found (\(searched)). libnfc: connect \
            a USB reader (PN533, ACR122U, SCL3711), or name one: LIBNFC_DEVICE=pn532_uart:/dev/ttyUSB0, \
            or a device in /etc/nfc/libnfc.conf or /etc/nfc/devices.d/; libnfc scans USB only when \
            LIBNFC_AUTO_SCAN is not false, and serial readers must be named. PC/SC: pcscd must run \
            (`sudo systemctl start pcscd.socket`, Debian package pcscd; another pcscd's socket is \
            named in PCSCLITE_CSOCK_NAME) with the reader's driver; `pcsc_scan -r` lists what it sees.
            """
        case .claimedByKernelDriver(let reader, let module):
            """
            the reader \(reader) is claimed by the kernel module \(module), so libnfc cannot use it. \
            Unload it and keep it from loading again: `sudo rmmod \(module)` and \
            `echo 'blacklist \(module)' | sudo tee /etc/modprobe.d/nfcscan-blacklist-\(module).conf`, \
            then reconnect the reader.
            """
        case .busy(let reader):
            """
            the reader \(reader) is held by another program, usually pcscd (its CCID or ACS driver \
            claims the reader). Use the PC/SC backend for this reader, or stop pcscd to use it \
            through libnfc: `sudo systemctl stop pcscd.socket pcscd.service`.
            """
        case .permissionDenied(let path):
            """
            no permission to open \(path). Install the udev rule that gives the logged-in user access \
            to known readers: `sudo install -m 644 \(Self.udevRulesFile) /etc/udev/rules.d/ && \
            sudo udevadm control --reload && sudo udevadm trigger`, then reconnect the reader. \
            For a serial reader, add the user to the group owning \(path) (usually dialout).
            """
        case .openFailed(let connstring):
            "libnfc could not open \(connstring); run with LIBNFC_LOG_LEVEL=3 to see why"
        case .readerGone(let reader, let detail):
            "the reader \(reader) stopped answering (\(detail)); reconnect it"
        case .backend(let error):
            error.description
        case .pcscdNotRunning(let socket):
            """
            pcscd (the PC/SC daemon) is not running, or its socket \(socket) cannot be reached. \
            Start it: `sudo systemctl start pcscd.socket` (Debian package pcscd); a program \
            using another pcscd names its socket in PCSCLITE_CSOCK_NAME.
            """
        case .heldExclusively(let reader):
            """
            the reader \(reader) is held exclusively by another PC/SC program (pcscd answered \
            SCARD_E_SHARING_VIOLATION). Close the program that uses it (for example a \
            smart-card manager, gpg's scdaemon or a browser's security device), then try again.
            """
        case .pcscAccessDenied(let detail):
            """
            pcscd refused this user (\(detail)): its polkit policy allows local active sessions \
            only. Run from the desktop session, or allow the user with a polkit rule for the \
            actions org.debian.pcsc-lite.access_pcsc and org.debian.pcsc-lite.access_card.
            """
        case .pcsc(let error):
            "PC/SC: \(error)"
        }
    }
}
