@testable import IntervalEngine
@testable import LuaBridge
import WorkoutValues
import XCTest

/// The session's transitions as values: an input, then the state and the actions the
/// session carries out, with no clock, no run loop and no Lua.
final class SessionMachineTests: XCTestCase {
    func testAPauseWhileRunningStopsTheClockAndSaysSoInOrder() {
        var machine = SessionMachine(phase: .running(nil), segmentStart: 10)
        let actions = machine.pause(at: 25)
        XCTAssertEqual(machine.phase, .paused(since: 25, nil))
        XCTAssertEqual(actions, [.cancelTimers, .emit(.pause), .alert(.pause), .callHook(.pause)])
    }

    func testAResumeMovesTheSegmentsStartOnByThePauseAndPlansAnew() {
        var machine = SessionMachine(phase: .paused(since: 25, nil), segmentStart: 10, pausedSeconds: 3)
        let actions = machine.resume(at: 40)
        XCTAssertEqual(machine, SessionMachine(phase: .running(nil), segmentStart: 25, pausedSeconds: 18))
        XCTAssertEqual(actions, [.scheduleTimers, .emit(.resume), .alert(.resume), .callHook(.resume)])
    }

    func testAPauseInABoundaryWaitsForItsEnd() {
        let boundary = SessionPhase.Boundary(betweenSegments: false)
        var machine = SessionMachine(phase: .running(boundary))
        XCTAssertEqual(machine.pause(at: 5), [])
        var waiting = boundary
        waiting.pause = true
        XCTAssertEqual(machine.phase, .running(waiting))
    }

    func testAResumeInABoundaryKeepsTheBoundary() {
        let boundary = SessionPhase.Boundary(betweenSegments: true)
        var machine = SessionMachine(phase: .paused(since: 2, boundary))
        XCTAssertEqual(machine.resume(at: 4).first, .scheduleTimers)
        XCTAssertEqual(machine.phase, .running(boundary))
    }

    func testNeitherActsWhereItHasNothingToDo() {
        for phase in [SessionPhase.ready, .finished, .paused(since: 1, nil)] {
            var machine = SessionMachine(phase: phase)
            XCTAssertEqual(machine.pause(at: 3), [], "pause in \(phase)")
            XCTAssertEqual(machine.phase, phase)
        }
        for phase in [SessionPhase.ready, .finished, .running(nil)] {
            var machine = SessionMachine(phase: phase)
            XCTAssertEqual(machine.resume(at: 3), [], "resume in \(phase)")
            XCTAssertEqual(machine.phase, phase)
        }
    }

    // MARK: the boundaries

    func testTheStartIsABoundaryBeforeTheFirstSegmentThenTheFirstSegmentOnce() {
        var machine = SessionMachine()
        XCTAssertEqual(machine.start(), [.begin, .emit(.workoutStart), .callHook(.workoutStart), .enterSegment(.first),
                                         .scheduleTimers, .emit(.segmentStart), .callHook(.segmentsOwnStart),
                                         .callHook(.segmentStart), .alert(.segmentStart), .endBoundary])
        XCTAssertEqual(machine.phase, .running(SessionPhase.Boundary(betweenSegments: true)))
        XCTAssertEqual(machine.start(), [], "once")
    }

    func testACompletedFinishGivesItsAlertsAndTheNotificationAndCountsThePauseUnderWay() {
        var machine = running(segment(1), start: 0)
        machine.phase = .paused(since: 50, SessionPhase.Boundary(betweenSegments: true))
        machine.pausedSeconds = 4
        XCTAssertEqual(machine.finish(completed: true, at: 56), [
            .cancelTimers, .alert(.finish), .summarize(completed: true, at: 56, paused: 10), .callHook(.finish),
            .keepFinalScores, .alert(.summary), .emit(.workoutEnd), .release,
        ])
        XCTAssertEqual(machine.phase, .finished)
        XCTAssertEqual(machine.pausedSeconds, 4, "the machine's own count stays the generators'")
    }

