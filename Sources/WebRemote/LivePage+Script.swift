import IntervalEngine
import WorkoutValues

extension LivePage {
    /// Follows `/events` (the snapshot first, then every event, and a fresh snapshot
    /// after each change) and counts down by itself between them from the snapshot's
    /// remaining time, one frame at a time, so the feed has nothing to send each second;
    /// an open segment's clock counts up from `elapsed_in_segment` instead (its
    /// `remaining` is only the way to its cap, or a day). Buttons and the terminal's keys
    /// post to `/control`. It follows `PageScaffold.script`, whose `listen` keeps the feed.
    /// `[["hr","bpm"],…]`: the key and unit of each quantity shown in words
    /// (`SensorQuantity.inWords`), for `renderSensors`.
    static let sensorUnits = JSONValue.array(SensorQuantity.allCases.filter(\.inWords).map {
        .array([.string($0.key), .string($0.unit)])
    }).text

    static let script = #"""
        let snap = null, snapAt = 0, wakeLock = null, audio = null;
        // For tests and the benchmark: when each segment was first shown (ms since the epoch:
        // updated, and in the next animation frame).
        window.workoutShown = [];

        // Whole seconds, as on the terminal; tenths in the last 3 s when the run has --tenths.
        function clockText(remaining) {
          const s = Math.max(0, remaining);
          const tenths = s > 3 || !snap.tenths ? Math.ceil(s - 1e-6) * 10 : Math.ceil(s * 10 - 1e-6);
          const whole = Math.floor(tenths / 10), h = Math.floor(whole / 3600), m = Math.floor(whole / 60) % 60;
          const sec = String(whole % 60).padStart(2, "0");
          const text = h > 0 ? h + ":" + String(m).padStart(2, "0") + ":" + sec : m + ":" + sec;
          return snap.tenths && tenths <= 30 ? text + "." + (tenths % 10) : text;
        }
        function hms(seconds) {
          const whole = Math.floor(seconds + 1e-6), h = Math.floor(whole / 3600), m = Math.floor(whole / 60) % 60;
          const s = String(whole % 60).padStart(2, "0");
          return h > 0 ? h + ":" + String(m).padStart(2, "0") + ":" + s : m + ":" + s;
        }
        function label(kind) {
          return kind === "warmup" ? "WARM-UP" : kind === "cooldown" ? "COOL-DOWN" : String(kind).toUpperCase();
        }
        // Workout seconds since the snapshot was taken, while running.
        function since() {
          return snap && snap.state === "running" && snap.segment ? (performance.now() - snapAt) / 1000 * snap.speed : 0;
        }
        function set(id, text) { const e = $(id); if (e.textContent !== text) e.textContent = text; }

