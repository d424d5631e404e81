#!/usr/bin/python3
"""A BlueZ of our own, for the sensor tests.

It owns org.bluez on the bus it is started on (the tests start a private bus with a
system-like policy, Fixtures/system-bus.conf, and give its address as
DBUS_SYSTEM_BUS_ADDRESS) and answers as bluetoothd 5.x does, per its documented D-Bus API
(doc/adapter-api.txt, device-api.txt, gatt-api.txt): an ObjectManager at "/", one adapter
(org.bluez.Adapter1 at /org/bluez/hci0), and the devices of a JSON file (the second
argument), each with its GATT services and characteristics as objects beneath it.

    {"devices": [{"address": "C0:FF:EE:00:00:01", "name": "Strap", "rssi": -60,
                  "paired": true, "needs_pairing": false, "known": true,
                  "services": ["180d"],
                  "notify": {"2a37": {"every": 0.25, "values": ["0048", "0049"]}},
                  "refuse": []}]}

`known` devices exist from the start (as paired ones do); the others appear when
discovery starts. A characteristic's `notify` entry, once a client has called StartNotify
on it, sends its values in turn every `every` seconds as PropertiesChanged of Value, as
bluetoothd does for a notification. The FTMS control point (2ad9) records each write and
indicates the response (0x80, op code, result): success, or "control not permitted" for
the op codes in `refuse`. A device with `"vanish_on_write": OPCODE` goes out of range and
is removed (as bluetoothd removes a device gone for good) in the middle of the first
control point write of that op code, whose reply is then an error (sent after the
removal, or before it with `"error_first": true`).

A device with a `"machine"` is a treadmill, a rower or a foot pod that the fake runs
itself (class Machine), its data made from its state every `every` seconds rather than
from a list: Treadmill Data (2acd), Rower Data (2ad1) or RSC Measurement (2a53), per the
FTMS and RSC specifications. Its belt (flywheel, runner) moves at `speed` km/h, and its
distance counts `time_lapse` times as fast as the speed says, so that a test covers 400 m
in seconds. A treadmill obeys its control point (2ad9) as the FTMS specification says:
request control (0x00), start (0x07), stop or pause (0x08), target speed (0x02, 0.01
km/h), target inclination (0x03, 0.1 %), each answered on the control point with its
result; its supported speed and inclination ranges (2ad4, 2ad5) are read, and its status
(2ada) says "stopped by the user" or "safety key" on the commands below. The quirks users
report of real machines are switches, `"quirks": [...]`:
    ignore_speed          a target speed is answered with success and ignored
    whole_percent         an inclination is rounded to a whole percent
    moving_only           only request control and start are taken with the belt standing
                          (a start gets the belt moving at the next notification)
    mph                   a walking pad that sends its speed in 0.01 mph as if km/h
    phantom_strokes       the stroke rate changes while the stroke count stands
    counts_after_stop     the distance counts on after a stop

    {"address": "C0:FF:EE:00:00:10", "name": "Treadmill", "known": true, "paired": true,
     "services": ["1826"], "machine": {"kind": "treadmill", "speed": 10, "every": 0.25,
     "time_lapse": 40, "running": true, "quirks": []}}

Commands come one a line through the FIFO named by the third argument:
    notify ADDRESS UUID HEX       one notification now (HEX `-`: an empty one)
    flood ADDRESS UUID HEX N      N notifications, as fast as the bus takes them
    stream ADDRESS UUID HEX RATE SECONDS
                                  RATE notifications a second (a hundredth of them every
                                  10 ms) for SECONDS, then `streamed ADDRESS N` in the log
    vanish ADDRESS                out of range: disconnected, connects fail
    appear ADDRESS                back in range
    refuse ADDRESS OPCODE         the control point refuses that op code from now on
    console ADDRESS KMH           the athlete sets the machine's speed on its console
    safety ADDRESS                the safety key is pulled: the belt stops, status says so
    halt ADDRESS                  the athlete presses stop on the console
    quit

The log (first argument) gets one line per thing a client did: `discovery start`,
`connect ADDRESS`, `notify-on ADDRESS UUID`, `write ADDRESS UUID HEX`, and so on. A device
with `"times": true` also logs `time sent HEX SECONDS` for each notification and `time
write HEX SECONDS` for each write, on CLOCK_MONOTONIC (benchmarks/sensors.py).
Run with Debian's python3 (python3-dbus, python3-gi).
"""
import json
import math
import os
import sys
import time

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