    func testTheEndTimerEndsTheSegmentThenItsHooksThenStartsWhatFollowsInOneList() {
        var machine = running(segment(1, duration: 30), start: 10)
        let actions = machine.endTimerFired(at: 40)
        XCTAssertEqual(actions, [
            .cancelTimers, .emit(.segmentEnd(skipped: false, by: .timer)), .recordEnd(at: 40, skipped: false, by: .timer),
            .callHook(.segmentsOwnEnd), .callHook(.segmentEnd),
            .enterSegment(.next(at: 40)), .scheduleTimers, .emit(.segmentStart), .callHook(.segmentsOwnStart),
            .callHook(.segmentStart), .alert(.segmentStart), .endBoundary,
        ])
        XCTAssertEqual(machine.phase, .running(SessionPhase.Boundary(betweenSegments: true)))
        XCTAssertEqual(machine.tally.done, 1)
        XCTAssertEqual(machine.workSeconds, 30, "a work segment's time counts as work")
    }

    func testAnOpenSegmentsTimerIsItsCap() {
        var machine = running(segment(1, duration: 60, open: OpenEnd(cap: 60, expect: 40)))
        XCTAssertEqual(machine.endTimerFired(at: 60)[1], .emit(.segmentEnd(skipped: false, by: .cap)))
    }

    func testEnteringASegmentStartsItsClockLapsAndCuesAfreshInABoundaryOfItsOwn() {
        var machine = running(segment(1), start: 0)
        machine.phase = .running(SessionPhase.Boundary(betweenSegments: true))
        machine.laps = [3]
        machine.firedCues = [0]
        machine.enter(segment(2, duration: 20), at: 30)
        XCTAssertEqual(machine.segment.index, 2)
        XCTAssertEqual(machine.segmentStart, 30)
        XCTAssertEqual(machine.laps, [])
        XCTAssertEqual(machine.firedCues, [])
        XCTAssertEqual(machine.phase, .running(SessionPhase.Boundary(betweenSegments: false)))
        XCTAssertTrue(machine.clockRuns, "its timers are planned")
        XCTAssertEqual(machine.leaveBoundary(), [])
        XCTAssertEqual(machine.phase, .running(nil))

        var paused = running(segment(1))
        paused.phase = .paused(since: 12, SessionPhase.Boundary(betweenSegments: true))
        paused.enter(segment(2), at: 12)
        XCTAssertEqual(paused.phase, .paused(since: 12, SessionPhase.Boundary(betweenSegments: false)))
        XCTAssertFalse(paused.clockRuns, "paused: no timers until the resume")

        var finished = SessionMachine(phase: .finished)
        finished.enter(segment(2), at: 12)
        XCTAssertEqual(finished, SessionMachine(phase: .finished), "nothing once finished")
    }

    func testAnOpenSegmentRunsToItsCapOrForADay() {
        var machine = running(segment(1))
        machine.enter(segment(2, duration: 40, open: OpenEnd(cap: nil, expect: 40)), at: 5)
        XCTAssertEqual(machine.segment.duration, Duration.maximum)
    }

    func testLeavingNoBoundaryAppliesNothing() {
        var machine = running(segment(1))
        XCTAssertEqual(machine.leaveBoundary(), [])
        machine.phase = .finished
        XCTAssertEqual(machine.leaveBoundary(), [])
    }

    func testTheBoundarysEndAppliesWhatItsHooksAskedInOrder() {
        var waiting = SessionPhase.Boundary(betweenSegments: false)
        waiting.pause = true
        waiting.skip = .hook
        waiting.done = true
        var machine = running(segment(1))
        machine.phase = .running(waiting)
        XCTAssertEqual(machine.leaveBoundary(), [.pause, .skip(by: .hook)], "a pause first; a skip wins over a done")
        XCTAssertEqual(machine.phase, .running(nil))
        XCTAssertEqual(machine.pause(at: 7), [.cancelTimers, .emit(.pause), .alert(.pause), .callHook(.pause)],
                       "the kept pause, applied as the input it is")

        var done = SessionPhase.Boundary(betweenSegments: false)
        done.done = true
        machine = running(segment(1))
        machine.phase = .running(done)
        XCTAssertEqual(machine.leaveBoundary(), [.done])
    }

    func testACueSaysItsTextOrRunsItsFunctionInABoundaryOfItsOwn() {
        let cues = [Cue(moment: .half, action: .text("Halfway")), Cue(moment: .fromStart(5), action: .function(LuaRef(id: 7)))]
        var machine = running(segment(1, cues: cues))
        XCTAssertEqual(machine.cueFired(0, offset: 15), [.emit(.cue(position: 0, offset: 15)), .alert(.cue)])
        XCTAssertEqual(machine.phase, .running(nil), "a text cue is no boundary")
        XCTAssertEqual(machine.cueFired(1, offset: 5), [.emit(.cue(position: 1, offset: 5)), .callHook(.cue(position: 1)),
                                                        .endBoundary])
        XCTAssertEqual(machine.firedCues, [0, 1])
        XCTAssertEqual(machine.phase, .running(SessionPhase.Boundary(betweenSegments: false)))
        XCTAssertEqual(machine.cueFired(1, offset: 5), [.emit(.cue(position: 1, offset: 5)), .callHook(.cue(position: 1))],
                       "inside a boundary it is the boundary's")
    }

