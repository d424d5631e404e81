extension LivePage {
    /// Sized from the viewport, so one layout serves a phone upright, a tablet and a TV:
    /// the clock takes what the width and the height allow. The dark ground and the zones'
    /// colours (the heart rate's) are `PageScaffold`'s.
    static let style = """
        :root { --ink: #eee; --kind: #ddd; --dim: #888; }
        html, body { height: 100%; color: var(--ink); }
        body { display: flex; flex-direction: column; height: 100dvh;
          padding: env(safe-area-inset-top) env(safe-area-inset-right) env(safe-area-inset-bottom) env(safe-area-inset-left); }
        body.kind-warmup { --kind: #f5c542; } body.kind-work { --kind: #ff5a4f; }
        body.kind-rest { --kind: #4fd67a; } body.kind-cooldown { --kind: #4fd3e0; }
        body.kind-prep { --kind: #d77cf0; }
        header { display: flex; justify-content: space-between; align-items: center; gap: 1em;
          padding: .6em 1em; color: var(--dim); font-size: clamp(14px, 2.2vmin, 28px); }
        #paused { background: var(--ink); color: #111; font-weight: 700; padding: .1em .6em; border-radius: .3em; }
        #link { display: inline-block; width: .8em; height: .8em; border-radius: 50%; background: #c80;
          vertical-align: middle; margin-left: .4em; }
        body.connected #link { background: #3c6; } body.finished #link { background: #666; }
        main { flex: 1; display: flex; flex-direction: column; align-items: center; justify-content: center;
          gap: clamp(4px, 1.2vmin, 16px); padding: 0 4vw; min-height: 0; text-align: center; }
        #title { font-size: clamp(20px, 5vmin, 64px); font-weight: 600; }
        #kind { color: var(--kind); font-weight: 800; letter-spacing: .05em; }
        #clock { font-size: min(27vw, 36vh); line-height: 1; white-space: nowrap; font-weight: 700; color: var(--kind);
          font-variant-numeric: tabular-nums; letter-spacing: -.02em; }
        body.paused #clock { color: var(--dim); }
        .bar { width: min(92vw, 1400px); height: clamp(6px, 1.4vmin, 18px); background: #333; border-radius: 99px;
          overflow: hidden; }
        .bar > div { height: 100%; width: 0; background: var(--kind); }
        #workout-bar { width: auto; flex: 1; } #workout-bar > div { background: #aaa; }
        #info, #round, #message { font-size: clamp(15px, 3vmin, 40px); }
        #info { color: var(--ink); } #info b { color: var(--dim); font-weight: 400; }
        #next { font-size: clamp(15px, 3vmin, 40px); color: var(--dim); }
        #totals { display: flex; align-items: center; gap: .8em; width: min(92vw, 1400px);
          font-size: clamp(13px, 2.4vmin, 30px); color: var(--dim); font-variant-numeric: tabular-nums; }
        #message { color: #fc6; min-height: 1.2em; }
        #sensors { font-size: clamp(20px, 6vmin, 90px); font-weight: bold; font-variant-numeric: tabular-nums; }
        #sensors span + span { margin-left: 0.8em; }
        #sensors .stale { opacity: 0.4; }
        #tallies { display: flex; gap: 1em; font-size: clamp(22px, 7vmin, 120px); font-weight: 700;
          font-variant-numeric: tabular-nums; }
        #tallies:empty { display: none; }
        #tallies small { font-size: .45em; font-weight: 400; color: var(--dim); margin-left: .25em; }
        #set { font-size: clamp(14px, 2.6vmin, 32px); color: var(--dim); font-variant-numeric: tabular-nums; }
        #set:empty { display: none; }
        #counters { display: grid; grid-template-columns: 1fr 1fr; gap: clamp(4px, 1.2vmin, 14px);
          padding: 0 clamp(6px, 1.6vmin, 20px); }
        #counters button { min-height: 2.4em; padding: .5em .3em; }
        #done-button { display: none; background: var(--kind); color: #111; font-size: clamp(22px, 6vmin, 64px);
          font-weight: 800; letter-spacing: .08em; grid-column: span 3; }
        body.open #done-button { display: block; }
        body.open #pause, body.open #minus, body.open #plus { display: none; }
        body.open.paused #pause { display: block; } body.open.paused #done-button { grid-column: span 2; }
        nav { display: grid; grid-template-columns: repeat(5, 1fr) auto; gap: clamp(4px, 1.2vmin, 14px);
          padding: clamp(6px, 1.6vmin, 20px); }
        button { font: inherit; font-size: clamp(15px, 3vmin, 34px); font-weight: 600; color: var(--ink);
          background: #2a2a2a; border: 1px solid #444; border-radius: .5em; padding: .8em .3em; min-height: 3em;
          touch-action: manipulation; }
        button:active { background: #444; } button:focus-visible { outline: 3px solid var(--kind); }
        #pause { background: var(--kind); color: #111; }
        body.paused #pause { background: var(--ink); }
        #sound { padding: .8em .8em; color: var(--dim); } #sound[aria-pressed="true"] { color: var(--ink); }
        body.finished nav button:not(#sound), body.finished #counters button { opacity: .35; pointer-events: none; }
        @media (orientation: portrait) {
          nav { grid-template-columns: repeat(5, 1fr); }
          #sound { grid-column: 1 / -1; min-height: 2.2em; padding: .4em; }
        }
        """
}