OBJECT_MANAGER = "org.freedesktop.DBus.ObjectManager"
PROPERTIES = "org.freedesktop.DBus.Properties"
ADAPTER = "org.bluez.Adapter1"
DEVICE = "org.bluez.Device1"
SERVICE = "org.bluez.GattService1"
CHARACTERISTIC = "org.bluez.GattCharacteristic1"
AGENT_MANAGER = "org.bluez.AgentManager1"
BASE = "-0000-1000-8000-00805f9b34fb"

# The characteristics each service exposes, with their flags (gatt-api.txt).
SERVICES = {
    "180d": [("2a37", ["notify"]), ("2a38", ["read"])],
    "1818": [("2a63", ["notify"]), ("2a65", ["read"])],
    "1816": [("2a5b", ["notify"]), ("2a5c", ["read"])],
    "1826": [("2ad2", ["notify"]), ("2acc", ["read"]), ("2ad9", ["write", "indicate"])],
    "1814": [("2a53", ["notify"]), ("2a54", ["read"])],
}

# A machine's fitness machine service has its own data characteristic, its ranges and
# its status beside the feature and the control point.
MACHINE_SERVICES = {
    "treadmill": [("2acd", ["notify"]), ("2acc", ["read"]), ("2ad4", ["read"]), ("2ad5", ["read"]),
                  ("2ad9", ["write", "indicate"]), ("2ada", ["notify"])],
    "rower": [("2ad1", ["notify"]), ("2acc", ["read"]), ("2ad9", ["write", "indicate"]), ("2ada", ["notify"])],
}
DATA = {"treadmill": "2acd", "rower": "2ad1", "footpod": "2a53"}
SPEEDS = (1.0, 20.0, 0.1)       # km/h: minimum, maximum, increment (2ad4)
INCLINES = (-3.0, 15.0, 0.5)    # %: minimum, maximum, increment (2ad5)


