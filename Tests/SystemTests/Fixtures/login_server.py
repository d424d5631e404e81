#!/usr/bin/python3
"""A logind of our own, for the sleep-inhibitor tests.

It owns org.freedesktop.login1 on the bus it is started on (the tests start a private
bus and give workout its address as DBUS_SYSTEM_BUS_ADDRESS) and answers Inhibit as
logind does: with a file descriptor that holds the lock until every copy of it is closed.
It writes one line per event to the log file named by its first argument:
`inhibit WHAT WHO MODE WHY` when asked, `released` when the descriptor's last copy closes
(the read end of its pipe sees the hang-up). Run with Debian's python3 (python3-dbus,
python3-gi).
"""
import os
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

MANAGER = "org.freedesktop.login1.Manager"


class Manager(dbus.service.Object):
    def __init__(self, bus, log):
        super().__init__(bus, "/org/freedesktop/login1")
        self.log = log

    def write(self, line):
        self.log.write(line + "\n")
        self.log.flush()

    @dbus.service.method(MANAGER, in_signature="ssss", out_signature="h")
    def Inhibit(self, what, who, why, mode):
        self.write(f"inhibit {what} {who} {mode} {why}")
        held, given = os.pipe()
        GLib.io_add_watch(held, GLib.PRIORITY_DEFAULT, GLib.IO_HUP | GLib.IO_ERR, self.released)
        reply = dbus.types.UnixFd(given)  # a copy of its own: ours is closed at once
        os.close(given)
        return reply

    def released(self, held, condition):
        self.write("released")
        os.close(held)
        return False


def main():
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    log = open(sys.argv[1], "a", encoding="utf-8")
    manager = Manager(bus, log)
    name = dbus.service.BusName("org.freedesktop.login1", bus)
    # Ready once the name is owned: the test waits for this line.
    print("ready", flush=True)
    GLib.MainLoop().run()
    del manager, name


if __name__ == "__main__":
    main()
