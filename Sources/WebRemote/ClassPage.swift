/// `/class`: the class of `run --mqtt` on a TV — a card for each participant (name,
/// heart rate in its zone's colour, power, the time in each zone), sorted by the field
/// `?sort=` names (`name`, `hr`, `power`, `zone`) or the page's own control, away
/// participants last and dim. Self-contained like the live page (no CDN). It follows
/// `/class/events` (`ClassFeed`): the whole roster first, then each participant's reading
/// pushed the moment the coach's run keeps it, so a reading reaches the screen within
/// milliseconds instead of waiting for a poll; every name is set with `textContent`, never
/// as markup. Its Content-Security-Policy lets it run its own inline script and style and fetch
/// from this server only.
enum ClassPage {
    static let policy = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
        + "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'"

    /// `/class.json` of a run without a class.
    static let noClass = #"{"participants":[],"dropped":0,"refused":0,"ignored":0,"class":false}"#

    static let html = PageScaffold.head(title: "workout · class", style: style) + body

    private static let body = """
        <body>
        <header>
          <span id="title">Class</span>
          <span id="count"></span>
          <label>sort by <select id="sort">
            <option value="name">name</option><option value="hr">heart rate</option>
            <option value="power">power</option><option value="zone">zone</option>
          </select></label>
        </header>
        <main id="class"></main>
        <p id="empty">Waiting for participants on the broker…</p>
        <script>\(PageScaffold.script)\(script)</script>
        </body>
        </html>

        """

    static let style = """
        header { display: flex; gap: 1.5em; align-items: center; padding: .5em 1em; color: #888;
          font-size: clamp(14px, 2vmin, 28px); }
        #title { color: #eee; font-weight: 700; } header label { margin-left: auto; }
        select { font: inherit; background: #222; color: #eee; border: 1px solid #444; }
        main { display: grid; grid-template-columns: repeat(auto-fill, minmax(clamp(150px, 15vw, 400px), 1fr));
          gap: .6vmin; padding: 0 1vmin; }
        .card { background: #1c1c1c; border-radius: .4em; padding: .3em .6em; font-size: clamp(12px, 1.8vmin, 30px);
          border-left: .35em solid #444; }
        .card.away { opacity: .35; }
        .name { font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
        .hr { font-size: 2.4em; font-weight: 800; font-variant-numeric: tabular-nums; line-height: 1.1; }
        .power { color: #ccc; margin-left: .5em; font-variant-numeric: tabular-nums; }
        .zones { display: flex; height: .5em; border-radius: .2em; overflow: hidden; background: #333; margin-top: .2em; }
        .zones span { height: 100%; }
        .z1 { background: #bbb; } .z2 { background: #6af; } .z3 { background: #6d6; } .z4 { background: #fd4; }
        .z5 { background: #f55; }
        .time { color: #888; font-size: .9em; font-variant-numeric: tabular-nums; }
        #empty { text-align: center; color: #888; font-size: 3vmin; }
        """

    static let script = #"""
        const fields = ["name", "hr", "power", "zone"];
        let sortBy = fields.includes(params.get("sort")) ? params.get("sort") : "name";
        $("sort").value = sortBy;
        $("sort").addEventListener("change", () => { sortBy = $("sort").value; render(); });
        // The roster by id: replaced whole by each `roster` event, one participant changed by
        // each `participant` event; never more than the server's 256.
        let people = new Map();
        const most = 256;
        // For tests and the benchmark: each change of a participant's heart rate as shown
        // (ms since the epoch), the latest 5,000.
        window.classShown = [];
        const shownHR = new Map();
        function mmss(s) { return Math.floor(s / 60) + ":" + String(Math.floor(s % 60)).padStart(2, "0"); }
        function compare(a, b) {
          if (a.away !== b.away) return a.away ? 1 : -1;
          const number = (v) => (v === null || v === undefined ? -1 : v);
          let order = 0;
          if (sortBy === "hr") order = number(b.hr) - number(a.hr);
          else if (sortBy === "power") order = number(b.power) - number(a.power);
          else if (sortBy === "zone") order = number(b.hr_zone) - number(a.hr_zone) || number(b.hr) - number(a.hr);
          return order || a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
        }
        function card(p) {
          const div = document.createElement("div");
          div.className = "card" + (p.away ? " away" : "") + (p.hr_zone ? " zone" + p.hr_zone : "");
          div.dataset.id = p.id;
          const name = document.createElement("div");
          name.className = "name";
          name.textContent = p.name;
          const line = document.createElement("div");
          const hr = document.createElement("span");
          hr.className = "hr" + (p.hr_zone ? " zone" + p.hr_zone : "");
          hr.textContent = p.away ? "away" : p.hr === null ? "–" : String(p.hr);
          const power = document.createElement("span");
          power.className = "power";
          power.textContent = p.power === null || p.away ? "" : p.power + " W";
          line.append(hr, power);
          const zones = document.createElement("div");
          zones.className = "zones";
          const total = p.zones.reduce((a, b) => a + b, 0);
          p.zones.forEach((seconds, i) => {
            if (seconds <= 0) return;
            const part = document.createElement("span");
            part.className = "z" + (i + 1);
            part.style.width = (100 * seconds / total) + "%";
            zones.append(part);
          });
          const time = document.createElement("div");
          time.className = "time";
          time.textContent = p.hr_zone ? "Z" + p.hr_zone + " " + mmss(p.zones[p.hr_zone - 1]) : "";
          div.append(name, line, zones, time);
          return div;
        }
        function render() {
          const shown = [...people.values()].sort(compare);
          $("class").replaceChildren(...shown.map(card));
          $("empty").hidden = shown.length > 0;
          const here = shown.filter((p) => !p.away).length;
          $("count").textContent = here + " here" + (shown.length > here ? ", " + (shown.length - here) + " away" : "");
          const now = performance.timeOrigin + performance.now();
          for (const p of shown) {
            if (shownHR.get(p.id) !== p.hr) {
              shownHR.set(p.id, p.hr);
              window.classShown.push({ id: p.id, hr: p.hr, at: now });
            }
          }
          if (window.classShown.length > 5000) window.classShown.splice(0, window.classShown.length - 5000);
        }
        // A class's readings come in bursts (30 participants in the same few milliseconds):
        // the roster changes with each, the screen once a frame.
        let drawing = false;
        function draw() {
          if (drawing) return;
          drawing = true;
          requestAnimationFrame(() => { drawing = false; render(); });
        }
        listen("class/events", {
          roster: (message) => {
            people = new Map(JSON.parse(message.data).participants.slice(0, most).map((p) => [p.id, p]));
            draw();
          },
          participant: (message) => {
            const p = JSON.parse(message.data);
            if (!people.has(p.id) && people.size >= most) return;
            people.set(p.id, p);
            draw();
          },
        }, (connected) => document.body.classList.toggle("connected", connected));
        """#
}
