import Foundation
import Testing

@testable import TickModel

/// A real editor as the client: Neovim (Debian's `neovim`, which `make
/// test-deps` installs), headless, starts `tick lsp` with its own LSP
/// client, shows the diagnostics, asks for a code action, applies it with
/// its own workspace-edit code, and writes the buffer. The file must then
/// hold exactly what the matching tick command writes.
@Suite struct NeovimClientTests {
    static let neovim: String? = {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(folder)/nvim"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        FileHandle.standardError.write(
            Data("warning: skipping the Neovim client tests: nvim is not installed (make test-deps installs Debian's neovim)\n".utf8))
        return nil
    }()

    /// Drives Neovim: open FILE, attach tick lsp, wait for diagnostics,
    /// apply the code action titled TITLE on LINE (0-based), write.
    static let script = """
        local out = io.open(os.getenv('OUT'), 'w')
        local ok, err = pcall(function()
          vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('FILE')))
          local bufnr = vim.api.nvim_get_current_buf()
          local ready = false
          local id = vim.lsp.start_client({
            name = 'tick',
            cmd = { os.getenv('TICK'), 'lsp', '--today', '2026-11-21' },
            root_dir = os.getenv('ROOT'),
            on_init = function() ready = true end,
          })
          if not id then error('start_client failed') end
          vim.lsp.buf_attach_client(bufnr, id)
          if not vim.wait(10000, function() return ready end, 10) then error('no answer to initialize') end
          local client = vim.lsp.get_client_by_id(id)
          out:write('encoding ' .. tostring(client.offset_encoding) .. '\\n')
          if not vim.wait(10000, function() return #vim.diagnostic.get(bufnr) > 0 end, 10) then error('no diagnostics') end
          for _, d in ipairs(vim.diagnostic.get(bufnr)) do
            out:write(string.format('diagnostic %d:%d-%d:%d %s\\n', d.lnum, d.col, d.end_lnum, d.end_col, d.message))
          end
          local line = tonumber(os.getenv('LINE'))
          local params = {
            textDocument = { uri = vim.uri_from_bufnr(bufnr) },
            range = { start = { line = line, character = 0 }, ['end'] = { line = line, character = 0 } },
            context = { diagnostics = {} },
          }
          local response = client.request_sync('textDocument/codeAction', params, 10000, bufnr)
          if not response or response.err then error('codeAction failed: ' .. vim.inspect(response)) end
          local applied = false
          for _, action in ipairs(response.result or {}) do
            if action.title == os.getenv('TITLE') then
              vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
              applied = true
            end
          end
          if not applied then error('no action titled ' .. os.getenv('TITLE') .. ' in ' .. vim.inspect(response.result)) end
          vim.cmd('write')
          out:write('written\\n')
          vim.lsp.stop_client(id)
        end)
        if not ok then out:write('error ' .. tostring(err) .. '\\n') end
        out:close()
        vim.cmd('qall!')
        """

    /// Runs the script in Neovim; returns what it reported (killed after 60 s).
    static func runNeovim(_ neovim: String, root: URL, file: URL, line: Int, title: String) throws -> String {
        let scratch = try NotesFixture(["drive.lua": Self.script])
        let report = scratch.url("report.txt")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: neovim)
        process.arguments = ["--headless", "--clean", "-n", "-i", "NONE", "-c", "luafile \(scratch.url("drive.lua").path)"]
        var environment = ProcessInfo.processInfo.environment
        environment["TICK"] = TickProcess.executable.path
        environment["ROOT"] = root.path
        environment["FILE"] = file.path
        environment["LINE"] = String(line)
        environment["TITLE"] = title
        environment["OUT"] = report.path
        environment["XDG_CACHE_HOME"] = TickRunner.cacheHome
        environment["XDG_STATE_HOME"] = TickRunner.stateHome
        environment["XDG_CONFIG_HOME"] = TickRunner.configHome
        environment["XDG_DATA_HOME"] = scratch.root.path
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date(timeIntervalSinceNow: 60)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        return (try? String(contentsOf: report, encoding: .utf8)) ?? "(no report)"
    }

    @Test(
        .enabled(if: neovim != nil, "needs Neovim (nvim); make test-deps installs Debian's neovim"),
        arguments: [
            // (file, text, 0-based line, action title, tick command)
            (
                "e.md", "# Tasks 📋\r\n\r\n- [ ] 🎉 Party\tprep !hgih ⏫ 📅 2026-11-23\r\n\t- [ ] Balloons 🎈 🔁 every month on the last 📅 2026-11-30\r\n",
                3, "Mark done (adds the next occurrence above)", ["done", "e.md:4"]
            ),
            (
                "t.md", "# Week\n\n- [ ] Café 🍰 due:2026-02-30\n- [ ] Write the report 📝\tdue:2026-11-24 !high\n",
                3, "Postpone to next week (2026-11-23, Mon)", ["edit", "t.md:4", "--due", "next week"]
            ),
        ])
    func neovimAppliesACodeAction(path: String, text: String, line: Int, title: String, command: [String]) throws {
        let neovim = try #require(Self.neovim)
        let notes = try NotesFixture([path: text])
        let copy = try NotesFixture([path: text])
        let expected = try TickProcess.run(command + ["--dir", copy.root.path, "--today", "2026-11-21"])
        #expect(expected.status == 0, "\(expected.stderr)")

        let original = try NotesFixture([path: text])
        let checked = try TickProcess.run(["check", path, "--json", "--dir", original.root.path, "--today", "2026-11-21"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(checked.stdout.utf8)) as? [String: Any])
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 1)

        let report = try Self.runNeovim(neovim, root: notes.root, file: notes.url(path), line: line, title: title)
        #expect(report.contains("written"), "\(report)")
        #expect(!report.contains("error "), "\(report)")
        let written = try notes.bytes(path)
        let wanted = try copy.bytes(path)
        #expect(
            written == wanted,
            "\(String(decoding: written, as: UTF8.self).debugDescription) != \(String(decoding: wanted, as: UTF8.self).debugDescription)")
        // Neovim shows the diagnostic where tick check puts it (Neovim counts columns in bytes).
        for diagnostic in diagnostics {
            let line = diagnostic["line"] as! Int
            let column = diagnostic["column"] as! Int
            #expect(report.contains("diagnostic \(line - 1):\(column - 1)-"), "\(report)")
        }
    }
}
