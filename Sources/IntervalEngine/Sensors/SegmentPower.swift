import WorkoutValues

/// What a trainer (or a treadmill) is given for a segment, worked out by the session as the segment starts
/// and carried by its `segment_start` (`Event.power`), so that ERG control need not read
/// the session back in the middle of an emit: the target from the segment's `info` and
/// the athlete's FTP, or, for a `power` in percent of an FTP the run does not have, the
/// finding to warn of.
public struct SegmentPower: Sendable, Equatable {
    /// Nil for a segment without a power target (or a free ride).
    public var target: ErgTarget?
    public var percentWithoutFTP: PercentWithoutFTP?
    /// What a treadmill is set to: nil without a pace or incline target.
    public var treadmill: TreadmillTarget?

    public init(part: SessionSnapshot.Part, athlete: Athlete, file: String) {
        target = ErgTarget(info: part.info, ftp: athlete.ftp)
        percentWithoutFTP = PercentWithoutFTP(file: file, part: part, ftp: athlete.ftp)
        treadmill = TreadmillTarget(info: part.info, athlete: athlete)
    }
}
