/// What the two served pages (`/`, `LivePage`, and `/class`, `ClassPage`) share, written
/// once so that they cannot drift apart: the document's head, the dark ground and the
/// heart-rate zones' colours of the style, and the start of the script — the token from
/// the address, `$`, and `listen`, a Server-Sent Events feed that reconnects.
enum PageScaffold {
    /// The document up to `<body>`. `notch`: the page reaches under a phone's notch (its
    /// style keeps clear of it with `env(safe-area-inset-…)`).
    static func head(title: String, style: String, notch: Bool = false) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1\(notch ? ", viewport-fit=cover" : "")">
        <meta name="referrer" content="no-referrer">
        <meta name="theme-color" content="#111">
        <link rel="icon" href="data:,">
        <title>\(title)</title>
        <style>\(PageScaffold.ground)
        \(style)
        \(PageScaffold.zones)</style>
        </head>

        """
    }

    /// The dark ground, before the page's own style.
    static let ground = """
        :root { color-scheme: dark; }
        * { box-sizing: border-box; }
        html, body { margin: 0; background: #111; color: #eee;
          font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
        """

    /// Each heart-rate zone's colour as text (`zone1`…`zone5`) and as a stripe's border,
    /// the terminal's five: after the page's style, so that a zone's colour wins.
    static let zones = """
        .zone1 { color: #bbb; border-color: #bbb; } .zone2 { color: #6af; border-color: #6af; }
        .zone3 { color: #6d6; border-color: #6d6; } .zone4 { color: #fd4; border-color: #fd4; }
        .zone5 { color: #f55; border-color: #f55; }
        """

    /// The script's start: strict, the token of the page's own address, `$`, and
    /// `listen(path, handlers, connected, over)`: the server's events at `path` (with the
    /// token), each named event to its handler (`message` for unnamed ones); after a loss
    /// `connected(false)` and a new connection 1, 2, 4, up to 8 s later, unless `over()`.
    static let script = #"""
        "use strict";
        const params = new URLSearchParams(location.search);
        const token = params.get("token") || "";
        const $ = (id) => document.getElementById(id);
        function listen(path, handlers, connected = () => {}, over = () => false) {
          let retry = 1000;
          const connect = () => {
            const source = new EventSource(path + "?token=" + encodeURIComponent(token));
            source.onopen = () => { retry = 1000; connected(true); };
            for (const [name, handle] of Object.entries(handlers)) source.addEventListener(name, handle);
            source.onerror = () => {
              source.close();
              connected(false);
              if (over()) return;
              setTimeout(connect, retry);
              retry = Math.min(retry * 2, 8000);
            };
          };
          connect();
        }

        """#
}