class Machine:
    """A treadmill, rower or foot pod in motion: its state, its data as the
    specifications lay it out, and a treadmill's answers to its control point."""

    def __init__(self, device, spec):
        self.device = device
        self.kind = spec["kind"]
        self.speed = float(spec.get("speed", 10.0))
        self.incline = float(spec.get("incline", 0.0))
        self.every = float(spec.get("every", 0.25))
        self.time_lapse = float(spec.get("time_lapse", 1.0))
        self.running = bool(spec.get("running", True))
        self.quirks = set(spec.get("quirks", []))
        self.distance = float(spec.get("distance", 0.0))
        self.strokes = 0.0
        self.stroke_rate = float(spec.get("stroke_rate", 24.0))
        self.cadence = int(spec.get("cadence", 170))
        self.timer = None
        self.starting = False

    def start(self):
        if self.timer is None:
            self.timer = GLib.timeout_add(int(self.every * 1000), self.tick)

    def stop(self):
        if self.timer is not None:
            GLib.source_remove(self.timer)
            self.timer = None

    def tick(self):
        if self.starting:
            self.starting = False
            self.running = True
        if self.running or "counts_after_stop" in self.quirks:
            metres = self.speed / 3.6 * self.every * self.time_lapse
            self.distance += metres
            if self.running and "phantom_strokes" not in self.quirks:
                self.strokes += self.stroke_rate / 60 * self.every * self.time_lapse
        if "phantom_strokes" in self.quirks:
            self.stroke_rate = 20.0 if self.stroke_rate >= 30 else self.stroke_rate + 2
        target = self.device.characteristic(DATA[self.kind])
        if target is not None and target.props["Notifying"]:
            target.send(self.data())
        return True

    def data(self):
        speed = self.speed if self.running else 0.0
        if self.kind == "treadmill":
            shown = speed / 1.609344 if "mph" in self.quirks else speed
            # Flags: total distance (bit 2), inclination and ramp angle (bit 3); bit 0
            # clear, so the instantaneous speed comes first.
            return (bytes([0x0c, 0x00]) + round(shown * 100).to_bytes(2, "little")
                    + int(self.distance).to_bytes(3, "little")
                    + round(self.incline * 10).to_bytes(2, "little", signed=True) + bytes(2))
        if self.kind == "rower":
            split = round(1800 / speed) if speed > 0 else 0
            # Flags: total distance (2), instantaneous pace (3), power (5); bit 0 clear:
            # stroke rate (0.5 a minute) and stroke count first.
            return (bytes([0x2c, 0x00, round(self.stroke_rate * 2) if self.running else 0])
                    + int(self.strokes).to_bytes(2, "little") + int(self.distance).to_bytes(3, "little")
                    + split.to_bytes(2, "little") + (150 if self.running else 0).to_bytes(2, "little", signed=True))
        # A foot pod: total distance (bit 1) and running (bit 2).
        return (bytes([0x06]) + round(speed / 3.6 * 256).to_bytes(2, "little")
                + bytes([self.cadence if self.running else 0]) + int(self.distance * 10).to_bytes(4, "little"))

    def read(self, short):
        """The value of a readable characteristic: the ranges, the features."""
        if short == "2ad4":
            return b"".join(round(v * 100).to_bytes(2, "little") for v in SPEEDS)
        if short == "2ad5":
            return b"".join(round(v * 10).to_bytes(2, "little", signed=True) for v in INCLINES[:2]) + \
                round(INCLINES[2] * 10).to_bytes(2, "little")
        if short == "2acc":
            # Fitness machine features: total distance, inclination; target settings:
            # speed (bit 0) and inclination (bit 1) for a treadmill.
            targets = 0x03 if self.kind == "treadmill" else 0
            return (0x000c).to_bytes(4, "little") + targets.to_bytes(4, "little")
        return b""

    def control(self, data):
        """A control point write: the result code (0x01 success, 0x02 not supported,
        0x03 invalid parameter, 0x04 failed)."""
        op = data[0]
        if self.kind != "treadmill" and op not in (0x00, 0x07, 0x08):
            return 0x02
        if "moving_only" in self.quirks and not self.running and op not in (0x00, 0x07):
            return 0x04
        if op == 0x00:
            return 0x01
        if op == 0x07:
            if "moving_only" in self.quirks and not self.running:
                self.starting = True
            else:
                self.running = True
            self.status(bytes([0x04]))  # started or resumed by the user
            return 0x01
        if op == 0x08:
            if len(data) != 2 or data[1] not in (1, 2):
                return 0x03
            self.running = False
            self.status(bytes([0x02, data[1]]))  # stopped or paused by the user
            return 0x01
        if op == 0x02:
            if len(data) != 3:
                return 0x03
            kmh = int.from_bytes(data[1:3], "little") / 100
            if not SPEEDS[0] <= kmh <= SPEEDS[1]:
                return 0x03
            if "ignore_speed" not in self.quirks:
                self.speed = kmh
                self.status(bytes([0x05]) + data[1:3])
            return 0x01
        if op == 0x03:
            if len(data) != 3:
                return 0x03
            percent = int.from_bytes(data[1:3], "little", signed=True) / 10
            if not INCLINES[0] <= percent <= INCLINES[1]:
                return 0x03
            # Whole percent, halves up (as a console rounds; Python's round() would round to even).
            self.incline = float(math.floor(percent + 0.5)) if "whole_percent" in self.quirks else percent
            self.status(bytes([0x06]) + round(self.incline * 10).to_bytes(2, "little", signed=True))
            return 0x01
        return 0x02

    def status(self, value):
        target = self.device.characteristic("2ada")
        if target is not None and target.props["Notifying"]:
            target.send(value)



def uuid(short):
    return "0000" + short + BASE


class Failed(dbus.DBusException):
    def __init__(self, name, text):
        super().__init__(text)
        self._dbus_error_name = "org.bluez.Error." + name


