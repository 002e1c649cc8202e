import CCmarkGFM

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The only code that sees cmark-gfm's C API: it parses bytes and walks the
/// tree once, iteratively (deep nesting cannot overflow the stack), keeping
/// only block positions, which cmark-gfm reports reliably. Inline nodes are
/// skipped; runs and tokens are found by scanning the title line's bytes.
enum CmarkBlockParser {
    /// Registers the GFM extensions once per process and finds `table`, which
    /// changes block structure (inline-only extensions do not matter here).
    /// Written once by the lazy initialiser and only read after, so sharing it
    /// across threads is safe.
    nonisolated(unsafe) private static let tableExtension: OpaquePointer? = {
        cmark_gfm_core_extensions_ensure_registered()
        return cmark_find_syntax_extension("table")
    }()

    /// Parses `bytes`, whose lines must start with the same bytes as the
    /// file's, up to every column that matters, so that columns are the
    /// file's byte offsets on their lines (see `UTF8Check.scan` and `CmarkInput`).
    static func outline(of bytes: UnsafeBufferPointer<UInt8>, useArena: Bool = true) -> BlockOutline {
        withTree(of: bytes, useArena: useArena) { iterator in readOutline(iterator) } ?? BlockOutline()
    }

    /// Every block node but table cells, in document order, as
    /// "type start-end" (lines): what the tests compare to show that a
    /// change to cmark-gfm's copy keeps its blocks, tables and rows.
    static func blockSkeleton(of bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        withTree(of: bytes, useArena: false) { iterator in
            var skeleton: [String] = []
            while true {
                let event = cmark_iter_next(iterator)
                if event == CMARK_EVENT_DONE { break }
                guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
                let type = cmark_node_get_type(node)
                if UInt32(type.rawValue) & UInt32(CMARK_NODE_TYPE_MASK) == UInt32(CMARK_NODE_TYPE_INLINE) {
                    cmark_iter_reset(iterator, node, CMARK_EVENT_EXIT)
                    continue
                }
                let name = cmark_node_get_type_string(node).map { String(cString: $0) } ?? "?"
                if name == "table_cell" {
                    cmark_iter_reset(iterator, node, CMARK_EVENT_EXIT)
                    continue
                }
                skeleton.append("\(name) \(cmark_node_get_start_line(node))-\(cmark_node_get_end_line(node))")
            }
            return skeleton
        } ?? []
    }

    /// Parses `bytes` and calls `body` with an iterator over the tree.
    private static func withTree<Result>(
        of bytes: UnsafeBufferPointer<UInt8>, useArena: Bool,
        _ body: (OpaquePointer) -> Result
    ) -> Result? {
        // Everything cmark-gfm allocates for this parse comes from an arena
        // released at once at the end (`ParseArena`); `useArena: false`
        // (the tests) uses the system allocator.
        let arena = UnsafeMutablePointer<ParseArena>.allocate(capacity: 1)
        arena.initialize(to: ParseArena())
        let previousArena = pthread_getspecific(ParseArena.key)
        pthread_setspecific(ParseArena.key, arena)
        defer {
            pthread_setspecific(ParseArena.key, previousArena)
            arena.pointee.release()
            arena.deinitialize(count: 1)
            arena.deallocate()
        }
        guard let parser = cmark_parser_new_with_mem(CMARK_OPT_DEFAULT, useArena ? ParseArena.allocator : cmark_get_default_mem_allocator()) else {
            return nil
        }
        defer { cmark_parser_free(parser) }
        if let table = tableExtension { cmark_parser_attach_syntax_extension(parser, table) }
        bytes.withMemoryRebound(to: CChar.self) { chars in
            if let base = chars.baseAddress { cmark_parser_feed(parser, base, chars.count) }
        }
        guard let root = cmark_parser_finish(parser) else { return nil }
        // The tree lies in the arena: walking it to free every node (3,600
        // instructions a file) would free nothing the arena does not.
        defer { if !useArena { cmark_node_free(root) } }
        guard let iterator = cmark_iter_new(root) else { return nil }
        defer { cmark_iter_free(iterator) }
        return body(iterator)
    }

    /// Walks the tree, keeping list items and headings.
    private static func readOutline(_ iterator: OpaquePointer) -> BlockOutline {
        var outline = BlockOutline()
        var openItems: [Int] = [] // indices of list items being walked
        var quoteDepth = 0
        var orderedLists: [Bool] = []
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            let entering = event == CMARK_EVENT_ENTER
            switch type {
            case CMARK_NODE_LIST:
                if entering { orderedLists.append(cmark_node_get_list_type(node) == CMARK_ORDERED_LIST) } else { orderedLists.removeLast() }
            case CMARK_NODE_BLOCK_QUOTE:
                quoteDepth += entering ? 1 : -1
            case CMARK_NODE_ITEM:
                if entering {
                    var item = BlockOutline.ListItem(
                        startLine: Int(cmark_node_get_start_line(node)),
                        startColumn: Int(cmark_node_get_start_column(node)),
                        endLine: Int(cmark_node_get_end_line(node)),
                        enclosingItem: openItems.last,
                        quoteDepth: quoteDepth,
                        isOrdered: orderedLists.last ?? false)
                    if let child = cmark_node_first_child(node), cmark_node_get_type(child) == CMARK_NODE_PARAGRAPH {
                        item.paragraphLine = Int(cmark_node_get_start_line(child))
                        item.paragraphColumn = Int(cmark_node_get_start_column(child))
                    }
                    openItems.append(outline.items.count)
                    outline.items.append(item)
                } else {
                    openItems.removeLast()
                }
            case CMARK_NODE_HEADING:
                if entering {
                    outline.headings.append(
                        BlockOutline.Heading(
                            level: Int(cmark_node_get_heading_level(node)),
                            startLine: Int(cmark_node_get_start_line(node)),
                            startColumn: Int(cmark_node_get_start_column(node)),
                            endLine: Int(cmark_node_get_end_line(node)),
                            isATX: false))
                    // (whether it is ATX is read from the bytes by the builder)
                    cmark_iter_reset(iterator, node, CMARK_EVENT_EXIT)
                }
            case CMARK_NODE_PARAGRAPH, CMARK_NODE_CODE_BLOCK, CMARK_NODE_HTML_BLOCK:
                // Nothing inside these is an item; skip their inline children.
                if entering { cmark_iter_reset(iterator, node, CMARK_EVENT_EXIT) }
            default:
                if entering, UInt32(type.rawValue) & UInt32(CMARK_NODE_TYPE_MASK) == UInt32(CMARK_NODE_TYPE_INLINE) {
                    cmark_iter_reset(iterator, node, CMARK_EVENT_EXIT)
                }
            }
        }
        return outline
    }
}