        function render() {
          if (!snap) return;
          const seg = snap.segment, running = snap.state === "running";
          document.body.classList.toggle("paused", snap.paused);
          document.body.classList.toggle("finished", snap.state === "finished");
          $("paused").hidden = !snap.paused;
          set("routine", snap.routine);
          set("pause", snap.paused ? "Resume" : "Pause");
          document.body.classList.toggle("open", snap.open === true && snap.state !== "finished");
          renderTallies();
          $("pause").setAttribute("aria-label", snap.paused ? "Resume (space)" : "Pause (space)");
          if (!seg) { set("name", snap.state === "finished" ? "Finished" : "Starting…"); return; }
          for (const c of [...document.body.classList]) if (c.startsWith("kind-")) document.body.classList.remove(c);
          document.body.classList.add("kind-" + seg.kind.replace(/[^a-z0-9-]/gi, ""));
          set("kind", label(seg.kind));
          set("name", snap.state === "finished" ? "Finished" : seg.name);
          set("position", seg.index + "/" + (snap.count === null ? "…" : snap.count));
          const rounds = seg.round !== null && seg.rounds !== null ? "round " + seg.round + "/" + seg.rounds : "";
          set("round", [rounds, seg.block || ""].filter(Boolean).join(" · "));
          set("next", snap.next ? "next: " + snap.next.name + " " + (snap.next.open ? "open ~" : "") + hms(snap.next.duration)
            : snap.count !== null ? "last segment" : "");
          renderSet();
          renderInfo(seg.info);
          set("message", snap.message ? snap.message.text : "");
          renderSensors(snap.sensors);
          const last = window.workoutShown[window.workoutShown.length - 1];
          if (!last || last.index !== seg.index) {
            const entry = { index: seg.index, name: seg.name, at: performance.timeOrigin + performance.now() };
            window.workoutShown.push(entry);
            requestAnimationFrame(() => { entry.painted = performance.timeOrigin + performance.now(); });
          }
          tick();
          if (running) requestAnimationFrame(frame);
        }
        // Each quantity shown in words (heart rate in its zone's colour, power, cadence), rounded;
        // a dropped-out sensor's value dim.
        function renderSensors(s) {
          $("sensors").hidden = !s;
          if (!s) return;
          const stale = new Set(s.stale);
          const show = (id, value, unit) => {
            set(id, value === undefined ? "" : value + unit + (stale.has(id) ? "?" : ""));
            $(id).classList.toggle("stale", stale.has(id));
          };
          // A pace (its unit "/km", "/500m") as m:ss, as the terminal shows it.
          const paced = (v) => { const w = Math.round(v); return Math.floor(w / 60) + ":" + String(w % 60).padStart(2, "0"); };
          for (const [key, unit] of \#(sensorUnits)) {
            const pace = unit.startsWith("/");
            const value = s[key] === undefined ? undefined : pace ? paced(s[key]) : Math.round(s[key]);
            show(key, value, (pace ? "" : " ") + unit + (key === "hr" && s.hr_zone ? " Z" + s.hr_zone : ""));
          }
          $("hr").className = (stale.has("hr") ? "stale " : "") + (s.hr_zone ? "zone" + s.hr_zone : "");
        }
        function renderInfo(info) {
          const box = $("info");
          const key = JSON.stringify(info);
          if (box.dataset.key === key) return;
          box.dataset.key = key;
          box.textContent = "";
          if (info === null || typeof info !== "object") { if (info !== null) box.textContent = String(info); return; }
          for (const [k, v] of Object.entries(info).slice(0, 6)) {
            const b = document.createElement("b");
            b.textContent = (Array.isArray(info) ? "" : k + " ");
            const span = document.createElement("span");
            span.textContent = (typeof v === "object" ? JSON.stringify(v) : String(v)).slice(0, 80) + "  ";
            box.append(b, span);
          }
        }
        // The tallies, large beside the clock: `7 rounds`.
        function renderTallies() {
          const box = $("tallies"), entries = Object.entries(snap.tallies || {}).slice(0, 6);
          const key = JSON.stringify(entries);
          if (box.dataset.key === key) return;
          box.dataset.key = key;
          box.textContent = "";
          for (const [name, value] of entries) {
            const tally = document.createElement("span"), label = document.createElement("small");
            label.textContent = name;
            tally.append(String(value), " ", label);
            box.append(tally);
          }
        }
        // Under the bar: an open segment's cap (or that it waits for DONE), and the last lap.
        function renderSet() {
          const parts = [], laps = snap.laps || [];
          if (snap.open) parts.push(typeof snap.cap === "number" ? "cap " + hms(snap.cap) : "open: DONE when done");
          if (laps.length) parts.push("lap " + laps.length + " " + splitText(laps[laps.length - 1]));
          set("set", parts.join(" · "));
        }
        // A lap's split: `0:41.2`.
        function splitText(seconds) { return hms(seconds) + "." + Math.floor(seconds * 10 + 1e-6) % 10; }
        // What moves with time: the clock, both bars, the totals.
        function tick() {
          const seg = snap.segment;
          if (!seg) return;
          const gone = Math.min(since(), snap.remaining);
          const remaining = snap.state === "finished" ? 0 : snap.remaining - gone;
          // An open segment counts up, and its bar fills toward the cap if it has one; the
          // workout's time left counts only what it was expected to take.
          const open = snap.open === true && snap.state !== "finished";
          const elapsed = snap.elapsed_in_segment + gone;
          const shown = open ? hms(elapsed) : clockText(remaining);
          set("clock", shown);
          if (shown.length !== fittedLength) fit();
          const fraction = open ? (snap.cap ? Math.min(1, elapsed / snap.cap) : 0)
            : seg.duration > 0 ? 1 - remaining / seg.duration : 1;
          $("segment-bar").firstChild.style.width = 100 * fraction + "%";
          const done = snap.workout_done + gone;
          set("done", hms(done));
          if (snap.workout_left === null) { set("left", "open-ended"); return; }
          const expected = open ? Math.min(gone, Math.max(0, seg.duration - snap.elapsed_in_segment)) : gone;
          const left = Math.max(0, snap.workout_left - expected);
          set("left", hms(Math.ceil(left - 1e-6)) + " left");
          $("workout-bar").firstChild.style.width = (done + left > 0 ? 100 * done / (done + left) : 100) + "%";
        }
        // The clock as large as the screen allows: a third of its height, or less when the
        // digits would be wider than it (measured once per change of the text's length).
        let fittedLength = 0;
        function fit() {
          fittedLength = $("clock").textContent.length;
          const clock = $("clock"), size = Math.floor(window.innerHeight * 0.36), room = window.innerWidth * 0.9;
          clock.style.fontSize = size + "px";
          if (clock.scrollWidth > room) clock.style.fontSize = Math.floor(size * room / clock.scrollWidth) + "px";
        }
        window.addEventListener("resize", fit);
        function frame() {
          if (!snap || snap.state !== "running") return;
          tick();
          requestAnimationFrame(frame);
        }

