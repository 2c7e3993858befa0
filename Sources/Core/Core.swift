// Core: the device's logic as values (docs/design/architecture.md). `AppState` is the single source of
// truth for everything the screen shows; `reduce(_:_:into:)` turns one `Event` into changes of
// that state and a list of `Effect`s for the runtime to carry out. Nothing here does I/O, reads
// a clock or imports Foundation, so every rule of the device is tested with plain values.
