"""Decodes a FIT file with Garmin's FIT SDK for Python and with fitdecode, and prints
what each read as one JSON object, for ActivityFileTests to check against the session:

  {"garmin": {"is_fit", "integrity", "errors", "messages": {"lap_mesgs": [{field: value}]}},
   "fitdecode": {"errors", "messages": {"lap": [{field: value}]}}}

Timestamps stay FIT's seconds; enums are the profile's names."""
import json
import sys

import fitdecode
from garmin_fit_sdk import Decoder, Stream


def garmin(path):
    integrity = Decoder(Stream.from_file(path))
    result = {"is_fit": integrity.is_fit(), "integrity": integrity.check_integrity()}
    decoder = Decoder(Stream.from_file(path))
    messages, errors = decoder.read(convert_datetimes_to_dates=False, convert_types_to_strings=True,
                                    expand_sub_fields=True, expand_components=True, merge_heart_rates=False,
                                    enable_crc_check=True)
    result["errors"] = [repr(error) for error in errors]
    result["messages"] = messages
    return result


def second(path):
    messages, errors = {}, []
    try:
        with fitdecode.FitReader(path, check_crc=fitdecode.CrcCheck.ENABLED,
                                 error_handling=fitdecode.ErrorHandling.RAISE) as reader:
            for frame in reader:
                if frame.frame_type == fitdecode.FIT_FRAME_DATA:
                    fields = {field.name: field.value for field in frame.fields}
                    messages.setdefault(frame.name, []).append(fields)
    except Exception as error:  # every failure is the test's to report
        errors.append(repr(error))
    return {"errors": errors, "messages": messages}


def plain(value):
    if isinstance(value, (bytes, bytearray)):
        return value.hex()
    return str(value)


print(json.dumps({"garmin": garmin(sys.argv[1]), "fitdecode": second(sys.argv[1])}, default=plain))
