/// What ends an open segment on a sample: the heart rate below a number of beats per
/// minute, or a routine's function of the sample returning true.
package enum SampleCondition: Sendable, Equatable {
    case hrBelow(Int)
    case function(RoutineReference)
}
