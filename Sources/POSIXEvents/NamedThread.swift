#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one way this project starts a thread of its own: a detached POSIX thread with a name
/// (what `top -H`, `ps -L` and debuggers show) that runs `body` to its end. The poll loops and the
/// MQTT connection use it; everything else runs on Swift concurrency's executors.
public enum NamedThread {
    /// Starts `body` on a new thread named `name` (the kernel keeps 15 bytes of it). A thread that
    /// cannot be made is a resource exhaustion the process cannot run without: it traps, saying so.
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        let thread = ThreadBody(name: name, run: body)
        let context = Unmanaged.passRetained(thread).toOpaque()
        var handle = pthread_t()
        let result = pthread_create(&handle, &attributes, { context in
            let body = Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue()
            NamedThread.nameThisThread(body.name)
            body.run()
            return nil
        }, context)
        if result != 0 {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            fatalError("no thread for \(name): \(String(cString: strerror(result)))")
        }
        pthread_detach(handle)
    }

    /// Names the calling thread through /proc/thread-self/comm: Glibc's `pthread_setname_np` is
    /// not visible to Swift.
    static func nameThisThread(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = write(fd, bytes, bytes.count)
        close(fd)
    }
}

private final class ThreadBody: Sendable {
    let name: String
    let run: @Sendable () -> Void
    init(name: String, run: @escaping @Sendable () -> Void) {
        self.name = name
        self.run = run
    }
}
