import HAL
import Screens
import Store
import Weather

extension AppState {
    /// The minute tick: the clock in the place's zone, the weather's age, and night or day.
    /// A tick that changes no minute draws nothing. `force` (a new zone, the start) redraws
    /// the clock and rebuilds the weather panel, whose local times depend on the zone.
    mutating func refreshTime(_ moment: Moment, _ effects: inout [Effect], force: Bool) {
        let now = moment.now
        guard moment.source != .none else {
            if force { refreshWeatherPanel(moment) }
            // A system clock that was never set: no clock on the screen, and look again in a
            // minute (a new source or a step is seen at once anyway: `observeClock`).
            if model.clock != nil {
                model.clock = nil
                frameDirty = true
            }
            shownMinute = -1
            nextMinute = now + .seconds(60)
            return
        }
        let wall = moment.wall
        let local = CivilDateTime(wall, offsetSeconds: zone.offset(at: wall))
        // The next minute boundary of the wall clock (zones are whole minutes from UTC).
        let intoMinute = Duration.seconds(((wall.seconds % 60) + 60) % 60) + .nanoseconds(Int64(wall.nanoseconds))
        nextMinute = now + (.seconds(60) - intoMinute)
        let minuteOfDay = local.hour * 60 + local.minute
        let unsure = !moment.source.isTrusted
        guard force || minuteOfDay != shownMinute || model.clock?.unsure != unsure else { return }
        shownMinute = minuteOfDay
        model.clock = ClockTime(hour: local.hour, minute: local.minute, unsure: unsure)
        frameDirty = true
        if force || local.hour != shownHour {
            shownHour = local.hour
            refreshWeatherPanel(moment)  // hour labels and "today" move on
        } else {
            refreshWeatherAge(moment)
        }
        refreshBrightness(moment, &effects)
    }

    /// The panel's level from the brightness policy: `automatic` dims from sunset to sunrise
    /// at the shown place (computed on the device, NOAA's method), the other two are fixed.
    mutating func refreshBrightness(_ moment: Moment, _ effects: inout [Effect]) {
        let dim: Bool
        switch store.settings.brightness {
        case .alwaysBright: dim = false
        case .alwaysDim: dim = true
        case .automatic:
            // Only a time someone vouches for: a clock hours off would dim at noon.
            guard moment.source.isTrusted else { return }
            dim = Self.isNight(at: moment.wall, position: shownPosition, zone: zone)
        }
        if dim != dimmed {
            dimmed = dim
            effects.append(.setDimmed(dim))
        }
    }

    /// Whether the sun is down at `position` at `wall`.
    static func isNight(at wall: WallTime, position: Coordinate, zone: ZoneRules) -> Bool {
        let offset = zone.offset(at: wall)
        let date = CivilDateTime(wall, offsetSeconds: offset).date
        switch SolarEvents.day(date: date, latitude: position.latitude, longitude: position.longitude, utcOffsetSeconds: offset) {
        case .normal(let sunrise, let sunset): return wall < sunrise || wall >= sunset
        case .polarNight: return true
        case .midnightSun: return false
        }
    }
}
