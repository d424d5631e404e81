"""Drives the page of a running `workout run --serve` in headless Chromium, as a person
on a phone would: reads the segment and the countdown, presses Pause, Resume and Next,
and saves a screenshot at phone size. Prints what it saw as one JSON object.

usage: page_check.py URL SCREENSHOT"""
import json
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

PHONE = (390, 844)


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--hide-scrollbars", f"--window-size={PHONE[0]},{PHONE[1]}", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def text(driver, element_id):
    return driver.find_element(By.ID, element_id).text


def wait_for(condition, seconds=10.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    return None


def main():
    url, screenshot = sys.argv[1], sys.argv[2]
    driver = browser()
    # A phone's viewport, whatever the headless window's frame takes.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 1, "mobile": True})
    seen = {}
    try:
        driver.get(url)
        seen["name"] = wait_for(lambda: text(driver, "name") not in ("", "Connecting…", "Starting…")
                                and text(driver, "name"))
        seen["connected"] = bool(wait_for(lambda: "connected" in driver.find_element(By.TAG_NAME, "body")
                                          .get_attribute("class")))
        seen["info"] = text(driver, "info")
        seen["next"] = text(driver, "next")
        clocks = [text(driver, "clock")]
        for _ in range(2):
            time.sleep(1.1)
            clocks.append(text(driver, "clock"))
        seen["clocks"] = clocks
        driver.save_screenshot(screenshot)
        driver.find_element(By.ID, "pause").click()
        seen["paused_shown"] = bool(wait_for(lambda: text(driver, "pause") == "Resume"
                                             and driver.find_element(By.ID, "paused").is_displayed()))
        seen["paused_clocks"] = [text(driver, "clock")]
        time.sleep(1.1)
        seen["paused_clocks"].append(text(driver, "clock"))
        driver.find_element(By.ID, "pause").click()
        seen["resumed_shown"] = bool(wait_for(lambda: text(driver, "pause") == "Pause"))
        driver.find_element(By.ID, "next-button").click()
        seen["next_name"] = wait_for(lambda: text(driver, "name") != seen["name"] and text(driver, "name"))
        seen["shown"] = driver.execute_script("return window.workoutShown")
    finally:
        driver.quit()
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