/// A bump allocator for one cmark-gfm parse, found through a thread-local
/// pointer (cmark's allocator callbacks take no context).
///
/// cmark-gfm callocs a node per block and a buffer per paragraph, and frees
/// each one again: with the system allocator about a tenth of a cold
/// folder parse's instructions went to malloc's bookkeeping. Here `free`
/// does nothing and the whole arena is released when the parse is done;
/// cmark only ever frees, reallocs and reads what the same parser allocated
/// (its nodes, iterator and buffers all use the parser's `cmark_mem`). Its
/// own `cmark_get_arena_mem_allocator` is one global arena, unusable from
/// the parses running on every core at once.
///
/// Each block is preceded by 16 bytes holding its size (for `realloc`);
/// chunks are linked through their first 16 bytes. Memory freed during the
/// parse is not reused, so the peak is what the parse allocates in all,
/// on pieces of at most about a megabyte of shortened Markdown (`LargeFiles`).
struct ParseArena {
    static let chunkSize = 64 << 10
    private static let header = 16

    /// The current chunk (its first word links to the previous one).
    private var chunk: UnsafeMutableRawPointer? = nil
    private var next = 0, end = 0
    /// Blocks too large for a chunk, each malloc'd alone, linked the same way.
    private var large: UnsafeMutableRawPointer? = nil

    static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    nonisolated(unsafe) static let allocator: UnsafeMutablePointer<cmark_mem> = {
        let memory = UnsafeMutablePointer<cmark_mem>.allocate(capacity: 1)
        memory.initialize(
            to: cmark_mem(
                calloc: { count, size in
                    let (bytes, overflow) = Int(count).multipliedReportingOverflow(by: Int(size))
                    guard !overflow, let block = ParseArena.current.pointee.allocate(bytes) else { abort() }
                    memset(block, 0, bytes)
                    return block
                },
                realloc: { pointer, size in
                    guard let block = ParseArena.current.pointee.reallocate(pointer, Int(size)) else { abort() }
                    return block
                },
                free: { _ in }))
        return memory
    }()

    private static var current: UnsafeMutablePointer<ParseArena> {
        pthread_getspecific(key)!.assumingMemoryBound(to: ParseArena.self)
    }

    mutating func allocate(_ size: Int) -> UnsafeMutableRawPointer? {
        let needed = Self.header + (size + 15) & ~15
        if needed > Self.chunkSize / 4 {
            guard let block = malloc(Self.header + needed) else { return nil }
            block.storeBytes(of: large, as: UnsafeMutableRawPointer?.self)
            large = block
            let start = block + Self.header
            start.storeBytes(of: size, as: Int.self)
            return start + Self.header
        }
        if next + needed > end {
            guard let fresh = malloc(Self.chunkSize) else { return nil }
            fresh.storeBytes(of: chunk, as: UnsafeMutableRawPointer?.self)
            chunk = fresh
            next = Int(bitPattern: fresh) + Self.header
            end = Int(bitPattern: fresh) + Self.chunkSize
        }
        let start = UnsafeMutableRawPointer(bitPattern: next)!
        next += needed
        start.storeBytes(of: size, as: Int.self)
        return start + Self.header
    }

    mutating func reallocate(_ pointer: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer? {
        guard let pointer else { return allocate(size) }
        let old = (pointer - Self.header).load(as: Int.self)
        if size <= old { return pointer }
        // The last block of the chunk grows in place when there is room.
        let oldEnd = Int(bitPattern: pointer) + (old + 15) & ~15
        let newEnd = Int(bitPattern: pointer) + (size + 15) & ~15
        if oldEnd == next, newEnd <= end, Self.header + (size + 15) & ~15 <= Self.chunkSize / 4 {
            next = newEnd
            (pointer - Self.header).storeBytes(of: size, as: Int.self)
            return pointer
        }
        guard let block = allocate(size) else { return nil }
        memcpy(block, pointer, old)
        return block
    }

    /// Frees every chunk and large block.
    mutating func release() {
        for var list in [chunk, large] {
            while let block = list {
                list = block.load(as: UnsafeMutableRawPointer?.self)
                free(block)
            }
        }
        chunk = nil
        large = nil
        next = 0
        end = 0
    }
}
