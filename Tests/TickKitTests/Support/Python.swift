import Foundation

/// Python's `icalendar` package, the real iCalendar parser the export tests
/// check against. `make test` installs it; when it is missing the tests try
/// `pip install icalendar` once, and skip only if that fails too.
enum PythonICalendar {
    static let isAvailable: Bool = {
        if canImport() { return true }
        for installer in [["python3", "-m", "pip", "install", "--quiet", "icalendar"], ["pip3", "install", "--quiet", "icalendar"]] {
            _ = try? run(installer, input: nil)
            if canImport() { return true }
        }
        FileHandle.standardError.write(Data("warning: skipping the iCalendar checks: pip could not install Python's icalendar\n".utf8))
        return false
    }()

    private static func canImport() -> Bool {
        (try? run(["python3", "-c", "import icalendar"], input: nil).status) == 0
    }

    /// Runs a command through /usr/bin/env with `input` on standard input.
    static func run(_ arguments: [String], input: Data?) throws -> (status: Int32, output: Data, error: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let inPipe = Pipe()
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardInput = inPipe
        process.standardOutput = outPipe
        process.standardError = errPipe
        try process.run()
        if let input { inPipe.fileHandleForWriting.write(input) }
        try inPipe.fileHandleForWriting.close()
        nonisolated(unsafe) var errorData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorData = errPipe.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let output = outPipe.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return (process.terminationStatus, output, errorData)
    }

    /// Parses calendar text with `icalendar` and returns each VTODO's
    /// properties as Python sees them (dates as ISO text, lists as arrays).
    static func parse(_ calendar: String) throws -> [[String: Any]] {
        let script = #"""
            import sys, json
            from icalendar import Calendar
            data = sys.stdin.buffer.read()
            calendar = Calendar.from_ical(data)
            assert calendar.name == "VCALENDAR", calendar.name
            result = []
            for todo in calendar.walk("VTODO"):
                entry = {}
                for key, value in todo.property_items(recursive=False):
                    if key in ("BEGIN", "END"):
                        continue
                    decoded = todo.decoded(key) if key not in ("CATEGORIES",) else None
                    if key == "CATEGORIES":
                        entry[key] = [str(c) for c in value.cats]
                    elif hasattr(decoded, "isoformat"):
                        entry[key] = decoded.isoformat()
                        entry[key + ";TYPE"] = type(decoded).__name__
                    elif isinstance(decoded, bytes):
                        entry[key] = decoded.decode("utf-8")
                    else:
                        entry[key] = str(decoded) if not isinstance(decoded, int) else decoded
                result.append(entry)
            print(json.dumps({"version": str(calendar.get("VERSION")), "prodid": str(calendar.get("PRODID")), "todos": result}))
            """#
        let result = try run(["python3", "-c", script], input: Data(calendar.utf8))
        guard result.status == 0 else {
            throw ParseFailure(message: String(decoding: result.error, as: UTF8.self))
        }
        let object = try JSONSerialization.jsonObject(with: result.output) as! [String: Any]
        return object["todos"] as! [[String: Any]]
    }

    struct ParseFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { "icalendar could not parse the export: \(message)" }
    }
}
