import HAL
import SystemPackage

/// Opening, losing and reopening the port: the part of the service that runs only when
/// something went wrong, so it may allocate (error values, the by-id listing).
extension LocationService {
    /// One open attempt: the configured path, then the by-id fallback (see the type's rules).
    func attemptOpen(_ now: Instant) {
        let path = configuration.path
        do throws(SerialError) {
            try open(path, now)
        } catch let error where error.kind == .noDevice {
            let others = devices.byIDDevices().filter { $0 != path }
            byIDCandidates = others.count
            guard others.count == 1 else { return failed(error, now) }
            do throws(SerialError) {
                try open(others[0], now)
            } catch {
                failed(error, now)
            }
        } catch {
            failed(error, now)
        }
    }

    /// The next baud-hunt step: reopen the same path at the next rate.
    func huntNextRate(_ now: Instant) {
        let path = openPath ?? configuration.path
        _ = baudHunt.advance()
        baudChanges += 1
        drop(now)
        do throws(SerialError) {
            try open(path, now)
            isHunting = true
        } catch {
            failed(error, now)
        }
    }

    /// The port failed (unplug, hang-up, a read error): close it and retry after the back-off.
    func lost(_ error: SerialError, _ now: Instant) {
        disconnections += 1
        clockGate.reset()  // the next receiver's time is checked afresh
        drop(now)
        isHunting = false
        failed(error, now)
    }

    private func open(_ path: FilePath, _ now: Instant) throws(SerialError) {
        port = try devices.open(path, baudRate: baudHunt.current)
        openPath = path
        openedAt = now
        lastError = nil
        nextAttemptAt = nil
        byIDCandidates = 0
        backoff.reset()
        resetLink()
        startCountingLosses(now)
    }

    private func failed(_ error: SerialError, _ now: Instant) {
        lastError = error
        nextAttemptAt = now + backoff.take()
    }

    /// Closes the port (by dropping it, before any reopen: an exclusive tty refuses a second
    /// opener) and closes the epoch in progress: its sentences did arrive, by the last byte.
    private func drop(_ now: Instant) {
        stopCountingLosses(now)
        port = nil
        let arrived = lastByteAt ?? now
        receiver.finish { event in
            if case .fix(let fix) = event { self.epoch(fix, arrived) }
        }
    }

    /// A new port starts with no evidence about the link.
    private func resetLink() {
        lastByteAt = nil
        lastSentenceAt = nil
        unrecognisedSince = nil
        lastEpochTime = nil
        epochPeriod = nil
    }
}
