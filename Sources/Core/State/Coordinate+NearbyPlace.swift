import HAL
import Places
import Store

/// Names for a position from the table of populated places (docs/design/decisions.md#the-zone-table), with no network. This
/// file imports Places and not Screens: both have a `Place`.
enum PlaceNaming {
    /// Farther than this from every known place, a position keeps its coordinate label.
    static let nearbyMeters = 50_000
    /// Within this distance the GPS entry is the place itself ("Tromsø"), beyond it "near Tromsø".
    static let inPlaceMeters = 5_000

    /// The nearest place within `nearbyMeters`, or nil. Allocation-free.
    static func nearby(_ position: Coordinate) -> NearbyPlace? {
        let found = PlaceTable.nearest(to: position)
        return found.distanceMeters <= nearbyMeters ? found : nil
    }

    /// What the first entry is called at `position`: "Tromsø" within `inPlaceMeters` of it,
    /// "near Tromsø" within `nearbyMeters`, else the coordinate label ("69.65N 18.96E"). The
    /// display draws a name the way it draws saved names (a glyph it lacks as its fallback).
    static func shownName(_ position: Coordinate) -> String {
        guard let found = nearby(position) else { return position.label }
        let name = found.place.name
        return found.distanceMeters <= inPlaceMeters ? name : "near " + name
    }

    /// The name a saved position gets: "near Tromsø", cut at a character boundary to fit
    /// `LocationName.maximumBytes`; nil when no place is near or the name does not make a
    /// valid `LocationName` (the caller keeps the coordinate label).
    static func savedName(_ position: Coordinate) -> LocationName? {
        if let found = nearby(position) {
            var name = "near "
            for character in found.place.name {
                if name.utf8.count + character.utf8.count > LocationName.maximumBytes { break }
                name.append(character)
            }
            while name.last?.isWhitespace == true { name.removeLast() }
            if let valid = try? LocationName(name) { return valid }
        }
        return nil
    }
}
