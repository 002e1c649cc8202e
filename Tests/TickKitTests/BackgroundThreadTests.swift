import Foundation
import Testing

@testable import TickSystem

/// `BackgroundThread`: a job runs once, on a thread of its own, and that
/// thread may run on every core the process may use (it is started away
/// from its starter's core, but not kept away from it).
@Suite struct BackgroundThreadTests {
    @Test func aJobRunsOnceOnAnotherThread() {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var runs = 0
        nonisolated(unsafe) var ranOnStarter = true
        let starter = pthread_self()
        BackgroundThread.start {
            runs += 1
            ranOnStarter = pthread_equal(pthread_self(), starter) != 0
            done.signal()
        }
        done.wait()
        #expect(runs == 1)
        #expect(!ranOnStarter)
        #expect(done.wait(timeout: .now() + .milliseconds(50)) == .timedOut, "the job ran twice")
    }

    @Test func theThreadMayRunOnEveryCoreTheProcessMayUse() throws {
        let process = try #require(Self.allowedCores(of: "/proc/self/status"))
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var thread: String?
        BackgroundThread.start {
            thread = Self.allowedCores(of: "/proc/thread-self/status")
            done.signal()
        }
        done.wait()
        #expect(thread == process)
    }

    /// The `Cpus_allowed_list` line of a `status` file of /proc (Linux).
    private static func allowedCores(of path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let status = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        return status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }.map(String.init)
    }
}
