import Board
import HAL
import Screens
import Store

extension AppState {
    /// A gesture becomes its button's action (board file, docs/design/architecture.md#the-model defaults). Within
    /// the undo window of a removal, a long press of the button that removed brings the place
    /// back, whatever that button's long press otherwise does.
    mutating func button(_ gesture: ButtonGesture, _ moment: Moment, _ effects: inout [Effect]) {
        // A storm alarm on the screen: the first press of any button acknowledges it, and only
        // that (a person reaching for the display to silence it must not change a setting).
        if acknowledgeStormAlarm(&effects) { return }
        if let removal = pendingRemoval, gesture.kind == .long, gesture.button == removal.button,
            moment.now < removal.deadline
        {
            pendingRemoval = nil
            shown = .saved(removal.location.id)
            notice = nil
            placeChanged(moment, &effects)
            effects.append(.log(.text("kept \(removal.location.name) (removal undone)")))
            return
        }
        guard options.buttons.indices.contains(gesture.button) else { return }
        let map = options.buttons[gesture.button]
        perform(gesture.kind == .short ? map.press : map.longPress, button: gesture.button, moment, &effects)
    }

    mutating func perform(_ action: ButtonAction, button: Int, _ moment: Moment, _ effects: inout [Effect]) {
        var settings = requestedSettings ?? store.settings
        switch action {
        case .cycleTemperatureUnit: settings.temperature = settings.temperature.next
        case .cycleUnits: settings.units = settings.units.next
        case .cycleTimeNotation: settings.time = settings.time.next
        case .cycleBrightness: settings.brightness = settings.brightness.next
        case .nextScreen:
            screen = next(after: screen)
            if let every = options.rotateEvery { nextRotation = moment.now + every }
            frameDirty = true
            return
        case .nextLocation:
            shown = place(after: shown)
            placeChanged(moment, &effects)
            return
        case .savePosition:
            savePosition(moment, &effects)
            return
        case .removeLocation:
            removeShown(button: button, moment, &effects)
            return
        case .none:
            return
        }
        // One durable commit; the screen shows the new value once the store answers (`.store`),
        // and keeps the old one if it refuses (`.refused`).
        requestedSettings = settings
        effects.append(.commit(.settings(settings)))
    }

    private mutating func savePosition(_ moment: Moment, _ effects: inout [Effect]) {
        guard gps.kind == .fix, let position = gps.position else {
            notice = "no GPS fix to save"
            frameDirty = true
            return
        }
        do throws(StoreError) {
            // "near Tromsø" (docs/design/decisions.md#the-zone-table), or the coordinates when no place is near.
            // (`??` would take a rethrowing autoclosure and lose the typed throw.)
            let name: LocationName
            if let near = PlaceNaming.savedName(position) { name = near } else { name = try LocationName(position.label) }
            let location = SavedLocation(id: store.nextLocationID, name: name, coordinate: position)
            notice = nil
            effects.append(.commit(.addLocation(location)))
        } catch {
            notice = "cannot save: \(error)"
            frameDirty = true
        }
    }

    /// The shown saved place disappears at once; the store forgets it when the undo window
    /// closes. A second removal inside the window commits the first at once.
    private mutating func removeShown(button: Int, _ moment: Moment, _ effects: inout [Effect]) {
        guard case .saved(let id) = shown, let index = store.index(of: id) else {
            notice = "the GPS place cannot be removed"
            frameDirty = true
            return
        }
        if let earlier = pendingRemoval { effects.append(.commit(.removeLocation(earlier.location.id))) }
        let location = store.locations[index]
        pendingRemoval = PendingRemoval(location: location, button: button, deadline: moment.now + options.undoWindow)
        shown = place(after: shown)
        notice = nil
        placeChanged(moment, &effects)
        effects.append(.log(.text("removing \(location.name); a long press within \(options.undoWindow) keeps it")))
    }

    /// The screens in the order the next-screen button cycles them; indoor only with a sensor,
    /// the barograph only with a pressure (the sensor's or the provider's).
    /// The automatic rotation leaves out the status screen (a button shows it), unless
    /// something is wrong.
    func next(after current: Screen, rotating: Bool = false) -> Screen {
        // Index loops, no closures: this runs at every automatic rotation, and the unoptimised
        // generic helpers (`contains(where:)`, `firstIndex(of:)`) allocate.
        let all = Self.screens
        var problem = false
        let lines = model.statusLines
        for line in 0..<lines.count where lines[line].isProblem { problem = true }
        var index = 0
        for candidate in 0..<all.count where all[candidate] == current { index = candidate }
        repeat {
            index = (index + 1) % all.count
        } while (all[index] == .indoor && !options.hasSensor) || (all[index] == .barograph && !model.barograph.hasPressure)
            || (rotating && all[index] == .status && !problem)
        return all[index]
    }
}

extension AppState {
    /// How long "Btn N edges lost" stays on the status screen after the last loss. Lost edges
    /// mean a line bounced or chattered faster than the loop read it, or the loop was busy for
    /// a while; once a minute has passed without another, the cause has passed, and the line
    /// would otherwise keep the status screen in the rotation until a restart.
    public static var edgeLossShownFor: Duration { .seconds(60) }

    /// The kernel dropped `count` more edges: shown on the status screen, and logged once when
    /// a loss begins (the end of it is logged with the total, `edgesQuiet`).
    mutating func edgesDropped(_ count: Int, _ moment: Moment, _ effects: inout [Effect]) {
        guard count > 0 else { return }
        if edgesLostAt == nil {
            effects.append(.log(.problem(
                "buttons: the kernel dropped \(count) edge\(count == 1 ? "" : "s") (its event buffer was full: a bouncing line, or the loop busy)")))
        }
        droppedEdges += count
        edgesLostAt = moment.now
    }

    /// A minute without a new loss: the status line goes, and the log says how many in all.
    mutating func edgesQuiet(_ effects: inout [Effect]) {
        effects.append(.log(.text(
            "buttons: no edges dropped for \(Self.edgeLossShownFor.components.seconds) s (\(droppedEdges) in all)")))
        droppedEdges = 0
        edgesLostAt = nil
    }
}

extension AppState {
    /// The screens in button order, built once.
    static let screens = Screen.allCases
}

// The next value of each setting, written out: `allCases` builds an array at every call, and a
// button press allocates nothing.
extension TemperatureNotation {
    var next: Self { self == .celsius ? .fahrenheit : .celsius }
}

extension UnitsNotation {
    var next: Self { self == .metric ? .imperial : .metric }
}

extension TimeNotation {
    var next: Self { self == .twentyFourHour ? .twelveHour : .twentyFourHour }
}

extension BrightnessPolicy {
    var next: Self {
        switch self {
        case .automatic: .alwaysBright
        case .alwaysBright: .alwaysDim
        case .alwaysDim: .automatic
        }
    }
}
