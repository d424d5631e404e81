#!/usr/bin/python3
"""An MPRIS player that refuses to have its volume set, as Firefox does ("Volume setting is
not supported"), for the music tests: it owns org.mpris.MediaPlayer2.novolume on the
session bus it is started on, says it is Playing at volume 1.0, answers `Set Volume` with an
error, and plays its music as a stream on the sound server: `pacat` of noise,
its stream marked as this process's (PULSE_PROP application.process.id), as a browser's
tab is heard. One line per event goes to the log named by its first argument (`set
Volume …` when asked). Prints `ready` once the name is owned and the stream runs. Run with
Debian's python3 (python3-dbus, python3-gi).
"""
import ctypes
import os
import signal
import subprocess
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

PLAYER = "org.mpris.MediaPlayer2.Player"
PROPERTIES = "org.freedesktop.DBus.Properties"


class Player(dbus.service.Object):
    def __init__(self, bus, log):
        super().__init__(bus, "/org/mpris/MediaPlayer2")
        self.log = log

    def write(self, line):
        self.log.write(line + "\n")
        self.log.flush()

    @dbus.service.method(PROPERTIES, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        if interface != PLAYER:
            return {"Identity": "No volume"}
        return {"PlaybackStatus": "Playing", "Volume": dbus.Double(1.0), "CanControl": True}

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return self.GetAll(interface)[name]

    @dbus.service.method(PROPERTIES, in_signature="ssv")
    def Set(self, interface, name, value):
        self.write(f"set {name} {value}")
        raise dbus.exceptions.DBusException("Volume setting is not supported",
                                            name="org.freedesktop.DBus.Error.NotSupported")

    @dbus.service.method(PLAYER)
    def Pause(self):
        self.write("pause")


def main():
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    log = open(sys.argv[1], "a", encoding="utf-8")
    player = Player(bus, log)
    name = dbus.service.BusName("org.mpris.MediaPlayer2.novolume", bus)
    environment = dict(os.environ, PULSE_PROP=f"application.process.id={os.getpid()}")
    noise = open("/dev/urandom", "rb")
    # The stream dies with the stand-in, however the test ends it (SIGKILL included).
    die_with_parent = lambda: ctypes.CDLL("libc.so.6").prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    stream = subprocess.Popen(["pacat", "--raw", "--format=s16le", "--rate=48000", "--channels=1"],
                              stdin=noise, env=environment, preexec_fn=die_with_parent)
    print("ready", flush=True)
    try:
        GLib.MainLoop().run()
    finally:
        stream.kill()
    del player, name


if __name__ == "__main__":
    main()