        function take(text) {
          snap = JSON.parse(text);
          snapAt = performance.now();
          render();
          keepAwake();
        }
        function connect() {
          listen("events", {
            message: (message) => {
              const data = JSON.parse(message.data);
              if (!("event" in data)) { take(message.data); return; }
              heard(data);
            },
            snapshot: (message) => take(message.data),
          }, (connected) => {
            document.body.classList.toggle("connected", connected);
            status(connected ? "connected" : snap && snap.state === "finished" ? "finished" : "reconnecting");
          }, () => snap && snap.state === "finished");
        }
        function status(text) { $("link").setAttribute("aria-label", text); $("link").title = text; }
        // A new segment is shown the moment its event comes; the snapshot that follows
        // (the next segment, the totals) refines it a moment later.
        function started(event) {
          if (!snap) return;
          const fields = ["index", "count", "name", "kind", "duration", "round", "rounds", "block", "info"];
          snap.segment = Object.fromEntries(fields.map((key) => [key, event[key]]));
          snap.segment.open = snap.open = event.open === true;
          snap.cap = snap.open ? event.cap : null;
          snap.remaining = snap.open ? (event.cap === null ? 86400 : event.cap) : event.duration;
          snap.elapsed_in_segment = 0;
          snap.laps = [];
          snap.message = null;
          snapAt = performance.now();
          render();
        }
        function heard(event) {
          if (event.event === "segment_start") started(event);
          // A count or a lap shows at once; the snapshot that follows agrees.
          if (snap && event.event === "tally") { snap.tallies = { ...snap.tallies, [event.name]: event.value }; renderTallies(); }
          if (snap && event.event === "lap") { snap.laps = [...(snap.laps || []), event.split]; renderSet(); }
          // The terminal's bells, or where the terminal plays sounds instead, its sounds:
          // a short low beep for a countdown second (a pip), a long high one otherwise.
          if (event.event === "alert" && event.type === "bell") beep(/^\d+$/.test(event.text) ? 880 : 1320, event.text ? 0.12 : 0.4);
          if (event.event === "alert" && event.type === "sound") beep(event.text === "pip" ? 880 : 1320, event.text === "pip" ? 0.12 : 0.4);
          if (event.event === "workout_end") { document.body.classList.add("finished"); releaseWake(); }
        }

