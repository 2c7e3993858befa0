import Core
import Screens

/// The one line systemd shows for the service (`systemctl status`, `STATUS=`): the GPS, the
/// weather and the store always, then any other part the status screen calls a problem. Built
/// from the status screen's own lines, so the panel and the service manager say the same.
public enum DaemonStatus {
    public static func text(_ lines: [StatusLine]) -> String {
        var parts: [String] = []
        for line in lines where ["GPS", "Net", "Store"].contains(line.label) || line.isProblem {
            parts.append("\(line.label) \(line.text)")
        }
        return parts.joined(separator: " · ")
    }
}