    // MARK: the athlete's commands

    func testNextEndsTheSegmentSkippedWhereItsClockIs() {
        var machine = running(segment(1, duration: 30), start: 10)
        let actions = machine.skip(by: .athlete, at: 18)
        XCTAssertEqual(actions.prefix(3), [.cancelTimers, .emit(.segmentEnd(skipped: true, by: .athlete)),
                                           .recordEnd(at: 18, skipped: true, by: .athlete)])
        XCTAssertEqual(machine.tally.skipped, 1)

        var paused = running(segment(1, duration: 30), start: 10)
        paused.phase = .paused(since: 14, nil)
        XCTAssertEqual(paused.skip(by: .athlete, at: 50)[2], .recordEnd(at: 14, skipped: true, by: .athlete),
                       "paused, it ends where its clock stopped")
    }

    func testNextFromAHookWaitsForTheBoundary() {
        var machine = running(segment(1))
        machine.phase = .running(SessionPhase.Boundary(betweenSegments: false))
        XCTAssertEqual(machine.skip(by: .hook, at: 3), [])
        XCTAssertEqual(machine.phase.boundary?.skip, .hook)
    }

    func testBackWithinTheGraceGoesToThePreviousSegmentAndForgetsHowItEnded() {
        var machine = running(segment(2, kind: "rest"), start: 30)
        machine.tally = SegmentTally(count: 3)
        machine.tally.ended(0, skipped: false)
        let actions = machine.back(at: 31, grace: 2)
        XCTAssertEqual(actions, [.forgetOpenRecord(index: 1), .cancelTimers] + SessionMachine.entering(.position(0, at: 31)))
        XCTAssertEqual(machine.tally.done, 0)
    }

    func testBackAfterTheGraceStartsTheSegmentAgainAndCountsTheWorkDone() {
        var machine = running(segment(2), start: 30)
        XCTAssertEqual(machine.back(at: 40, grace: 2), [.cancelTimers] + SessionMachine.entering(.position(1, at: 40)))
        XCTAssertEqual(machine.workSeconds, 10)
        machine.phase = .running(SessionPhase.Boundary(betweenSegments: false))
        XCTAssertEqual(machine.back(at: 41, grace: 2), [], "nothing in a boundary")
    }

    func testMoreTimeLengthensTheSegmentAndPlansItsTimersAnew() {
        var machine = running(segment(1, duration: 30), start: 0)
        XCTAssertEqual(machine.extend(by: 10, at: 5), [.cancelTimers, .scheduleTimers])
        XCTAssertEqual(machine.segment.duration, 40)
        machine.phase = .paused(since: 6, nil)
        XCTAssertEqual(machine.extend(by: -5, at: 9), [], "paused: the timers are planned at the resume")
        XCTAssertEqual(machine.segment.duration, 35)
    }

    func testTakingAwayAllThatIsLeftIsANext() {
        var machine = running(segment(1, duration: 30), start: 0)
        XCTAssertEqual(machine.extend(by: -25, at: 5).prefix(2), [.cancelTimers, .emit(.segmentEnd(skipped: true, by: .athlete))])
    }

    func testTimeMovesNoEndThatIsNotThere() {
        var open = running(segment(1, duration: 40, open: OpenEnd(cap: nil, expect: 40)))
        XCTAssertEqual(open.extend(by: 10, at: 1), [])
        var between = running(segment(1))
        between.phase = .running(SessionPhase.Boundary(betweenSegments: true))
        XCTAssertEqual(between.extend(by: 10, at: 1), [])
        XCTAssertEqual(between.segment.duration, 30)
    }

    func testDoneEndsAnOpenSegmentButNotASecondPressOrATimedOne() {
        var machine = running(segment(1, duration: 60, open: OpenEnd(cap: 60, expect: 40)), start: 0)
        XCTAssertEqual(machine.markDone(by: .athlete, at: Session.doneGrace / 2), [], "a second press")
        XCTAssertEqual(machine.markDone(by: .athlete, at: 12)[1], .emit(.segmentEnd(skipped: false, by: .athlete)))
        var timed = running(segment(1))
        XCTAssertEqual(timed.markDone(by: .athlete, at: 12), [])
    }

