import CSystemCalls
import Dispatch

/// A job on a thread of its own that starts at once on another core
/// (`tick_thread_start_elsewhere`), and may then run on any: a job started
/// early, such as opening the parse cache while the command line is
/// parsed, is done before the work that needs it. Sent to a dispatch queue
/// instead, its new thread waited on the sending thread's core for up to 4
/// ms in about a third of runs, and then held a thread of the global queue
/// that `Parallel`'s next map waited for.
public enum BackgroundThread {
    /// Runs `job` on a new thread, or on the global queue when no thread
    /// can be started.
    public static func start(_ job: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Job(job)).toOpaque()
        let failed = tick_thread_start_elsewhere(
            { context in
                guard let context else { return }
                Unmanaged<Job>.fromOpaque(context).takeRetainedValue().run()
            }, context)
        if failed != 0 { DispatchQueue.global().async(execute: Unmanaged<Job>.fromOpaque(context).takeRetainedValue().run) }
    }

    private final class Job: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
