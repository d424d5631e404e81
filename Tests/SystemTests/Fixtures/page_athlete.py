"""Drives the page of a running `workout run --serve` of athlete.lua in headless Chromium,
as an athlete with a phone would: during the open set it reads the clock counting up and
the cap, presses +1 round twice and Lap, then DONE; reads the rest's countdown; skips to
the last set and ends it with the Enter key. Space pauses and resumes the set in between. Prints what it saw as one JSON object.

usage: page_athlete.py URL [SCREENSHOT]"""
import json
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

PHONE = (390, 844)


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--hide-scrollbars", f"--window-size={PHONE[0]},{PHONE[1]}", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def wait_for(condition, seconds=15.0):
    """Polls `condition` until it gives something true; None when it never does."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    return None


def seconds(clock):
    """`0:32` → 32; None for anything else."""
    try:
        total = 0
        for part in clock.split(":"):
            total = total * 60 + int(part)
        return total
    except ValueError:
        return None


def main():
    url = sys.argv[1]
    screenshot = sys.argv[2] if len(sys.argv) > 2 else None
    driver = browser()
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 1, "mobile": True})
    element = lambda element_id: driver.find_element(By.ID, element_id)
    text = lambda element_id: element(element_id).text
    seen = {}
    try:
        driver.get(url)
        seen["name"] = wait_for(lambda: text("name") == "Squats" and text("name"))
        seen["done_shown"] = element("done-button").is_displayed()
        seen["pause_shown"] = element("pause").is_displayed()
        seen["set"] = text("set")
        # The clock counts up from the set's start: two different readings, in order.
        first = wait_for(lambda: seconds(text("clock")) is not None and text("clock"))
        second = wait_for(lambda: text("clock") != first and text("clock"))
        seen["clocks"] = [first, second]
        element("round-button").click()
        seen["one"] = wait_for(lambda: text("tallies") == "1 rounds" and text("tallies"))
        element("round-button").click()
        seen["two"] = wait_for(lambda: text("tallies") == "2 rounds" and text("tallies"))
        element("lap").click()
        seen["lap"] = wait_for(lambda: text("set").startswith("cap 5:00 · lap 1 ") and text("set"))
        if screenshot:
            driver.save_screenshot(screenshot)
        # Paused during a set (space, on the page), Resume comes back beside DONE.
        driver.execute_script("document.activeElement && document.activeElement.blur()")
        ActionChains(driver).send_keys(" ").perform()
        seen["paused_resume"] = bool(wait_for(lambda: element("pause").is_displayed() and text("pause") == "Resume"
                                              and element("done-button").is_displayed()))
        ActionChains(driver).send_keys(" ").perform()
        seen["resumed"] = bool(wait_for(lambda: not element("pause").is_displayed()))
        # Done counts from a second into the set (a bouncing pedal's second press is not).
        wait_for(lambda: (seconds(text("clock")) or 0) >= 2)
        element("done-button").click()
        seen["rest"] = wait_for(lambda: text("name") == "Rest" and text("name"))
        seen["rest_clock"] = text("clock")
        seen["rest_done_shown"] = element("done-button").is_displayed()
        seen["rest_pause_shown"] = element("pause").is_displayed()
        seen["rest_tallies"] = text("tallies")
        element("next-button").click()
        seen["last"] = wait_for(lambda: text("name") == "Press" and text("name"))
        seen["last_set"] = text("set")
        seen["last_clock"] = text("clock")
        wait_for(lambda: (seconds(text("clock")) or 0) >= 2)
        # The Enter key, on the page itself (a focused button's Enter is its own press).
        driver.execute_script("document.activeElement && document.activeElement.blur()")
        ActionChains(driver).send_keys(Keys.ENTER).perform()
        seen["finished"] = bool(wait_for(lambda: "finished" in driver.find_element(By.TAG_NAME, "body")
                                         .get_attribute("class")))
    finally:
        driver.quit()
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
