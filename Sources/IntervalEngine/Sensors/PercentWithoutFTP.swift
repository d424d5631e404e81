import WorkoutValues

/// A segment whose only power target is `power` (percent of FTP) in a run without an FTP
/// (`--set ftp=…` or the athlete file): `ErgTarget` makes no target of it, so a trainer
/// in ERG mode would get none there and the rider keeps whatever resistance was last set.
/// `workout check` warns of the first such segment; `run` warns once when a trainer is
/// connected.
public struct PercentWithoutFTP: Sendable, Equatable {
    /// The routine's file name (`mine.lua`).
    public var file: String
    public var segment: SegmentSummary
    /// `power`'s value as the routine wrote it: `90`, or `{ low = 50, high = 100 }`.
    public var power: String

    /// The finding for `part`, or nil: it has an FTP, watts, free ride, or no `power`.
    public init?(file: String, part: SessionSnapshot.Part?, ftp: Double?) {
        guard ftp == nil, let part else { return nil }
        var ignored: Set<String> = []
        let targets = Targets(info: part.info, ignored: &ignored)
        guard !targets.has(.freeride), !targets.has(.watts), let bounds = targets.bounds(.power) else { return nil }
        self.file = file
        segment = part.segment
        power = bounds.low == bounds.high ? Number.format(bounds.low)
            : "{ low = \(Number.format(bounds.low)), high = \(Number.format(bounds.high)) }"
    }

    /// The warning, escaped for a terminal: where, which segment (and how many more
    /// after it are alike), and the two ways out.
    public func warning(more: Int = 0) -> String {
        let others = more == 0 ? "" : " (and \(more) more segment\(more == 1 ? "" : "s") after it)"
        return VisibleText.escape("\(file):\(segment.line): segment \(segment.index) \"\(segment.name)\"\(others) has power = \(power) "
                           + "(percent of FTP) but no FTP is set, so a trainer gets no power target there; "
                           + "give it watts = … instead, or set ftp = … (--set ftp=250, or ftp = 250 in the athlete file "
                           + "~/.config/workout/athlete)")
    }
}
