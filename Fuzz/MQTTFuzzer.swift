// libFuzzer target: the payloads anyone who may publish on the class's topics hands a
// coach's run or a follower (docs/mqtt.md). Built by Fuzz/build.sh mqtt; `make test` runs it
// briefly after the others. The input is each reader's payload whole, and each of its
// lines again (so that one input reaches several readers with different JSON). Besides no
// crash and no hang, each reader keeps its documented bounds:
// - `ParticipantMessage` (PREFIX/participants/NAME): a heart rate, power and zone within
//   `PlausibleReadings` and 1–5, a name of at most 40 characters and 48 bytes, nothing
//   read past 1 KiB; a roster fed the messages keeps its limits (256 participants, one a
//   second each);
// - `CoachState` (PREFIX/state) and `ClockAnswer` (PREFIX/clock/answer): a speed in
//   `--speed`'s range, every time finite, from 0 to `CoachNumbers.latestTime`; a bad
//   answer's reason printable;
// - `FollowedTimeline` (PREFIX/timeline): a routine of at most 100,000 segments, each a
//   duration from 0 to a day, cues within it, texts and info within their bounds; an
//   error names the topic and holds no control character;
// - `ControlRequest` (PREFIX/cmd, POST /control): a command a key could give, within its
//   bounds (`add` ±86,400 s and finite, a tally's name and step), an error printable.
import ClassFollowing
import ClassPublishing
import Foundation
import IntervalEngine
import RemoteControl
import WorkoutValues

private func printable(_ text: String) -> Bool {
    !text.unicodeScalars.contains { VisibleText.isControl($0) }
}

/// A time a coach's run can have (`CoachNumbers`).
private func coachTime(_ value: Double?) -> Bool {
    value.map { $0.isFinite && $0 >= 0 && $0 <= CoachNumbers.latestTime } ?? true
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var payloads = [bytes]
    payloads += bytes.split(separator: UInt8(ascii: "\n")).prefix(16).map(Array.init)
    var roster = ParticipantRoster()
    for (position, payload) in payloads.enumerated() {
        fuzzParticipant(payload, into: &roster, id: "p\(position % 3)", at: Double(position) * 0.4)
        fuzzCoachState(payload)
        fuzzClockAnswer(payload)
        fuzzTimeline(payload)
        fuzzCommand(payload)
    }
    return 0
}

// MARK: The class's participants

private func fuzzParticipant(_ payload: [UInt8], into roster: inout ParticipantRoster, id: String, at now: Double) {
    let message = ParticipantMessage(payload)
    precondition(payload.count <= ParticipantMessage.largest || message == nil, "a message over 1 KiB was read")
    if case let .reading(name, hr, zone, power)? = message {
        precondition(hr.map { PlausibleReadings.heartRate($0) == $0 } ?? true, "heart rate \(String(describing: hr))")
        precondition(power.map { PlausibleReadings.power($0) == $0 } ?? true, "power \(String(describing: power))")
        precondition(zone.map { (1...5).contains($0) } ?? true, "zone \(String(describing: zone))")
        if let name {
            precondition(!name.isEmpty && name.count <= ParticipantMessage.longestName
                         && name.utf8.count <= ParticipantMessage.longestNameBytes, "name \(name.debugDescription)")
        }
    }
    precondition(ParticipantMessage(payload) == message, "read twice, two messages")
    let kept = roster.participants[id]?.kept ?? 0
    let outcome = roster.receive(id: id, payload: payload, at: now)
    precondition((outcome == .kept) == (roster.participants[id]?.kept ?? 0 > kept), "\(outcome) but kept \(kept)")
    precondition(roster.participants.count <= ParticipantRoster.mostParticipants)
    for participant in roster.participants.values {
        precondition(participant.zoneSeconds.allSatisfy { $0.isFinite && $0 >= 0 }, "zone seconds \(participant.zoneSeconds)")
        precondition(participant.hr.map { PlausibleReadings.heartRate($0) == $0 } ?? true)
        // Two at once, then one a second: never more kept than the clock allows.
        precondition(Double(participant.kept) <= ParticipantRoster.burst + now + 1e-9, "\(participant.kept) kept by \(now) s")
    }
}

// MARK: The coach's state and clock

private func fuzzCoachState(_ payload: [UInt8]) {
    guard let state = CoachState(payload) else { return }
    precondition(payload.count <= CoachState.largest, "a state over 64 KiB was read")
    precondition(RunLoopScheduler.speeds.contains(state.speed), "speed \(state.speed)")
    precondition(coachTime(state.t) && coachTime(state.left) && coachTime(state.deadline) && coachTime(state.duration),
                 "a time out of bounds: \(state)")
    precondition(state.segment.map { $0 >= 1 && $0 <= 10_000_000 } ?? true, "segment \(String(describing: state.segment))")
}

private func fuzzClockAnswer(_ payload: [UInt8]) {
    let id = "ann-1-2"
    let answer = ClockAnswer.read(payload, id: id)
    precondition(ClockAnswer.read(payload, id: id) == answer, "read twice, two answers")
    switch answer {
    case .notOurs: break
    case .bad(let reason):
        precondition(payload.count <= ClockAnswer.largest && printable(reason), "bad: \(reason)")
    case let .answer(_, t, speed):
        precondition(payload.count <= ClockAnswer.largest, "an answer over 512 bytes was read")
        precondition(RunLoopScheduler.speeds.contains(speed), "speed \(speed)")
        precondition(coachTime(t), "t \(t)")
    }
}

// MARK: The timeline

private func fuzzTimeline(_ payload: [UInt8]) {
    let source = "gym/timeline"
    let read: FollowedTimeline.Read
    do throws(FollowError) {
        read = try FollowedTimeline.read(payload, source: source)
    } catch {
        precondition(error.message.hasPrefix(source + ": ") && printable(error.message), "an error: \(error.message)")
        return
    }
    let note = read.note
    precondition(note.map(printable) ?? true, "the note: \(note ?? "")")
    let segments = read.routine.timeline.segments
    precondition(segments.count <= FollowedTimeline.mostSegments)
    var start = 0.0
    for segment in segments {
        precondition(segment.duration.isFinite && segment.duration >= 0 && segment.duration <= Duration.maximum,
                     "duration \(segment.duration)")
        precondition(segment.kind.utf8.count <= 1000 && segment.name.utf8.count <= 1000, "a text over its bound")
        precondition(abs(segment.start - start) <= 1e-6 * max(1, start), "segment \(segment.index) starts at \(segment.start), not \(start)")
        if let round = segment.round, let rounds = segment.rounds {
            precondition(round >= 1 && round <= rounds && rounds <= FollowedTimeline.mostSegments, "round \(round) of \(rounds)")
        }
        if let cap = segment.open?.cap { precondition(cap.isFinite && cap >= 0 && cap <= Duration.maximum, "cap \(cap)") }
        start += segment.duration
    }
}

// MARK: Commands

private func fuzzCommand(_ payload: [UInt8]) {
    let command: SessionCommand
    do throws(ControlRequestError) {
        command = try ControlRequest.command(from: Data(payload))
    } catch {
        precondition(printable(error.message), "an error: \(error.message)")
        return
    }
    switch command {
    case .add(let seconds):
        precondition(PlainNumber.isPlain(seconds) && abs(seconds) <= Duration.maximum, "add \(seconds)")
    case let .tally(name, add):
        precondition(Session.isTallyName(name) && abs(add) <= Session.largestTallyStep, "tally \(name) \(add)")
    default:
        precondition(ControlRequest.plain.values.contains(command), "\(command)")
    }
}
