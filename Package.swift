// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "workout",
    products: [
        .executable(name: "workout", targets: ["workout"]),
        .executable(name: "workout-serve", targets: ["workout-serve"]),
        .library(name: "IntervalEngine", targets: ["IntervalEngine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0"),
        // The sockets and epoll loop of `run --serve`'s HTTP server (FlyingFox's FlyingSocks;
        // docs/design.md: why, and why the HTTP is workout's own).
        .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1"),
    ],
    // The modules in layers, each importing only from the layers below it: the C headers;
    // WorkoutValues, FIT and DBus; Platform, GATT, Broker and Display (no engine); IntervalEngine;
    // PastSessions, SoundFiles, SoundPlayer, Serving, Interchange, RemoteControl; LuaBridge,
    // History, BlueZ, Music, ClassPublishing, IntervalsICU; Activity, ClassFollowing; WorkoutCLI
    // and WebRemote; the executables (docs/design.md, Modules). No module re-exports another
    // (no `@_exported import`): each imports what it names.
    targets: [
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"]), .brew(["lua"])]
        ),
        // Clocks and timers that Glibc's Swift module does not export (header only).
        .systemLibrary(name: "CSystem"),
        // The desktop's sound server: PulseAudio, or PipeWire through pipewire-pulse. Header
        // only (Debian's libpulse-dev): libpulse is opened at run time, not linked
        // (Sources/CPulse/shim.h, docs/design.md).
        .systemLibrary(name: "CPulse"),
        // The sound files a routine names, decoded by libsndfile. Header only (Debian's
        // libsndfile1-dev): the library is opened at run time, as libpulse is.
        .systemLibrary(name: "CSndfile"),
        // The MQTT client library of `run --mqtt`. Header only (Debian's libmosquitto-dev):
        // libmosquitto is opened at run time, as libpulse is.
        .systemLibrary(name: "CMosquitto"),
        // The values a viewer reads of a workout, without the engine: the snapshot, a
        // segment's summary, a command, the sensors' readings and which of them are plausible,
        // the texts of times, numbers and targets. Foundation only. Nothing re-exports it:
        // each module that names one of its values imports it.
        .target(name: "WorkoutValues"),
        // FIT files' bytes (Garmin's Flexible and Interoperable Data Transfer protocol): the
        // encoder, the decoder and a segment kind's FIT intensity. A module of its own, not
        // the engine's: only activity files (Activity) and workout files (Interchange) use
        // it, and a session never does. Pure Swift, no dependency.
        .target(name: "FIT"),
        // What workout asks of the system, below the engine: child processes (`ChildProcess`,
        // `ExecutableSearch`), signal handlers, the terminal's reset sequence, the user's
        // folders (`UserDirectories`), files read within a bound and written whole
        // (`BoundedFile`, `SavedFile`), the monotonic clock, and `LastResort`, the line the
        // watchdog appends as the process ends. No engine: the engine and the modules above
        // it use these, and the watchdog (LuaBridge) and the history's recorder meet in
        // `LastResort` without knowing each other.
        .target(name: "Platform", dependencies: ["WorkoutValues", "CSystem"]),
        // The engine: a routine as plain values and its timeline, the session (its phase,
        // boundaries, commands, the hooks it calls through `RoutineHooks`, its listeners),
        // scheduling on the clocks, events and their JSON, the alert policy, the sounds a
        // session plans (built in, a sound file's samples, speech) and the sensors' settings.
        // No FIT, no past sessions, no serving, no libsndfile: what is not the running
        // workout is in other modules, plugged into a session through the engine's protocols
        // (`SessionListener`, `RoutineHooks`, `AlertPlayer`, `SoundOutput`).
        .target(name: "IntervalEngine", dependencies: ["WorkoutValues", "Platform", "CSystem"]),
        // The past sessions as values, apart from how they are stored: one session
        // (`HistoryEntry`, its laps, pauses and participants), and what a routine's `history`
        // reads of its own sessions (`RoutineHistory`), asked of a `HistorySource`. Not the
        // engine's: a session never reads them. Not History's: LuaBridge reads a routine's
        // past sessions and never the history file, which History implements the source with.
        .target(name: "PastSessions", dependencies: ["WorkoutValues", "IntervalEngine"]),
        // The sound files a routine names: found beside it or in the user's sounds folder
        // (`SoundFolders`), decoded by libsndfile (`SoundFile.load`), each once per routine
        // and within its bounds (`RoutineSoundFiles`). Not the engine's, which only holds the
        // samples and never links or opens libsndfile; LuaBridge reads the files as a routine
        // loads.
        .target(name: "SoundFiles", dependencies: ["WorkoutValues", "IntervalEngine", "Platform", "CSndfile"]),
        // The routine's Lua: the sandboxed state, the routine API and its constructors, the
        // loader that runs a file into a Routine, the hooks the session calls
        // (IntervalEngine's RoutineHooks), the user's sounds file, the editor definitions.
        .target(name: "LuaBridge", dependencies: ["WorkoutValues", "IntervalEngine", "Platform", "PastSessions", "SoundFiles", "CLua", "CSystem"]),
        // The history of sessions: `history.jsonl` and its lines, the recorder that writes a
        // session's line, and what `workout history` reads from it (reports, statistics,
        // exports, forgetting). A routine reads its past sessions through PastSessions'
        // `HistorySource`, which the file is.
        .target(name: "History", dependencies: ["WorkoutValues", "IntervalEngine", "Platform", "PastSessions"]),
        // A session's samples (the CSV beside the history) and its activity files, FIT and
        // TCX, for Strava, Garmin Connect and the like: `history export --format fit|tcx`.
        .target(name: "Activity", dependencies: ["WorkoutValues", "IntervalEngine", "Platform", "PastSessions", "History", "FIT"]),
        // Workout files other tools keep (Zwift .zwo, intervals.icu text, FIT workouts, .erg
        // and .mrc courses), read into and written from WorkoutFile, one WorkoutCodec each:
        // `workout import` and `workout export`.
        .target(name: "Interchange", dependencies: ["WorkoutValues", "IntervalEngine", "FIT"]),
        // QR codes of the page's address for `run --serve` (header only; links libqrencode).
        .systemLibrary(
            name: "CQREncode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"]), .brew(["qrencode"])]
        ),
        // What makes a run heard: the engine's sounds rendered to samples (`Synthesizer`, with
        // sound files resampled to the output's rate) and played through libpulse on its own
        // thread; the other applications' streams (`OtherStreams`); and the alerts through the
        // desktop's programs (`SystemAlerts`: the bell, notify-send, spd-say or espeak-ng).
        // None of it is the engine's, which decides what is heard and when.
        .target(name: "SoundPlayer", dependencies: ["WorkoutValues", "IntervalEngine", "Platform", "CPulse"]),
        // The live display's pure parts, from the snapshot's values alone: no engine, no Lua.
        .target(name: "Display", dependencies: ["WorkoutValues"]),
        // libsystemd's sd-bus. Header only (Debian's libsystemd-dev): the library is opened
        // at run time, not linked (Sources/CSDBus/shim.h, docs/design.md).
        .systemLibrary(name: "CSDBus"),
        // D-Bus: a connection to the system or the session bus through sd-bus, the values
        // read from it and the arguments written to it, and logind's sleep inhibitor.
        .target(name: "DBus", dependencies: ["CSDBus"]),
        // The Bluetooth sensors' values as the GATT specifications lay them out: heart rate,
        // cycling power, speed and cadence, the trainer's data and control point; what is not
        // plausible (WorkoutValues' PlausibleReadings) is no value. Values only: no engine.
        .target(name: "GATT", dependencies: ["WorkoutValues"]),
        // Bluetooth sensors and trainers through BlueZ on the system bus.
        .target(name: "BlueZ", dependencies: ["WorkoutValues", "IntervalEngine", "GATT", "DBus"]),
        // The music lowered or paused under the cues: the other applications' streams on
        // the sound server (SoundPlayer's OtherStreams) and the MPRIS players on the session
        // bus.
        .target(name: "Music", dependencies: ["IntervalEngine", "Platform", "DBus", "SoundPlayer"]),
        // A command from a remote, read and checked the same way from the served page's
        // POST /control and from the broker's PREFIX/cmd.
        .target(name: "RemoteControl", dependencies: ["WorkoutValues", "IntervalEngine"]),
        // One connection to an MQTT broker through libmosquitto, on mosquitto's own thread.
        // Topics and bytes: no engine.
        .target(name: "Broker", dependencies: ["WorkoutValues", "CMosquitto"]),
        // `run --mqtt`: the session published on a broker (state, events, availability,
        // Home Assistant's discovery) and the commands it takes from there.
        .target(name: "ClassPublishing", dependencies: ["WorkoutValues", "IntervalEngine", "PastSessions", "Broker", "RemoteControl"]),
        // `workout follow`: a coach's published workout run here in step, from its
        // timeline as data, on the coach's clock; this athlete's sensors published back.
        .target(name: "ClassFollowing", dependencies: ["WorkoutValues", "IntervalEngine", "Broker", "ClassPublishing"]),
        // What `run --serve` is started with and how a run sees its server: the address
        // (`ServeAddress`), the `WorkoutServer` protocol, `ServeRequest` and `ServeStarter`.
        // Not the engine's (a session never serves), and not WebRemote's either: WorkoutCLI
        // needs these too, and is linked into `workout`, which must not link WebRemote's HTTP
        // library (FlyingFox, for start-up time); nor WorkoutCLI's, as WebRemote sits beside
        // it and never sees the command line. So both import this small module, and
        // `workout-serve` hands WebRemote's starter to WorkoutCLI through it.
        .target(name: "Serving", dependencies: ["WorkoutValues", "IntervalEngine"]),
        // libcurl's easy interface. Header only (Debian's libcurl4-openssl-dev): libcurl is
        // opened at run time, not linked, so that a command that never talks to intervals.icu
        // does not load it (docs/decisions/0020-libcurl-at-run-time.md).
        .systemLibrary(name: "CCurl"),
        // The athlete's intervals.icu calendar: the HTTP client (libcurl's), the API key,
        // the service's statuses in words, the day's planned workouts. Their steps are read
        // by Interchange's WorkoutDocReader, as other tools' workout files are.
        .target(name: "IntervalsICU", dependencies: ["WorkoutValues", "IntervalEngine", "Platform", "CCurl"]),
        // The command line, shared by `workout` and `workout-serve`.
        .target(
            name: "WorkoutCLI",
            dependencies: [
                "WorkoutValues",
                "IntervalEngine",
                "Platform",
                "Serving",
                "PastSessions",
                "LuaBridge",
                "History",
                "Activity",
                "Interchange",
                "IntervalsICU",
                "Display",
                "SoundPlayer",
                "DBus",
                "BlueZ",
                "Music",
                "Broker",
                "ClassPublishing",
                "ClassFollowing",
                "CSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `run --serve`: the page, the HTTP API and the event feed of a running workout. It
        // knows the engine and Serving's `WorkoutServer` protocol, not the command line.
        .target(
            name: "WebRemote",
            dependencies: [
                "WorkoutValues",
                "IntervalEngine",
                "Platform",
                "Serving",
                "RemoteControl",
                "CQREncode",
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ]
        ),
        // Every command; `run --serve` is handed to workout-serve, so that the HTTP
        // library does not slow every command's start-up (docs/design.md, Serving).
        .executableTarget(
            name: "workout",
            dependencies: ["WorkoutCLI"],
            resources: [.copy("programs")]
        ),
        .executableTarget(
            name: "workout-serve",
            dependencies: ["WorkoutCLI", "WebRemote"]
        ),
        // What both test targets use: a session on the virtual clock that records its events
        // (Harness), and loading a routine from text. Plain imports, no @testable: it builds
        // in every configuration, as `swift build -c release` builds every target.
        .target(
            name: "TestSupport",
            dependencies: ["WorkoutValues", "IntervalEngine", "LuaBridge"],
            path: "Tests/TestSupport"
        ),
        // The unit tests (`make test-unit`): the engine, the display's pure parts and the
        // listeners' own timers on the virtual clock, no processes.
        .testTarget(
            name: "UnitTests",
            dependencies: [
                "TestSupport", "WorkoutValues", "Platform", "IntervalEngine", "FIT", "PastSessions", "LuaBridge", "History", "Activity", "GATT", "Interchange", "Display", "WorkoutCLI", "Broker",
                "BlueZ", "IntervalsICU", "Music", "DBus", "ClassPublishing", "ClassFollowing", "RemoteControl", "SoundPlayer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The system tests: the binary, tmux, pulseaudio, PipeWire, Chromium, a broker, the
        // .deb, each started by the test (Tests/lanes.py runs each class in a process of its own).
        .testTarget(
            name: "SystemTests",
            dependencies: [
                "TestSupport", "WorkoutValues", "Platform", "IntervalEngine", "FIT", "PastSessions", "SoundFiles", "SoundPlayer", "LuaBridge", "History", "Activity", "Interchange", "Display", "WebRemote", "WorkoutCLI", "BlueZ",
                "IntervalsICU", "Music", "Broker", "ClassPublishing", "ClassFollowing",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
