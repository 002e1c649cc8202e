#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Posix {
    /// The C library's function `name`, found at run time, as `Function`
    /// (a `@convention(c)` type): for the functions Glibc's Swift module
    /// does not declare. Nil where the C library has none (on Darwin, every
    /// one of them).
    private static func runTimeFunction<Function>(_ name: String, as _: Function.Type) -> Function? {
        #if canImport(Glibc)
            guard let symbol = dlsym(nil, name) else { return nil }
            return unsafeBitCast(symbol, to: Function.self)
        #else
            return nil
        #endif
    }

    private typealias ExchangeFunction = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// `renameat2(2)`, found at run time. Set once, then only read.
    private static let exchangeFunction = runTimeFunction("renameat2", as: ExchangeFunction.self)

    /// True when the C library can swap two names atomically (`exchange`).
    package static var canExchange: Bool { exchangeFunction != nil }

    /// Swaps the names `first` and `second` in the open `folder` atomically
    /// (`renameat2` with `RENAME_EXCHANGE`); false with `errno` set when it
    /// fails (`EINVAL`, `ENOSYS` or `EOPNOTSUPP` on a file system without
    /// exchange), or when the C library has no exchange (`canExchange`).
    package static func exchange(in folder: Int32, _ first: String, _ second: String) -> Bool {
        guard let exchange = exchangeFunction else {
            errno = ENOSYS
            return false
        }
        let renameExchange: UInt32 = 2 // RENAME_EXCHANGE
        return exchange(folder, first, folder, second, renameExchange) == 0
    }

    /// Copies every extended attribute of the open file `source` to the
    /// open file `target`, skipping those the user may not set (such as
    /// `security.*` for others than root). Does nothing where the C library
    /// has no `flistxattr` (Darwin's calls take other arguments and are not used).
    package static func copyExtendedAttributes(from source: Int32, to target: Int32) {
        guard let calls = AttributeCalls.shared else { return }
        let size = calls.list(source, nil, 0)
        guard size > 0 else { return }
        var names = [CChar](repeating: 0, count: size)
        let got = names.withUnsafeMutableBufferPointer { calls.list(source, $0.baseAddress, size) }
        guard got > 0 else { return }
        for name in names[..<got].split(separator: 0) {
            let key = Array(name) + [0]
            let length = calls.get(source, key, nil, 0)
            guard length >= 0 else { continue }
            var value = [UInt8](repeating: 0, count: max(length, 1))
            let read = value.withUnsafeMutableBytes { calls.get(source, key, $0.baseAddress, length) }
            guard read >= 0 else { continue }
            _ = value.withUnsafeBytes { calls.set(target, key, $0.baseAddress, read, 0) }
        }
    }

    /// `flistxattr`, `fgetxattr` and `fsetxattr`, found at run time (Glibc's
    /// Swift module does not declare them); nil where the C library has none.
    private struct AttributeCalls {
        typealias List = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int
        typealias Get = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
        typealias Set = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32) -> Int32
        var list: List
        var get: Get
        var set: Set

        /// Set once, then only read.
        static let shared: AttributeCalls? = {
            guard let list = runTimeFunction("flistxattr", as: List.self), let get = runTimeFunction("fgetxattr", as: Get.self),
                let set = runTimeFunction("fsetxattr", as: Set.self)
            else { return nil }
            return AttributeCalls(list: list, get: get, set: set)
        }()
    }
}

extension Posix {
    private typealias TrimFunction = @convention(c) (Int) -> Int32

    /// `malloc_trim(3)`, found at run time.
    private static let trimFunction = runTimeFunction("malloc_trim", as: TrimFunction.self)

    /// Gives the memory the C library holds freed back to the system, in
    /// every arena (`malloc_trim`): memory a worker thread allocated and
    /// another thread freed stays in the worker's arena otherwise. (On
    /// another core it took as long: it holds each arena's lock, and the
    /// allocations of what the command did next waited for them.)
    package static func giveBackFreedMemory() {
        _ = trimFunction?(0)
    }
}
