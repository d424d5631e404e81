import WorkoutValues

extension Athlete {
    /// From `--set` values; a value that is not a positive number is a usage error.
    public init(settings: [ParameterSetting]) throws(RoutineError) {
        self.init()
        for setting in settings where Self.settingNames.contains(setting.name) {
            guard let value = Self.value(setting.text) else {
                throw RoutineError("--set \(setting.argument): \(setting.name) must be a positive number", isUsage: true)
            }
            if setting.name == "max_hr" { maxHeartRate = value } else { ftp = value }
        }
    }

    /// `text` as max_hr or ftp: a plain decimal (`PlainNumber`: not `0x10`, not
    /// `1e-320`), positive and under 10,000, else nil.
    static func value(_ text: String) -> Double? {
        guard let value = PlainNumber.decimal(text), value > 0, value < 10_000 else { return nil }
        return value
    }
}
