#!/usr/bin/python3
"""A desktop notification server of our own, for the notification tests.

It owns org.freedesktop.Notifications on the session bus (a bus with no server
only answers ServiceUnknown) and writes each Notify call as one JSON line to the
log file named by its first argument. Ids follow the spec: a call that replaces
an id keeps it; a new notification gets the next number.
Run with Debian's python3 (python3-dbus, python3-gi).
"""
import json
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

INTERFACE = "org.freedesktop.Notifications"


class Server(dbus.service.Object):
    def __init__(self, bus, log):
        super().__init__(bus, "/org/freedesktop/Notifications")
        self.log = log
        self.last_id = 0

    @dbus.service.method(INTERFACE, in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout):
        if replaces_id:
            notification_id = int(replaces_id)
        else:
            self.last_id += 1
            notification_id = self.last_id
        record = {
            "app_name": str(app_name),
            "replaces_id": int(replaces_id),
            "id": notification_id,
            "summary": str(summary),
            "body": str(body),
            "urgency": int(hints["urgency"]) if "urgency" in hints else None,
        }
        self.log.write(json.dumps(record) + "\n")
        self.log.flush()
        return notification_id

    @dbus.service.method(INTERFACE, in_signature="", out_signature="as")
    def GetCapabilities(self):
        return ["body"]

    @dbus.service.method(INTERFACE, in_signature="u", out_signature="")
    def CloseNotification(self, notification_id):
        pass

    @dbus.service.method(INTERFACE, in_signature="", out_signature="ssss")
    def GetServerInformation(self):
        return ("workout-test", "workout", "1", "1.2")


def main():
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    log = open(sys.argv[1], "a", encoding="utf-8")
    server = Server(bus, log)
    name = dbus.service.BusName(INTERFACE, bus)
    # Ready once the name is owned: the test waits for this line.
    print("ready", flush=True)
    GLib.MainLoop().run()
    del server, name


if __name__ == "__main__":
    main()
