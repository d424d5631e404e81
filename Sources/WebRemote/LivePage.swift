import IntervalEngine
import WorkoutValues

/// The page a phone, tablet or TV opens: one self-contained document (no CDN, no
/// requests but `/events` and `/control`), embedded in the binary so that it works with
/// no internet and cannot drift from the server it comes with. While an open segment (a
/// set) runs, a large DONE takes the place of Pause (but for Resume while paused), −10 s and
/// +10 s; +1 round and Lap
/// are always there, for an AMRAP counts in timed segments too. The style and the script
/// are in `LivePage+Style.swift` and `LivePage+Script.swift`.
enum LivePage {
    static let html = PageScaffold.head(title: "workout", style: style, notch: true) + body

    /// A span for each quantity shown in words (`SensorQuantity.inWords`), by its key.
    private static let sensorSpans = SensorQuantity.allCases.filter(\.inWords).map { "<span id=\"\($0.key)\"></span>" }
        .joined(separator: " ")

    /// Every text is set with `textContent` by the script: a routine's names and info
    /// can never become markup.
    private static let body = """
        <body class="connecting">
        <header>
          <span id="routine">workout</span>
          <span id="paused" hidden>PAUSED</span>
          <span><span id="position"></span> <span id="link" role="status" aria-label="connecting" title="connecting"></span></span>
        </header>
        <main>
          <div id="title"><span id="kind"></span> <span id="name">Connecting…</span></div>
          <div id="clock" aria-live="off">–:––</div>
          <div id="sensors" hidden>\(sensorSpans)</div>
          <div id="tallies" aria-live="polite"></div>
          <div class="bar" id="segment-bar"><div></div></div>
          <div id="set"></div>
          <div id="info"></div>
          <div id="round"></div>
          <div id="next"></div>
          <div id="totals"><span id="done"></span><div class="bar" id="workout-bar"><div></div></div><span id="left"></span></div>
          <div id="message"></div>
        </main>
        <div id="counters">
          <button id="round-button" aria-label="One more round (r)">+1 round</button>
          <button id="lap" aria-label="Lap (l)">Lap</button>
        </div>
        <nav>
          <button id="back" aria-label="Back (b)">Back</button>
          <button id="minus" aria-label="Take away 10 seconds (-)">−10 s</button>
          <button id="pause" aria-label="Pause (space)">Pause</button>
          <button id="done-button" aria-label="Done (Enter)">DONE</button>
          <button id="plus" aria-label="Add 10 seconds (+)">+10 s</button>
          <button id="next-button" aria-label="Next (n)">Next</button>
          <button id="sound" aria-label="Sound on this device" aria-pressed="false">Sound off</button>
        </nav>
        <script>\(PageScaffold.script)\(script)</script>
        </body>
        </html>

        """
}
