import Testing

@testable import TickEdit

@Suite struct SpliceTests {
    let bytes = Array("0123456789".utf8)

    @Test func copiesEveryByteOutsideTheSplices() throws {
        let result = try Splice.apply([Splice(2..<4, "ab"), .insert("X", at: 0), .delete(8..<10)], to: bytes)
        #expect(String(decoding: result, as: UTF8.self) == "X01ab4567")
    }

    @Test func refusesOverlappingSplices() {
        #expect(throws: SpliceError.self) { try Splice.apply([Splice(2..<5, "a"), Splice(4..<6, "b")], to: bytes) }
        #expect(throws: SpliceError.self) { try Splice.apply([.insert("a", at: 3), .insert("b", at: 3)], to: bytes) }
        #expect(throws: SpliceError.self) { try Splice.apply([Splice(2..<5, "a"), .insert("b", at: 3)], to: bytes) }
        #expect(throws: SpliceError.self) { try Splice.apply([Splice(8..<11, "a")], to: bytes) }
    }

    @Test func insertionsMayTouchAReplacedRange() throws {
        let result = try Splice.apply([Splice(2..<4, "ab"), .insert("<", at: 2), .insert(">", at: 4)], to: bytes)
        #expect(String(decoding: result, as: UTF8.self) == "01<ab>456789")
    }
}
