// The library's front door: `import TickKit` brings every layer.
//
// The layers are separate modules so that the compiler keeps them in order
// (docs/ARCHITECTURE.md has the map): TickSystem ← TickModel ← TickSyntax
// ← TickRecords (the read model) ← TickEngine ← TickOutput, with TickStore
// (disk I/O) on TickRecords beside the engine, and TickEdit beside
// TickOutput (on the engine and the store).
@_exported import TickEdit
@_exported import TickEngine
@_exported import TickModel
@_exported import TickOutput
@_exported import TickRecords
@_exported import TickStore
@_exported import TickSyntax
@_exported import TickSystem
