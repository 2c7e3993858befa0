import Store

/// The store's coordinate, named apart from the weather's (both modules have a `Coordinate`).
typealias StoreCoordinate = Coordinate
