import WorkoutValues

/// Sensors' values in words, the same on every output: `150 bpm  200 W  90 rpm` (the
/// quantities shown `inWords`, in `SensorQuantity`'s order).
public enum SensorText {
    public static func values(_ values: [SensorQuantity: Double]) -> String {
        SensorQuantity.allCases.filter(\.inWords).compactMap { quantity in values[quantity].map(quantity.words) }
            .joined(separator: "  ")
    }
}
