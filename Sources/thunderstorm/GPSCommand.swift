import ArgumentParser

/// `thunderstorm gps …`: the GPS receiver and its NMEA. Each tool is one subcommand; add new
/// ones to `subcommands`.
struct GPSCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gps",
        abstract: "Watch a GPS receiver and decode NMEA 0183.",
        subcommands: [
            GPSDecodeCommand.self,
            GPSMonitorCommand.self,
        ]
    )
}
