"""The class page of a running `workout run --serve --mqtt` in headless Chromium, with
30 participants at 1 Hz, each a `mosquitto_pub -l` (one message a line) on
PREFIX/participants/pNN, the first with a hostile name; then one participant flooding.
Prints what it saw as one JSON object: the cards in order for ?sort=hr and after choosing
"name", their colours, whether the hostile name became markup, the flooder's counts, and
each reading's latency from its publishing to the page showing it (ms).

usage: class_check.py CLASS_URL BROKER_PORT PREFIX SECONDS"""
import json
import subprocess
import sys
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import Select
from selenium.webdriver.common.by import By

HOSTILE = '<img src=x onerror="window.pwned=1">\x1b[31mEve'


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--hide-scrollbars", "--window-size=1920,1080", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def publisher(port, topic):
    return subprocess.Popen(["mosquitto_pub", "-h", "127.0.0.1", "-p", port, "-t", topic, "-l"],
                            stdin=subprocess.PIPE, text=True)


def zone(hr):
    return 1 if hr < 114 else 2 if hr < 133 else 3 if hr < 152 else 4 if hr < 171 else 5


CARDS = """return [...document.querySelectorAll('#class .card')].map(c => ({
  id: c.dataset.id, name: c.querySelector('.name').textContent,
  hr: c.querySelector('.hr').textContent, power: c.querySelector('.power').textContent,
  colour: getComputedStyle(c.querySelector('.hr')).color, zone: c.querySelector('.time').textContent }))"""


def main():
    url, port, prefix, seconds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    people = [publisher(port, f"{prefix}/participants/p{i:02}") for i in range(30)]
    driver = browser()
    sent = {}
    try:
        driver.get(url)
        # The page follows its feed before the first reading is sent.
        end = time.monotonic() + 10
        while time.monotonic() < end and not driver.execute_script("return document.body.classList.contains('connected')"):
            time.sleep(0.01)
        for second in range(seconds):
            start = time.monotonic()
            for i, pub in enumerate(people):
                hr = 95 + i * 3 + second
                name = HOSTILE if i == 0 else f"Rider {i:02}"
                pub.stdin.write(json.dumps({"name": name, "hr": hr, "hr_zone": zone(hr), "power": 100 + i * 10}) + "\n")
                pub.stdin.flush()
                sent[(f"p{i:02}", hr)] = time.time() * 1000
            time.sleep(max(0, 1 - (time.monotonic() - start)))
        last = {f"p{i:02}": 95 + i * 3 + seconds - 1 for i in range(30)}
        end = time.monotonic() + 10
        while time.monotonic() < end:
            cards = driver.execute_script(CARDS)
            if len(cards) == 30 and all(c["hr"] == str(last[c["id"]]) for c in cards):
                break
            time.sleep(0.1)
        by_hr = driver.execute_script(CARDS)
        Select(driver.find_element(By.ID, "sort")).select_by_value("name")
        by_name = driver.execute_script(CARDS)
        shown = driver.execute_script("return window.classShown")
        latencies = [s["at"] - sent[(s["id"], s["hr"])] for s in shown if (s["id"], s["hr"]) in sent]
        pwned = driver.execute_script("return window.pwned === 1 || document.querySelector('#class img') !== null")
        # One participant floods: 300 messages at once.
        flood = publisher(port, f"{prefix}/participants/flood")
        flood_start = time.monotonic()
        flood.stdin.write("".join(json.dumps({"hr": 150}) + "\n" for _ in range(300)))
        flood.stdin.close()
        flood.wait(10)
        json_url = url.replace("/class?", "/class.json?")
        counts = {}
        end = time.monotonic() + 10
        while time.monotonic() < end:
            roster = json.load(urllib.request.urlopen(json_url))
            counts = next((p for p in roster["participants"] if p["id"] == "flood"), {})
            if counts.get("kept", 0) + counts.get("dropped", 0) >= 300:
                break
            time.sleep(0.1)
        counts = {"kept": counts.get("kept", 0), "dropped": counts.get("dropped", 0),
                  "seconds": time.monotonic() - flood_start}
        print(json.dumps({"by_hr": by_hr, "by_name": by_name, "pwned": pwned, "flood": counts,
                          "latencies": latencies}))
    finally:
        for pub in people:
            pub.stdin.close()
        for pub in people:
            pub.wait(10)
        driver.quit()


if __name__ == "__main__":
    main()
