#!/usr/bin/python3
"""Music players that misbehave, for the misbehaving-desktop tests.

Each player of the JSON list named by the second argument has a connection of its own to
the session bus it is started on (the tests start a private `dbus-daemon --session` and
give its address as DBUS_SESSION_BUS_ADDRESS), as a player process would, owns
`org.mpris.MediaPlayer2.NAME` there, and answers at /org/mpris/MediaPlayer2 as an MPRIS
player does — or not, as its `behaviour` says:

    good     answers GetAll with PlaybackStatus "Playing" and its `volume`, takes Set
    silent   never replies to anything
    slow     replies to everything 10 s late
    wrong    GetAll answers with a string instead of a dictionary
    types    PlaybackStatus is a number, Volume a string
    nan      its Volume is NaN
    inf      its Volume is infinite
    escape   as good, but its Identity, its track's title and the errors it returns hold
             escape sequences (an OSC that sets the title, a clear screen)
    vanish   as good, but gives up its name on the first Set (mid-cue)
    novolume as good, but refuses to have its Volume set, as Firefox does ("Volume setting
             is not supported")

    [{"name": "good", "behaviour": "good", "volume": 0.9}, ...]

A player with `"stream": true` also plays its music as a stream on the sound server
(`pacat` of noise, at PULSE_SERVER), marked as this process's (application.process.id),
as a browser tab is heard; the stream dies with this process, however it ends.

The log (first argument) gets a line per call: `call NAME MEMBER ARGUMENTS` (a Set's
value as a plain number), then `vanished NAME` when a player goes. It prints `ready`
once every name is owned. Run with Debian's python3 (python3-dbus, python3-gi).
"""
import ctypes
import json
import os
import signal
import subprocess
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

PREFIX = "org.mpris.MediaPlayer2."
ROOT = "org.mpris.MediaPlayer2"
PLAYER = "org.mpris.MediaPlayer2.Player"
PROPERTIES = "org.freedesktop.DBus.Properties"
ESCAPES = "\x1b]0;pwned\x07\x1b[2J\x1b[31mpwned"


class Refused(dbus.DBusException):
    _dbus_error_name = "org.mpris.MediaPlayer2.Error.Refused"


class NotSupported(dbus.DBusException):
    _dbus_error_name = "org.freedesktop.DBus.Error.NotSupported"