        async function control(body) {
          try {
            const response = await fetch("control", { method: "POST", body: JSON.stringify(body),
              headers: { "Authorization": "Bearer " + token, "Content-Type": "application/json" } });
            if (!response.ok) set("message", "The workout said: " + (await response.text()));
          } catch (e) { set("message", "Not sent: no connection to the workout"); }
        }
        $("pause").onclick = () => control({ action: "toggle" });
        $("next-button").onclick = () => control({ action: "next" });
        $("back").onclick = () => control({ action: "back" });
        $("plus").onclick = () => control({ action: "add", seconds: 10 });
        $("minus").onclick = () => control({ action: "add", seconds: -10 });
        $("done-button").onclick = () => control({ action: "done" });
        $("round-button").onclick = () => control({ action: "tally", name: "rounds", add: 1 });
        $("lap").onclick = () => control({ action: "lap" });
        $("sound").onclick = () => {
          const on = $("sound").getAttribute("aria-pressed") !== "true";
          if (on && !audio) audio = new (window.AudioContext || window.webkitAudioContext)();
          if (audio) on ? audio.resume() : audio.suspend();
          $("sound").setAttribute("aria-pressed", String(on));
          $("sound").textContent = on ? "Sound on" : "Sound off";
          if (on) beep(880, 0.08);
        };
        // The terminal's keys.
        document.addEventListener("keydown", (e) => {
          if (e.ctrlKey || e.metaKey || e.altKey) return;
          // Enter on a focused button is that button's press, not done.
          if (e.key === "Enter" && e.target instanceof HTMLButtonElement) return;
          const actions = { " ": { action: "toggle" }, "p": { action: "toggle" }, "n": { action: "next" },
            "b": { action: "back" }, "+": { action: "add", seconds: 10 }, "=": { action: "add", seconds: 10 },
            "-": { action: "add", seconds: -10 }, "_": { action: "add", seconds: -10 }, "enter": { action: "done" },
            "r": { action: "tally", name: "rounds", add: 1 }, "l": { action: "lap" } };
          const action = actions[e.key.toLowerCase()];
          if (action) { e.preventDefault(); control(action); }
          else if (e.key === "q" && confirm("End the workout?")) control({ action: "quit" });
        });

        function beep(frequency, seconds) {
          if (!audio || audio.state !== "running") return;
          const osc = audio.createOscillator(), gain = audio.createGain(), now = audio.currentTime;
          osc.frequency.value = frequency;
          gain.gain.setValueAtTime(0.0001, now);
          gain.gain.exponentialRampToValueAtTime(0.4, now + 0.01);
          gain.gain.exponentialRampToValueAtTime(0.0001, now + seconds);
          osc.connect(gain).connect(audio.destination);
          osc.start(now);
          osc.stop(now + seconds + 0.05);
        }
        // The screen stays on while the workout runs (where the browser allows it: a
        // secure context, such as 127.0.0.1).
        async function keepAwake() {
          const running = snap && snap.state === "running";
          if (!running) { releaseWake(); return; }
          if (wakeLock || !("wakeLock" in navigator) || document.visibilityState !== "visible") return;
          try {
            wakeLock = await navigator.wakeLock.request("screen");
            wakeLock.addEventListener("release", () => { wakeLock = null; });
          } catch (e) { wakeLock = null; }
        }
        function releaseWake() { if (wakeLock) { wakeLock.release(); wakeLock = null; } }
        document.addEventListener("visibilitychange", keepAwake);
        connect();
        """#
}