    func testDoneFromAHookWaitsForTheBoundaryInsideTheSegmentOnly() {
        var machine = running(segment(1, duration: 60, open: OpenEnd(cap: nil, expect: 40)))
        machine.phase = .running(SessionPhase.Boundary(betweenSegments: false))
        XCTAssertEqual(machine.markDone(by: .hook, at: 0), [])
        XCTAssertEqual(machine.phase.boundary?.done, true)
        machine.phase = .running(SessionPhase.Boundary(betweenSegments: true))
        XCTAssertEqual(machine.markDone(by: .hook, at: 0), [])
        XCTAssertEqual(machine.phase.boundary?.done, false)
    }

    func testATallyCountsNeverBelowZeroAndCallsItsHook() {
        var machine = running(segment(1))
        XCTAssertEqual(machine.count("reps", add: 2), [.emit(.tally(name: "reps", value: 2, add: 2)),
                                                        .callHook(.tally(name: "reps", value: 2))])
        XCTAssertEqual(machine.count("reps", add: -5), [.emit(.tally(name: "reps", value: 0, add: -5)),
                                                         .callHook(.tally(name: "reps", value: 0))])
        XCTAssertEqual(machine.tallies, [TallyCount(name: "reps", value: 0)])
        XCTAssertEqual(machine.count("tab\there", add: 1), [])
        XCTAssertEqual(machine.count("reps", add: Session.largestTallyStep + 1), [])
        var ready = SessionMachine()
        XCTAssertEqual(ready.count("reps", add: 1), [], "not before the start")
    }

    func testALapIsTheTimeSinceThePreviousOneAndNoneOfNoTime() {
        var machine = running(segment(1), start: 10)
        XCTAssertEqual(machine.lap(at: 14), [.emit(.lap(number: 1, split: 4)), .callHook(.lap(split: 4))])
        XCTAssertEqual(machine.lap(at: 20), [.emit(.lap(number: 2, split: 6)), .callHook(.lap(split: 6))])
        XCTAssertEqual(machine.lap(at: 20), [])
        XCTAssertEqual(machine.laps, [4, 6])
    }

    func testQuitFinishesWhereTheClockIsWithTheWorkDoneCounted() {
        var machine = running(segment(1), start: 10)
        machine.phase = .paused(since: 25, nil)
        machine.pausedSeconds = 2
        XCTAssertEqual(machine.stop(at: 90), [.cancelTimers, .summarize(completed: false, at: 25, paused: 2),
                                              .callHook(.finish), .keepFinalScores, .emit(.workoutEnd), .release],
                       "not completed: no finish alerts, no notification; the pause under way ends where the clock stopped")
        XCTAssertEqual(machine.phase, .finished)
        XCTAssertEqual(machine.workSeconds, 15)
        var between = running(segment(1), start: 10)
        between.phase = .running(SessionPhase.Boundary(betweenSegments: true))
        XCTAssertEqual(between.stop(at: 20)[1], .summarize(completed: false, at: 20, paused: 0))
        XCTAssertEqual(between.workSeconds, 0, "between segments the ended one was counted already")
        var finished = SessionMachine(phase: .finished)
        XCTAssertEqual(finished.stop(at: 1), [])
    }

    func testAShiftMovesTheSegmentsStartOutsideABoundary() {
        var machine = running(segment(1), start: 10)
        XCTAssertEqual(machine.shiftSegment(by: 2.5), [.cancelTimers, .scheduleTimers])
        XCTAssertEqual(machine.segmentStart, 12.5)
        XCTAssertEqual(machine.shiftSegment(by: .infinity), [])
    }

    /// A machine running `segment` since `start`, outside any boundary.
    private func running(_ segment: Segment, start: Double = 0) -> SessionMachine {
        var machine = SessionMachine(phase: .running(nil), segmentStart: start)
        machine.segment = segment
        machine.tally = SegmentTally(count: max(3, segment.index))
        return machine
    }

    private func segment(_ index: Int, kind: String = "work", duration: Double = 30, open: OpenEnd? = nil,
                         cues: [Cue] = []) -> Segment {
        var segment = Segment(index: index, kind: kind, name: "S\(index)", duration: duration, start: 0, round: nil,
                              rounds: nil, block: nil, info: nil, cues: cues, onStart: nil, onEnd: nil, line: index)
        segment.open = open
        return segment
    }
}
