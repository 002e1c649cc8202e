import CCmarkGFM

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
    static func outline(of bytes: UnsafeBufferPointer<UInt8>) -> BlockOutline {
        var outline = BlockOutline()
        guard let parser = cmark_parser_new(CMARK_OPT_DEFAULT) else { return outline }
        defer { cmark_parser_free(parser) }
        if let table = tableExtension { cmark_parser_attach_syntax_extension(parser, table) }
        bytes.withMemoryRebound(to: CChar.self) { chars in
            if let base = chars.baseAddress { cmark_parser_feed(parser, base, chars.count) }
        }
        guard let root = cmark_parser_finish(parser) else { return outline }
        defer { cmark_node_free(root) }
        guard let iterator = cmark_iter_new(root) else { return outline }
        defer { cmark_iter_free(iterator) }

        var openItems: [Int] = []   // indices of list items being walked
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
                if entering { orderedLists.append(cmark_node_get_list_type(node) == CMARK_ORDERED_LIST) }
                else { orderedLists.removeLast() }
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
                    outline.headings.append(BlockOutline.Heading(
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
