import IntervalEngine
import WorkoutValues

/// Home Assistant's MQTT discovery: one retained config per entity on
/// `homeassistant/COMPONENT/NODE_ID/OBJECT_ID/config`, so the workout's sensors and
/// buttons appear by themselves, grouped as one device, unavailable while the workout is
/// not running (`availability_topic`). Sensors read `PREFIX/state` through a template;
/// buttons send `POST /control`'s bodies to `PREFIX/cmd`.
public enum DiscoveryConfigs {
    /// Home Assistant's default discovery prefix.
    public static let discoveryPrefix = "homeassistant"

    struct Sensor {
        var id: String
        var name: String
        var field: String
        var unit: String?
        var deviceClass: String?
        var icon: String
        var numeric: Bool
    }

    static let sensors: [Sensor] = [
        Sensor(id: "segment", name: "Segment", field: "name", icon: "mdi:format-list-numbered", numeric: false),
        Sensor(id: "kind", name: "Kind", field: "kind", icon: "mdi:run-fast", numeric: false),
        Sensor(id: "remaining", name: "Remaining", field: "remaining", unit: "s", deviceClass: "duration",
               icon: "mdi:timer-sand", numeric: true),
        Sensor(id: "heart_rate", name: "Heart rate", field: "hr", unit: "bpm", icon: "mdi:heart-pulse", numeric: true),
        Sensor(id: "zone", name: "Heart rate zone", field: "hr_zone", icon: "mdi:heart-cog", numeric: true),
        Sensor(id: "power", name: "Power", field: "power", unit: "W", deviceClass: "power", icon: "mdi:flash",
               numeric: true),
    ]

    static let buttons: [(id: String, name: String, action: String, icon: String)] = [
        ("pause", "Pause", "pause", "mdi:pause"),
        ("resume", "Resume", "resume", "mdi:play"),
        ("next", "Next segment", "next", "mdi:skip-next"),
        ("done", "Done", "done", "mdi:check"),
    ]

    /// Every config, topic and payload, for `topics`' session; `version` is workout's.
    public static func all(_ topics: ClassTopics, version: String) -> [(topic: String, payload: JSONValue)] {
        let node = topics.nodeID
        let device: JSONValue = .object([
            ("identifiers", .array([.string(node)])),
            ("name", .string("workout \(topics.prefix)")),
            ("manufacturer", .string("workout")),
            ("model", .string("interval timer")),
            ("sw_version", .string(version)),
        ])
        let origin: JSONValue = .object([("name", .string("workout")), ("sw_version", .string(version))])
        let availability: [(String, JSONValue)] = [
            ("availability_topic", .string(topics.availability)),
            ("payload_available", .string(ClassTopics.online)),
            ("payload_not_available", .string(ClassTopics.offline)),
        ]
        var configs: [(String, JSONValue)] = []
        for sensor in sensors {
            var fields: [(String, JSONValue)] = [
                ("name", .string(sensor.name)),
                ("unique_id", .string("\(node)_\(sensor.id)")),
                ("state_topic", .string(topics.state)),
                ("value_template", .string("{{ value_json.\(sensor.field) }}")),
                ("icon", .string(sensor.icon)),
            ]
            if let unit = sensor.unit { fields.append(("unit_of_measurement", .string(unit))) }
            if let deviceClass = sensor.deviceClass { fields.append(("device_class", .string(deviceClass))) }
            if sensor.numeric { fields.append(("state_class", .string("measurement"))) }
            // The whole snapshot as the segment's attributes, for templates and cards.
            if sensor.id == "segment" { fields.append(("json_attributes_topic", .string(topics.state))) }
            configs.append(("\(discoveryPrefix)/sensor/\(node)/\(sensor.id)/config",
                            .object(fields + availability + [("device", device), ("origin", origin)])))
        }
        for button in buttons {
            let fields: [(String, JSONValue)] = [
                ("name", .string(button.name)),
                ("unique_id", .string("\(node)_\(button.id)")),
                ("command_topic", .string(topics.command)),
                ("payload_press", .string(JSONValue.object([("action", .string(button.action))]).text)),
                ("icon", .string(button.icon)),
            ]
            configs.append(("\(discoveryPrefix)/button/\(node)/\(button.id)/config",
                            .object(fields + availability + [("device", device), ("origin", origin)])))
        }
        return configs
    }
}
