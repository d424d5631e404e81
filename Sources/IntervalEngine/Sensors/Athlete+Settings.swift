import WorkoutValues

extension Athlete {
    /// From `--set` values; a value that is not what its setting takes is a usage error.
    public init(settings: [ParameterSetting]) throws(RoutineError) {
        self.init()
        for setting in settings where Self.settingNames.contains(setting.name) {
            guard let value = Self.value(setting.name, setting.text) else {
                throw RoutineError("--set \(setting.argument): \(setting.name) must be \(Self.expected(setting.name))",
                                   isUsage: true)
            }
            switch setting.name {
            case "max_hr": maxHeartRate = value
            case "ftp": ftp = value
            case "threshold_pace": thresholdPace = value
            case "foot_pod_factor": footPodFactor = value
            default: maxSpeed = value
            }
        }
    }

    /// `text` as the setting `name` takes it (`Athlete.value`), its numbers plain
    /// decimals (`PlainNumber`: not `0x10`, not `1e-320`), else nil.
    static func value(_ name: String, _ text: String) -> Double? {
        value(name, text) { PlainNumber.decimal($0) }
    }
}
