import WorkoutValues

/// A mistake in how a routine called the API, or an action the session refuses (too much
/// sound waiting, too many scores). Swift code throws it; the Lua bridge raises it in the
/// routine as an error prefixed with its file:line (`APIError.entry`).
package struct APIError: Error {
    package var message: String

    package init(_ message: String) {
        self.message = message
    }
}

/// What a running workout does for the routine's actions. The session implements it;
/// while a file is still loading there is none, and the actions say so.
package protocol RoutineActions: AnyObject {
    func ringBell()
    /// The visual bell: the live display flashes its band.
    func flashBand()
    func notify(title: String, body: String?)
    /// `say(text)`, refused past what may wait in all (`HeardLimits`); `function` names
    /// the call in the refusal.
    func say(_ text: String, from function: String) throws(APIError)
    /// `sound(name)` and `tone{}`, refused past what may wait in all (`HeardLimits`).
    func sound(_ sound: Sound, from function: String) throws(APIError)
    /// `sound(name)` of a file the routine did not name while it loaded: an event that
    /// says why nothing plays.
    func unheardSound(_ text: String)
    func log(_ text: String)
    /// `skip()`, `extend()` and `pause()`: the same door as keys and buttons.
    func control(_ command: SessionCommand)
    func record(_ score: Score) throws(APIError)
    /// What the tally `name` has counted so far.
    func tally(_ name: String) -> Int
    /// `erg(watts)`: the trainer's target power.
    func erg(_ watts: Int)
}
