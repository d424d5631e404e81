import WorkoutValues

/// The fitness machine characteristics' common shape (Indoor Bike, Treadmill and Rower
/// Data): 16 bits of flags, then the fields they announce in order, read into the
/// quantities they are, each plausible (`SensorQuantity.plausible`). A read that runs past
/// the end says so (false), and the decoder refuses the value.
struct FlaggedFields {
    var reader: GATTBytes
    let flags: UInt16
    var values: [SensorQuantity: Double] = [:]

    /// Nil when even the flags are missing.
    init?(_ value: [UInt8]) {
        reader = GATTBytes(value)
        guard let flags = reader.uint16() else { return nil }
        self.flags = flags
    }

    func has(_ bit: Int) -> Bool { flags & (1 << bit) != 0 }

    /// Reads a field into `quantity`, in units of 1/`per`; false when the bytes end.
    mutating func read(_ quantity: SensorQuantity, _ raw: Int?, per: Double = 1) -> Bool {
        guard let raw else { return false }
        values[quantity] = quantity.plausible(Double(raw) / per)
        return true
    }
}
