// The library's front door: `import TickKit` brings every layer.
//
// The layers are separate modules so that the compiler keeps them in order
// (docs/ARCHITECTURE.md has the map): TickSystem ← TickModel ← TickSyntax
// ← TickStore ← TickEngine ← TickOutput, and TickEdit beside TickOutput.
@_exported import TickEdit
@_exported import TickEngine
@_exported import TickModel
@_exported import TickOutput
@_exported import TickStore
@_exported import TickSyntax
@_exported import TickSystem
