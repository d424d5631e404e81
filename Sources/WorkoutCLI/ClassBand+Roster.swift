import ClassPublishing
import Display

extension ClassBand {
    /// The roster as the live display's row shows it: present participants by name first,
    /// the away ones after them.
    init(_ roster: ClassRoster) {
        let (roster, now) = roster.read()
        let people = roster.byName
        let entries = people.map { person in
            Entry(name: person.name, hr: person.hr, zone: person.zone, power: person.power, away: person.away(at: now))
        }
        self.init(entries: entries.filter { !$0.away } + entries.filter(\.away))
    }
}