class Player(dbus.service.Object):
    def __init__(self, bus, log, player):
        super().__init__(bus, "/org/mpris/MediaPlayer2")
        self.bus = bus
        self.log = log
        self.spec = dict(player)
        self.held = []  # replies never sent (silent): kept so nothing answers for them

    def write(self, line):
        self.log.write(line + "\n")
        self.log.flush()

    def player(self, message):
        return self.spec

    def answer(self, player, reply, error, value):
        """Replies as the player's behaviour says."""
        behaviour = player["behaviour"]
        if behaviour == "silent":
            self.held.append((reply, error))
        elif behaviour == "slow":
            GLib.timeout_add_seconds(10, lambda: (reply(*value), False)[1])
        else:
            reply(*value)

    def properties(self, player):
        behaviour = player["behaviour"]
        volume = {"nan": float("nan"), "inf": float("inf")}.get(behaviour, player.get("volume", 1.0))
        if behaviour == "types":
            return dbus.Dictionary({"PlaybackStatus": dbus.Int32(1), "Volume": "loud"}, signature="sv")
        properties = {"PlaybackStatus": player.get("status", "Playing"), "Volume": dbus.Double(volume)}
        if behaviour == "escape":
            properties["Metadata"] = dbus.Dictionary({"xesam:title": ESCAPES}, signature="sv")
        return dbus.Dictionary(properties, signature="sv")

    # No out_signature: a{sv} as players answer, or whatever `wrong` returns instead.
    @dbus.service.method(PROPERTIES, in_signature="s", message_keyword="message", async_callbacks=("reply", "error"))
    def GetAll(self, interface, message=None, reply=None, error=None):
        player = self.player(message)
        if player is None:
            return error(Refused("no such player"))
        self.write(f"call {player['name']} GetAll {interface}")
        if interface == ROOT:
            value = dbus.Dictionary({"Identity": "Player" + (ESCAPES if player["behaviour"] == "escape" else ""),
                                     "DesktopEntry": ESCAPES}, signature="sv")
        elif player["behaviour"] == "wrong":
            value = dbus.String("Playing")
        else:
            value = self.properties(player)
        self.answer(player, reply, error, (value,))

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v", message_keyword="message",
                         async_callbacks=("reply", "error"))
    def Get(self, interface, name, message=None, reply=None, error=None):
        player = self.player(message)
        if player is None:
            return error(Refused("no such player"))
        self.write(f"call {player['name']} Get {name}")
        self.answer(player, reply, error, (self.properties(player).get(name, dbus.String("")),))

    @dbus.service.method(PROPERTIES, in_signature="ssv", message_keyword="message", async_callbacks=("reply", "error"))
    def Set(self, interface, name, value, message=None, reply=None, error=None):
        player = self.player(message)
        if player is None:
            return error(Refused("no such player"))
        shown = round(float(value), 6) if isinstance(value, (dbus.Double, float, int)) else repr(value)
        self.write(f"call {player['name']} Set {name} {shown}")
        if player["behaviour"] == "escape":
            return error(Refused(ESCAPES))
        if player["behaviour"] == "novolume":
            return error(NotSupported("Volume setting is not supported"))
        if name == "Volume" and isinstance(value, (dbus.Double, float)):
            player["volume"] = float(value)
        self.answer(player, reply, error, ())
        if player["behaviour"] == "vanish":
            self.bus.release_name(PREFIX + player["name"])
            self.spec = None
            self.write(f"vanished {player['name']}")

    def call(self, member, message, reply, error):
        player = self.player(message)
        if player is None:
            return error(Refused("no such player"))
        self.write(f"call {player['name']} {member}")
        player["status"] = {"Pause": "Paused", "Play": "Playing"}[member]
        self.answer(player, reply, error, ())

    @dbus.service.method(PLAYER, message_keyword="message", async_callbacks=("reply", "error"))
    def Pause(self, message=None, reply=None, error=None):
        self.call("Pause", message, reply, error)

    @dbus.service.method(PLAYER, message_keyword="message", async_callbacks=("reply", "error"))
    def Play(self, message=None, reply=None, error=None):
        self.call("Play", message, reply, error)


def main():
    DBusGMainLoop(set_as_default=True)
    address = os.environ["DBUS_SESSION_BUS_ADDRESS"]
    log = open(sys.argv[1], "a", encoding="utf-8")
    with open(sys.argv[2], encoding="utf-8") as file:
        specs = json.load(file)
    streams = [play_stream() for spec in specs if spec.get("stream")]
    players = []
    for spec in specs:
        bus = dbus.bus.BusConnection(address)
        players.append(Player(bus, log, spec))
        bus.request_name(PREFIX + spec["name"], dbus.bus.NAME_FLAG_DO_NOT_QUEUE)
    # Ready once every name is owned: the test waits for this line.
    print("ready", flush=True)
    GLib.MainLoop().run()
    del players, streams


def play_stream():
    """`pacat` of noise as this process's stream; killed when this process dies."""
    environment = dict(os.environ, PULSE_PROP=f"application.process.id={os.getpid()}")
    die_with_parent = lambda: ctypes.CDLL("libc.so.6").prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    return subprocess.Popen(["pacat", "--raw", "--format=s16le", "--rate=48000", "--channels=1"],
                            stdin=open("/dev/urandom", "rb"), env=environment, preexec_fn=die_with_parent)


if __name__ == "__main__":
    main()
