import ArgumentParser
import Broker
import ClassFollowing
import ClassPublishing
import Foundation
import IntervalEngine
import Platform
import Serving
import WorkoutValues

/// `workout follow mqtt://HOST/PREFIX`: the coach's workout (`run --mqtt`) in step on
/// this machine, built from the timeline the coach publishes as data, with this
/// machine's display, sounds and voice on the coach's seconds, and this athlete's
/// sensors published to the class (docs/mqtt.md, "Following a class").
struct Follow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "follow",
        abstract: "Follow a coach's workout published on an MQTT broker (run --mqtt).",
        discussion: """
            Waits for the coach's workout to run, then runs it here in step: the same segments, \
            paused, skipped and ended as the coach does, with the sounds on the coach's seconds. \
            Your own sensors go to PREFIX/participants/NAME once a second. Nothing received is \
            ever run as code. Exit status: 0 the coach's workout ended or you quit, 1 the broker \
            or the timeline could not be used, 64 usage error.
            """)

    @Argument(help: ArgumentHelp("The coach's broker and prefix: mqtt[s]://[USER@]HOST[:PORT]/PREFIX, the password given with --mqtt-password-file (default: the athlete file's mqtt = …).",
                                 valueName: "url"))
    var url: String?

    @Option(help: ArgumentHelp("Your name in the class (letters, digits, - _ .; at most 32; default: your user name).",
                               valueName: "name"))
    var name: String?

    @OptionGroup var trust: BrokerTrustOptions

    @OptionGroup var cues: CueOptions

    @OptionGroup var sensing: SensorOptions

    /// How often the clock's questions are asked again while no answer, or no precise one,
    /// has come (seconds).
    static let measureTime = 0.5
    /// The clock is precise enough to follow by once its best round trip puts the coach's
    /// seconds within this (half the round trip, seconds): loopback and a LAN answer well
    /// within it, a busy machine may take a few batches of questions.
    static let wantedUncertainty = 0.004
    /// How long to go on asking for a precise clock before following with the best answer.
    static let measureLimit = 3.0

    func validate() throws {
        if let url {
            do {
                let address = try BrokerAddress(parsing: url)
                if let problem = address.passwordProblem(insecure: trust.insecure) { throw ValidationError(problem) }
            } catch let error as BrokerAddressError {
                throw ValidationError("the address: \(error.message)")
            }
        }
        try trust.check(url)
        if let name, let problem = ParticipantName.check(name) {
            throw ValidationError("--name: \(problem), got \(VisibleText.escape(name))")
        }
        try request(speed: 1).validate()
    }

    func request(speed: Double) -> RunRequest {
        var request = RunRequest(routine: "follow")
        request.speed = speed
        cues.apply(to: &request)
        sensing.apply(to: &request)
        // The coach's workout is the coach's: this machine keeps no history of it.
        request.noHistory = true
        return request
    }

    func run() throws {
        let address = try brokerAddress()
        let athleteSettings: [ParameterSetting]
        do {
            // The athlete file's max_hr and ftp: this athlete's zones, not the coach's.
            athleteSettings = try AthleteFile(directories: UserDirectories(environment: Terminal.environment)).settings(under: [])
        } catch {
            Output.error("workout: \(error.message)")
            throw ExitCode.failure
        }
        let participant = try participantName()
        let topics = ClassTopics(prefix: address.prefix)
        let connection: BrokerConnection
        let warn: @Sendable (String) -> Void = { text in DispatchQueue.main.async { Output.error("workout: \(text)") } }
        do {
            connection = try BrokerConnection.open(
                address, clientID: "workout-follow-\(participant)-\(getpid())", willTopic: topics.participant(participant),
                will: ParticipantPublisher.gone(participant), willRetained: false, warn: warn)
        } catch {
            Output.error("workout: \(error.message)")
            throw ExitCode.failure
        }
        // A command runs on the main thread: the link, the wait and the run are its.
        let status = try MainActor.assumeIsolated { () throws -> Int32 in
            let link = CoachLink(connection: connection, id: "\(participant)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))",
                                 warn: warn)
            link.start()
            let joined: Joined
            do throws(FollowError) {
                joined = try waitForCoach(link)
            } catch {
                Output.error("workout: \(error.message)")
                connection.close(lastWords: (topics.participant(participant), ParticipantPublisher.gone(participant)),
                                 retainLastWords: false)
                throw ExitCode.failure
            }
            return follow(joined, link: link, participant: participant, athleteSettings: athleteSettings)
        }
        throw ExitCode(status)
    }

    @MainActor
    private func follow(_ joined: Joined, link: CoachLink,
                        participant: String, athleteSettings: [ParameterSetting]) -> Int32 {
        let topics = link.topics
        let assembly: RunAssembly
        do throws(ServeError) {
            var request = request(speed: joined.speed)
            request.settings = athleteSettings
            assembly = try RunAssembly(request, routine: joined.routine, serving: nil,
                                       origin: UInt64(min(max(0, joined.origin * 1e9), Double(UInt64.max / 2))))
        } catch {
            return error.exitStatus
        }
        let say: (String) -> Void = { text in
            if let display = assembly.display { display.warn(text) } else { Output.error(text) }
        }
        if let note = joined.note { say("workout: \(note)") }
        let follower = ClassFollower(link: link, session: assembly.session, origin: joined.origin,
                                     generated: joined.generated, timelineRead: joined.timelineVersion, say: say)
        let participants = ParticipantPublisher(connection: link.connection, topic: topics.participant(participant),
                                                name: participant, snapshot: assembly.session.snapshot)
        // Right after the session's start, in the run loop: to the coach's segment.
        let json = cues.json, session = MainThreadBox(assembly.session)
        DispatchQueue.main.async {
            // Where this run joined, in the coach's clock: its events' `t` plus `coach_t`
            // are the coach's.
            if json {
                Output.line(JSONValue.object([
                    ("event", .string("follow")), ("t", .integer(0)),
                    ("coach_t", .number(Number.rounded(session.value.startTime, places: 6))),
                    ("uncertainty_ms", .number(Number.rounded((link.clock.uncertainty ?? 0) * 1000, places: 3))),
                ]).text)
            }
            follower.start()
            participants.start()
        }
        let status = assembly.run()
        follower.finish()
        participants.finish()
        link.connection.close(lastWords: (topics.participant(participant), ParticipantPublisher.gone(participant)),
                              retainLastWords: false)
        return follower.failed ? 1 : status
    }

    /// Turns the run loop until the coach's timeline is here, its workout runs and the
    /// clocks are measured; a timeline that cannot be followed is an error.
    @MainActor
    private func waitForCoach(_ link: CoachLink) throws(FollowError) -> Joined {
        var said = false
        var askedAt: Date?
        var problem: FollowError?
        var result: Joined?
        let source = VisibleText.escape(link.topics.timeline)
        var read: FollowedTimeline.Read?
        var readVersion = 0
        var readFrom: [UInt8]?
        let check = {
            if let text = link.timelineProblem { problem = FollowError(VisibleText.escape(text)); return }
            // The timeline is read as it comes: one that cannot be followed is refused at once.
            if let bytes = link.timeline, bytes != readFrom {
                readFrom = bytes
                do throws(FollowError) {
                    read = try FollowedTimeline.read(bytes, source: source)
                    readVersion = link.timelineVersion
                } catch {
                    problem = error
                    return
                }
            }
            // The class ended while this follower measured its clock (a short class, answers
            // slow on a busy machine): said, not waited on for ever.
            if askedAt != nil, link.online == false || link.state?.phase == .finished {
                problem = FollowError("the coach's workout on \(VisibleText.escape(link.connection.address.description)) "
                                      + "ended before this follower could join it")
                return
            }
            guard let read, let state = link.state, state.joinable, link.online == true else {
                if !said {
                    said = true
                    Output.error("workout: waiting for the coach's workout on \(VisibleText.escape(link.connection.address.description))…")
                }
                return
            }
            if askedAt == nil {
                askedAt = Date()
                link.askSeveral(6)
                return
            }
            let precise = link.clock.count >= 6 && link.clock.isWithin(Self.wantedUncertainty)
            guard precise || (link.clock.count >= 1 && Date().timeIntervalSince(askedAt!) > Self.measureLimit),
                  let origin = link.clock.origin, let speed = link.clock.speed else { return }
            result = Joined(routine: read.routine, origin: origin, speed: speed, note: read.note, generated: read.generated,
                            timelineVersion: readVersion)
        }
        link.changed = { check(); MainLoop.wake() }
        // The clock's answers may all be lost, or all have waited in queues on a busy
        // machine: ask again until a precise one comes (the best round trip is kept).
        let retry = DispatchSource.makeTimerSource(queue: .main)
        retry.setEventHandler { MainActor.assumeIsolated {
            if let askedAt, Date().timeIntervalSince(askedAt) >= Self.measureTime,
               !link.clock.isWithin(Self.wantedUncertainty) {
                link.askSeveral(6)
            }
            check()
        } }
        retry.schedule(deadline: .now() + Self.measureTime, repeating: Self.measureTime)
        retry.resume()
        defer { retry.cancel() }
        check()
        MainLoop.run { problem != nil || result != nil }
        link.changed = {}
        if let problem { throw problem }
        return result!
    }

    /// The command line's address, or the athlete file's; with the CA of `--mqtt-ca`, or
    /// the file's `mqtt_ca`, and the password from where it is given (`BrokerPassword.swift`).
    private func brokerAddress() throws -> BrokerAddress {
        do {
            let file = AthleteFile(directories: UserDirectories(environment: Terminal.environment))
            let options = try file.runOptions()
            let address: BrokerAddress
            if let url, let given = try? BrokerAddress(parsing: url) {
                address = given
            } else if let line = options["mqtt"] {
                address = try BrokerAddress.fromFile(line, insecure: trust.insecure)
            } else {
                throw ValidationError("follow needs the coach's address: mqtt://HOST/PREFIX (or mqtt = … in the athlete file)")
            }
            return try address.withGivenCA(trust.mqttCa).withCA(from: file, options: options)
                .withPassword(file: trust.mqttPasswordFile, insecure: trust.insecure, environment: Terminal.environment,
                              from: file, options: options)
        } catch let error as RoutineError {
            Output.error("workout: \(error.message)")
            throw ExitCode.failure
        }
    }

    private func participantName() throws -> String {
        if let name { return name }
        let user = UserDirectories(environment: Terminal.environment).userName
        if let problem = ParticipantName.check(user) {
            throw ValidationError("--name is needed: your user name cannot be one (\(problem))")
        }
        return user
    }
}

/// The coach's workout as a follower joins it: the routine built from the timeline, where
/// the coach's clock reads 0 and its speed, what to say once of the coach's own sounds,
/// and for a coach that generates segments what the follower has of them and the link's
/// timeline version they were read from.
struct Joined {
    var routine: Routine
    var origin: Double
    var speed: Double
    var note: String?
    var generated: GeneratedSegments?
    var timelineVersion: Int
}
