import Store

/// The store's fixed-point coordinate, named apart from `Position` (the module `Store` also has a
/// protocol `Store`, so `Store.Coordinate` does not name it).
typealias StoredCoordinate = Coordinate
