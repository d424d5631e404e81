// libqrencode (Debian's libqrencode-dev) makes the QR code that the live display shows
// for `run --serve`: the URL of the page, for a phone's camera.
#ifndef WORKOUT_CQRENCODE_SHIM_H
#define WORKOUT_CQRENCODE_SHIM_H

#include <qrencode.h>

#endif