class Log:
    def __init__(self, path):
        self.file = open(path, "a", encoding="utf-8")

    def write(self, line):
        self.file.write(line + "\n")
        self.file.flush()


class PropertyObject(dbus.service.Object):
    """An object with one org.bluez interface, its properties readable through
    org.freedesktop.DBus.Properties, and changes signalled as bluetoothd signals them."""

    interface = None

    def __init__(self, bus, path):
        super().__init__(bus, path)
        self.path = path
        self.props = {}

    def set(self, **changes):
        self.props.update(changes)
        self.PropertiesChanged(self.interface, dbus.Dictionary(changes, signature="sv"), dbus.Array([], signature="s"))

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        if interface != self.interface or name not in self.props:
            raise Failed("InvalidArguments", "No such property " + name)
        return self.props[name]

    @dbus.service.method(PROPERTIES, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return dbus.Dictionary(self.props if interface == self.interface else {}, signature="sv")

    @dbus.service.method(PROPERTIES, in_signature="ssv")
    def Set(self, interface, name, value):
        self.set(**{name: value})

    @dbus.service.signal(PROPERTIES, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass

    def managed(self):
        return {self.interface: dbus.Dictionary(self.props, signature="sv")}


class Characteristic(PropertyObject):
    interface = CHARACTERISTIC

    def __init__(self, bus, path, service, device, short, flags):
        super().__init__(bus, path)
        self.device = device
        self.short = short
        self.timer = None
        self.turn = 0
        self.props = {
            "UUID": uuid(short),
            "Service": dbus.ObjectPath(service),
            "Value": dbus.Array([], signature="y"),
            "Notifying": dbus.Boolean(False),
            "Flags": dbus.Array(flags, signature="s"),
        }

    def check(self):
        if not self.device.props["Connected"]:
            raise Failed("Failed", "Not connected")
        if self.device.spec.get("needs_pairing") and not self.device.props["Paired"]:
            raise Failed("NotPermitted", "Insufficient authentication")

    def send(self, value):
        self.set(Value=dbus.Array([dbus.Byte(b) for b in value], signature="y"))
        if self.device.spec.get("times"):
            self.device.server.log.write(f"time sent {bytes(value).hex()} {time.monotonic():.6f}")

    @dbus.service.method(CHARACTERISTIC, in_signature="a{sv}", out_signature="ay")
    def ReadValue(self, options):
        self.check()
        machine = self.device.machine
        if machine is not None and machine.read(self.short):
            return dbus.Array([dbus.Byte(b) for b in machine.read(self.short)], signature="y")
        return dbus.Array(self.props["Value"], signature="y")

    @dbus.service.method(CHARACTERISTIC, in_signature="aya{sv}", async_callbacks=("reply", "error"))
    def WriteValue(self, value, options, reply=None, error=None):
        try:
            self.check()
        except Failed as failure:
            return error(failure)
        data = bytes(value)
        self.device.server.log.write(f"write {self.device.address} {self.short} {data.hex()}")
        vanish = self.device.spec.get("vanish_on_write")
        if self.short == "2ad9" and data and vanish is not None and data[0] == vanish:
            del self.device.spec["vanish_on_write"]
            device = self.device

            def remove():
                device.in_range = False
                device.drop()
                device.server.removed(device)
                device.server.log.write(f"removed {device.address}")
                return False
            if device.spec.get("error_first"):
                error(Failed("Failed", "Not connected"))
                GLib.idle_add(remove)
            else:
                # The write's answer comes after the device is gone, as it would mid-write.
                remove()
                GLib.idle_add(lambda: (error(Failed("Failed", "Not connected")), False)[1])
            return
        reply()
        if self.device.spec.get("times"):
            self.device.server.log.write(f"time write {data.hex()} {time.monotonic():.6f}")
        if self.short == "2ad9" and data:
            machine = self.device.machine
            if data[0] in self.device.refused:
                result = 0x05
            elif machine is not None:
                result = machine.control(data)
            else:
                result = 0x01
            response = bytes([0x80, data[0], result])
            if self.props["Notifying"]:
                # The indication follows the write's reply, as over the air.
                GLib.idle_add(lambda: (self.send(response), False)[1])

    @dbus.service.method(CHARACTERISTIC)
    def StartNotify(self):
        self.check()
        if self.props["Notifying"]:
            return
        self.device.server.log.write(f"notify-on {self.device.address} {self.short}")
        self.set(Notifying=dbus.Boolean(True))
        plan = self.device.spec.get("notify", {}).get(self.short)
        if plan:
            self.timer = GLib.timeout_add(int(plan["every"] * 1000), self.tick, plan)

    @dbus.service.method(CHARACTERISTIC)
    def StopNotify(self):
        self.device.server.log.write(f"notify-off {self.device.address} {self.short}")
        self.stop()

    def stop(self):
        if self.timer is not None:
            GLib.source_remove(self.timer)
            self.timer = None
        if self.props["Notifying"]:
            self.set(Notifying=dbus.Boolean(False))

    def tick(self, plan):
        values = plan["values"]
        self.send(bytes.fromhex(values[self.turn % len(values)]))
        self.turn += 1
        return True


class Service(PropertyObject):
    interface = SERVICE

    def __init__(self, bus, path, device, short):
        super().__init__(bus, path)
        self.props = {"UUID": uuid(short), "Device": dbus.ObjectPath(device.path), "Primary": dbus.Boolean(True),
                      "Includes": dbus.Array([], signature="o")}


class Device(PropertyObject):
    interface = DEVICE

    def __init__(self, server, spec):
        self.server = server
        self.spec = spec
        self.address = spec["address"].upper()
        super().__init__(server.bus, server.adapter.path + "/dev_" + self.address.replace(":", "_"))
        self.in_range = True
        self.refused = set(spec.get("refuse", []))
        self.gatt = []  # services and characteristics, once resolved
        self.machine = Machine(self, spec["machine"]) if "machine" in spec else None
        self.props = {
            "Address": self.address,
            "AddressType": "random",
            "Name": spec.get("name", ""),
            "Alias": spec.get("name", self.address.replace(":", "-")),
            "Paired": dbus.Boolean(spec.get("paired", False)),
            "Bonded": dbus.Boolean(spec.get("paired", False)),
            "Trusted": dbus.Boolean(False),
            "Blocked": dbus.Boolean(False),
            "LegacyPairing": dbus.Boolean(False),
            "Connected": dbus.Boolean(False),
            "ServicesResolved": dbus.Boolean(False),
            "UUIDs": dbus.Array([uuid(s) for s in spec.get("services", [])], signature="s"),
            "Adapter": dbus.ObjectPath(server.adapter.path),
        }
        if "name" not in spec:
            del self.props["Name"]

    def advertise(self):
        self.props["RSSI"] = dbus.Int16(self.spec.get("rssi", -60))

    @dbus.service.method(DEVICE)
    def Connect(self):
        self.server.log.write(f"connect {self.address}")
        if not self.in_range:
            raise Failed("Failed", "le-connection-abort-by-local")
        if self.props["Connected"]:
            return
        self.set(Connected=dbus.Boolean(True))
        handle = 0x000c
        for short in self.spec.get("services", []):
            service = Service(self.server.bus, f"{self.path}/service{handle:04x}", self, short)
            self.server.added(service)
            self.gatt.append(service)
            characteristics = SERVICES.get(short, [])
            if short == "1826" and self.machine is not None:
                characteristics = MACHINE_SERVICES.get(self.machine.kind, characteristics)
            for char, flags in characteristics:
                handle += 1
                characteristic = Characteristic(self.server.bus, f"{service.path}/char{handle:04x}", service.path,
                                                self, char, flags)
                self.server.added(characteristic)
                self.gatt.append(characteristic)
            handle += 4
        self.set(ServicesResolved=dbus.Boolean(True))
        if self.machine is not None:
            self.machine.start()

    @dbus.service.method(DEVICE)
    def Disconnect(self):
        self.server.log.write(f"disconnect {self.address}")
        self.drop()

    def drop(self):
        if not self.props["Connected"]:
            return
        if self.machine is not None:
            self.machine.stop()
        for item in reversed(self.gatt):
            if isinstance(item, Characteristic):
                item.stop()
            self.server.removed(item)
        self.gatt = []
        self.set(ServicesResolved=dbus.Boolean(False))
        self.set(Connected=dbus.Boolean(False))

    @dbus.service.method(DEVICE)
    def Pair(self):
        raise Failed("AuthenticationRejected", "Authentication Rejected")

    def characteristic(self, short):
        for item in self.gatt:
            if isinstance(item, Characteristic) and item.short == short:
                return item
        return None


class Adapter(PropertyObject):
    interface = ADAPTER

    def __init__(self, server):
        super().__init__(server.bus, "/org/bluez/hci0")
        self.server = server
        self.props = {
            "Address": "00:1A:7D:DA:71:13",
            "AddressType": "public",
            "Name": "fake-bluez",
            "Alias": "fake-bluez",
            "Class": dbus.UInt32(0x6c010c),
            "Powered": dbus.Boolean(True),
            "Discoverable": dbus.Boolean(False),
            "DiscoverableTimeout": dbus.UInt32(180),
            "Pairable": dbus.Boolean(True),
            "PairableTimeout": dbus.UInt32(0),
            "Discovering": dbus.Boolean(False),
            "UUIDs": dbus.Array([], signature="s"),
            "Modalias": "usb:v1D6Bp0246d0542",
            "Roles": dbus.Array(["central", "peripheral"], signature="s"),
        }

    @dbus.service.method(ADAPTER, sender_keyword="sender")
    def StartDiscovery(self, sender=None):
        self.server.log.write("discovery start")
        # As bluetoothd does, discovery ends when the client that asked for it leaves the bus.
        self.server.bus.watch_name_owner(sender, lambda owner: owner or self.stop())
        self.set(Discovering=dbus.Boolean(True))
        for device in self.server.devices.values():
            if device.in_range and device.path not in self.server.published:
                device.advertise()
                self.server.added(device)

    @dbus.service.method(ADAPTER)
    def StopDiscovery(self):
        self.server.log.write("discovery stop")
        if not self.props["Discovering"]:
            raise Failed("Failed", "No discovery started")
        self.stop()

    def stop(self):
        if self.props["Discovering"]:
            self.set(Discovering=dbus.Boolean(False))

    @dbus.service.method(ADAPTER, in_signature="a{sv}")
    def SetDiscoveryFilter(self, properties):
        self.server.log.write("discovery filter " + ",".join(sorted(str(k) for k in properties)))

    @dbus.service.method(ADAPTER, out_signature="as")
    def GetDiscoveryFilters(self):
        return ["UUIDs", "RSSI", "Pathloss", "Transport", "DuplicateData", "Discoverable", "Pattern"]

    @dbus.service.method(ADAPTER, in_signature="o")
    def RemoveDevice(self, path):
        for device in self.server.devices.values():
            if device.path == path:
                device.drop()
                self.server.removed(device)
                return
        raise Failed("DoesNotExist", "Does Not Exist")


class AgentManager(dbus.service.Object):
    """bluetoothctl registers its pairing agent at start-up."""

    def __init__(self, server):
        super().__init__(server.bus, "/org/bluez")

    @dbus.service.method(AGENT_MANAGER, in_signature="os")
    def RegisterAgent(self, agent, capability):
        pass

    @dbus.service.method(AGENT_MANAGER, in_signature="o")
    def UnregisterAgent(self, agent):
        pass

    @dbus.service.method(AGENT_MANAGER, in_signature="o")
    def RequestDefaultAgent(self, agent):
        pass


class Root(dbus.service.Object):
    def __init__(self, server):
        super().__init__(server.bus, "/")
        self.server = server

    @dbus.service.method(OBJECT_MANAGER, out_signature="a{oa{sa{sv}}}")
    def GetManagedObjects(self):
        return dbus.Dictionary({path: item.managed() for path, item in self.server.published.items()},
                               signature="oa{sa{sv}}")

    @dbus.service.signal(OBJECT_MANAGER, signature="oa{sa{sv}}")
    def InterfacesAdded(self, path, interfaces):
        pass

    @dbus.service.signal(OBJECT_MANAGER, signature="oas")
    def InterfacesRemoved(self, path, interfaces):
        pass


class Server:
    def __init__(self, bus, log, config):
        self.bus = bus
        self.log = log
        self.published = {}
        self.root = Root(self)
        self.agents = AgentManager(self)
        self.adapter = Adapter(self)
        self.published[self.adapter.path] = self.adapter
        self.devices = {}
        for spec in config.get("devices", []):
            device = Device(self, spec)
            self.devices[device.address] = device
            if spec.get("known"):
                self.published[device.path] = device

    def added(self, item):
        self.published[item.path] = item
        self.root.InterfacesAdded(item.path, item.managed())

    def removed(self, item):
        if self.published.pop(item.path, None) is not None:
            self.root.InterfacesRemoved(item.path, [item.interface])
        if not isinstance(item, Device):  # a device found again is the same object
            try:
                item.remove_from_connection()
            except LookupError:
                pass

    def command(self, line):
        words = line.split()
        if not words:
            return
        if words[0] == "quit":
            loop.quit()
            return
        device = self.devices.get(words[1].upper()) if len(words) > 1 else None
        if device is None:
            self.log.write("unknown command " + line)
            return
        if words[0] == "notify":
            target = device.characteristic(words[2])
            if target is not None and target.props["Notifying"]:
                target.send(b"" if words[3] == "-" else bytes.fromhex(words[3]))
        elif words[0] == "flood":
            target = device.characteristic(words[2])
            if target is not None and target.props["Notifying"]:
                for _ in range(int(words[4])):
                    target.send(bytes.fromhex(words[3]))
            self.log.write(f"flooded {device.address} {words[4]}")
        elif words[0] == "stream":
            target = device.characteristic(words[2])
            value, rate, seconds = bytes.fromhex(words[3]), int(words[4]), float(words[5])
            turns = {"left": int(seconds * 100), "sent": 0}

            def burst():
                if target is not None and target.props["Notifying"]:
                    for _ in range(rate // 100):
                        target.send(value)
                        turns["sent"] += 1
                turns["left"] -= 1
                if turns["left"] > 0:
                    return True
                self.log.write(f"streamed {device.address} {turns['sent']}")
                return False
            GLib.timeout_add(10, burst)
        elif words[0] == "vanish":
            device.in_range = False
            device.drop()
            self.log.write(f"vanished {device.address}")
        elif words[0] == "appear":
            device.in_range = True
            self.log.write(f"appeared {device.address}")
        elif words[0] == "refuse":
            device.refused.add(int(words[2], 0))
        elif words[0] == "console" and device.machine is not None:
            device.machine.speed = float(words[2])
            device.machine.status(bytes([0x05]) + round(float(words[2]) * 100).to_bytes(2, "little"))
            self.log.write(f"console {device.address} {words[2]}")
        elif words[0] in ("safety", "halt") and device.machine is not None:
            device.machine.running = False
            # Fitness machine status: stopped by the safety key (0x03), or by the user (0x02, stop).
            device.machine.status(bytes([0x03]) if words[0] == "safety" else bytes([0x02, 0x01]))
            self.log.write(f"{words[0]} {device.address}")


def main():
    global loop
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SystemBus()
    log = Log(sys.argv[1])
    with open(sys.argv[2], encoding="utf-8") as file:
        config = json.load(file)
    server = Server(bus, log, config)
    name = dbus.service.BusName("org.bluez", bus)
    # Read and write, so that the FIFO never reads end-of-file between writers.
    control = os.open(sys.argv[3], os.O_RDWR | os.O_NONBLOCK)
    pending = b""

    def readable(fd, condition):
        nonlocal pending
        try:
            pending += os.read(fd, 65536)
        except BlockingIOError:
            return True
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            server.command(line.decode())
        return True

    GLib.io_add_watch(control, GLib.PRIORITY_DEFAULT, GLib.IO_IN, readable)
    loop = GLib.MainLoop()
    # Ready once the name is owned: the test waits for this line.
    print("ready", flush=True)
    loop.run()
    del name


if __name__ == "__main__":
    main()
