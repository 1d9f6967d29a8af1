#!/usr/bin/env python3
"""The owner's health report in a real browser (docs/REPORT.md, "Tests").

Opens a report that `healthvault report` wrote in headless Chromium through Selenium and
chromium-driver, and checks, against the vault's own answers asked through the CLI (`stats
--json`, `activity --json`, `data --json`):

- the page's Content Security Policy, and that nothing is requested but the file itself (the
  browser's performance log) and nothing in the page names an http(s) address;
- each chart is present (or the sentence saying it is empty), and the numbers of its table and of
  its SVG marks equal the vault's statistics for the same days, to the decimals shown;
- nothing overflows at a phone's width (375 CSS pixels) and a desktop's (1280): the document is
  no wider than the window; screenshots have the window's size, and pixels probed at chart marks
  have their series' colour;
- the report printed to PDF (`healthvault report --pdf`) has one page for the cover and one for
  each section with data (pdfinfo).

With --empty, the report is of an empty vault and must say so.

    .venv/bin/python scripts/report-browser-test.py --healthvault BIN --vault DIR \
        --passphrase-file FILE --from 2026-11-01 --to 2026-11-14 --report OUT.html [--empty]

Exits 0 when every check passed, 1 with the failures listed otherwise. Chromium runs with
--no-sandbox when run as root (CI runs as root, headless, without a display).
"""

import argparse
import base64
import datetime
import json
import os
import struct
import subprocess
import sys
import tempfile
import zlib
from zoneinfo import ZoneInfo

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
FAILURES = []
CHECKS = 0


def check(condition, what):
    global CHECKS
    CHECKS += 1
    if not condition:
        FAILURES.append(what)
    return condition


class Vault:
    def __init__(self, args):
        self.args = args

    def run(self, *arguments):
        command = [self.args.healthvault, *arguments, "--vault", self.args.vault,
                   "--passphrase-file", self.args.passphrase_file]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed: {done.stderr.strip()}")
        return done.stdout

    def lines(self, *arguments):
        return [json.loads(line) for line in self.run(*arguments, "--json").splitlines() if line.strip()]


# MARK: numbers as the page writes them

def number(text):
    text = text.strip().replace(",", "")
    for suffix in (" steps", " kcal", " kJ", " min", " bpm", " ms", " mmHg", " lb", " kg", " km", " mi", " h"):
        if text.endswith(suffix):
            text = text[: -len(suffix)]
    return float(text)


def hours_minutes(seconds):
    minutes = int(round(seconds / 60))
    return f"{minutes // 60}:{minutes % 60:02d}"


def decimals(text):
    text = text.replace(",", "").split(" ")[0]
    return len(text.split(".")[1]) if "." in text else 0


def agrees(shown, value):
    """Whether a number the page shows is `value` rounded to the decimals it shows."""
    return abs(number(shown) - value) <= 0.5 * 10 ** -decimals(shown) + 1e-9


# MARK: PNG, read without a library (8-bit RGB or RGBA, as Chromium writes screenshots)

def png_pixels(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, chunks, width, height, colour = 8, b"", 0, 0, 0
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6)
        elif kind == b"IDAT":
            chunks += body
        position += 12 + length
    channels = 4 if colour == 6 else 3
    raw = zlib.decompress(chunks)
    stride = width * channels
    rows, previous, offset = [], bytearray(stride), 0
    for _ in range(height):
        kind = raw[offset]
        line = bytearray(raw[offset + 1:offset + 1 + stride])
        offset += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            upper_left = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - upper_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - upper_left)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else upper_left)
                line[i] = (line[i] + predictor) & 255
        rows.append(line)
        previous = line
    return width, height, lambda x, y: tuple(rows[y][x * channels:x * channels + 3])


def close(colour, expected, tolerance=40):
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected))


SERIES_COLOURS = {"s0": (0x2a, 0x7a, 0xb8), "s1": (0xd2, 0x55, 0x2a), "s2": (0x3b, 0x9b, 0x5a)}


# MARK: the browser

def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--disable-gpu", "--hide-scrollbars", "--window-size=1280,900",
                     "--force-device-scale-factor=1", "--disable-background-networking"):
        options.add_argument(argument)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
    return webdriver.Chrome(service=Service(driver), options=options)


def set_width(driver, width):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False})


def requests(driver):
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def table(driver, chart):
    """A chart's table: {slot: [cells]}, and its header."""
    element = driver.find_element(By.CSS_SELECTOR, f'table[data-chart-table="{chart}"]')
    header = [th.get_attribute("textContent") for th in element.find_elements(By.CSS_SELECTOR, "thead th")]
    rows = {}
    for row in element.find_elements(By.CSS_SELECTOR, "tbody tr"):
        cells = [cell.get_attribute("textContent") for cell in row.find_elements(By.CSS_SELECTOR, "th, td")]
        rows[cells[0]] = cells[1:]
    return header, rows


def marks(driver, chart):
    """A chart's marks: [(slot, series, shown value, title)]."""
    found = []
    for mark in driver.find_elements(By.CSS_SELECTOR, f'svg[data-chart="{chart}"] .mark'):
        title = mark.find_element(By.TAG_NAME, "title").get_attribute("textContent")
        found.append((mark.get_attribute("data-slot"), mark.get_attribute("data-series"),
                      mark.get_attribute("data-value"), title))
    return found


def compare_chart(driver, chart, expected, columns=1, what=None):
    """The table of `chart` against `expected` {day: [value per column]}; its marks against the table."""
    what = what or chart
    if not expected:
        check(len(driver.find_elements(By.CSS_SELECTOR, f'[data-empty="{chart}"]')) == 1,
              f"{what}: no data, yet no sentence saying so")
        check(not driver.find_elements(By.ID, f"chart-{chart}"), f"{what}: no data, yet a chart")
        return
    if not check(len(driver.find_elements(By.ID, f"chart-{chart}")) == 1, f"{what}: the chart is missing"):
        return
    _, rows = table(driver, chart)
    check(sorted(rows) == sorted(expected), f"{what}: the table's days {sorted(rows)} are not the vault's {sorted(expected)}")
    for day, values in expected.items():
        cells = rows.get(day)
        if cells is None:
            continue
        for index, value in enumerate(values[:columns]):
            if value is None:
                continue
            if isinstance(value, str):
                check(cells[index] == value, f"{what} {day}: the table shows {cells[index]}, the vault {value}")
            else:
                check(agrees(cells[index], value), f"{what} {day}: the table shows {cells[index]}, the vault {value}")
    for slot, series, shown, title in marks(driver, chart):
        if slot in rows and series is not None and shown is not None:
            check(shown in rows[slot], f"{what} {slot}: the mark says {shown}, the table {rows[slot]}")
            check(shown in title, f"{what} {slot}: the mark's title {title!r} does not give {shown}")
    caption = driver.find_element(By.CSS_SELECTOR, f"#chart-{chart} figcaption").get_attribute("textContent")
    check("Average" in caption or "Asleep" in caption, f"{what}: the caption {caption!r} gives no average")


def day_of(instant, zone):
    moment = datetime.datetime.fromisoformat(instant.replace("Z", "+00:00"))
    return moment.astimezone(zone).date().isoformat()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--healthvault", required=True)
    parser.add_argument("--vault", required=True)
    parser.add_argument("--passphrase-file", required=True)
    parser.add_argument("--report", required=True)
    parser.add_argument("--from", dest="first", required=True)
    parser.add_argument("--to", dest="last", required=True)
    parser.add_argument("--empty", action="store_true")
    parser.add_argument("--screenshots", help="a directory to keep the screenshots in")
    args = parser.parse_args()
    vault = Vault(args)
    zone_name = json.loads(vault.run("timezone", "--json"))["timeZone"]
    zone = ZoneInfo(zone_name)
    end = (datetime.date.fromisoformat(args.last) + datetime.timedelta(days=1)).isoformat()
    units = {line["type"]: line["unit"] for line in vault.lines("units")}

    def daily(type_name, pick):
        return {day_of(line["startDate"], zone): pick(line["values"])
                for line in vault.lines("stats", type_name, "--from", args.first, "--to", end)
                if day_of(line["startDate"], zone) <= args.last}

    per_minute = lambda quantity: quantity["value"] * 60 if quantity["unit"] == "count/s" else quantity["value"]
    mass = lambda quantity: quantity["value"] / 0.45359237 if units.get("HKQuantityTypeIdentifierBodyMass") == "lb" \
        else quantity["value"]
    expected = {
        "steps": daily("steps", lambda v: [v["sum"]["value"]]),
        "resting-heart-rate": daily("restingHeartRate", lambda v: [v["average"]["value"]]),
        "heart-rate": daily("heartRate", lambda v: [per_minute(v["minimum"]), per_minute(v["maximum"]),
                                                    per_minute(v["average"])]),
        "hrv": daily("heartRateVariabilitySDNN", lambda v: [v["average"]["value"]]),
        "weight": daily("bodyMass", lambda v: [mass(v["average"])]),
        "bmi": daily("bodyMassIndex", lambda v: [v["average"]["value"]]),
    }
    systolic = daily("bloodPressureSystolic", lambda v: v["average"]["value"])
    diastolic = daily("bloodPressureDiastolic", lambda v: v["average"]["value"])
    expected["blood-pressure"] = {day: [systolic.get(day), diastolic.get(day)]
                                  for day in sorted(set(systolic) | set(diastolic))}
    activity = vault.lines("activity", "--from", args.first, "--to", args.last)
    expected["active-energy"] = {a["day"]: [a["activeEnergyBurned"]["value"], a["activeEnergyBurnedGoal"]["value"]]
                                 for a in activity}
    expected["exercise"] = {a["day"]: [a["appleExerciseTime"]["value"], a["appleExerciseTimeGoal"]["value"]]
                            for a in activity}
    expected["stand"] = {a["day"]: [a["appleStandHours"]["value"], a["appleStandHoursGoal"]["value"]]
                         for a in activity}
    nights = {}
    for line in vault.lines("stats", "sleep", "--from", args.first, "--to", end):
        night = day_of(line["startDate"], zone)
        if night <= args.last:
            nights[night] = line

    driver = browser()
    try:
        driver.get("file://" + os.path.abspath(args.report))
        source = driver.page_source
        # Nothing fetched, nothing that could be.
        csp = driver.find_element(By.CSS_SELECTOR, 'meta[http-equiv="Content-Security-Policy"]').get_attribute("content")
        check(csp == CSP, f"the Content-Security-Policy is {csp!r}")
        check("http://" not in source and "https://" not in source, "the page names an http(s) address")
        for tag in ("script", "link", "img", "iframe", "object", "embed", "video", "audio", "base"):
            check(not driver.find_elements(By.TAG_NAME, tag), f"the page holds a <{tag}>")
        fetched = [url for url in requests(driver) if not url.startswith("data:")]
        check(fetched == ["file://" + os.path.abspath(args.report)], f"requests left the page: {fetched}")

        if args.empty:
            check(len(driver.find_elements(By.CSS_SELECTOR, '[data-empty="all"]')) == 1,
                  "an empty vault's report does not say it holds no data")
            for section in ("activity", "heart", "sleep", "body", "workouts", "sources"):
                check(len(driver.find_elements(By.CSS_SELECTOR, f'[data-empty="{section}"]')) == 1,
                      f"the empty section {section} does not say so")
            check(not driver.find_elements(By.CSS_SELECTOR, "figure.chart"), "an empty vault's report draws charts")
        else:
            check(not driver.find_elements(By.CSS_SELECTOR, '[data-empty="all"]'), "the report says the vault is empty")
            compare_chart(driver, "steps", expected["steps"])
            compare_chart(driver, "active-energy", expected["active-energy"], columns=2)
            compare_chart(driver, "exercise", expected["exercise"], columns=2)
            compare_chart(driver, "stand", expected["stand"], columns=2)
            compare_chart(driver, "resting-heart-rate", expected["resting-heart-rate"])
            compare_chart(driver, "heart-rate", expected["heart-rate"], columns=3)
            compare_chart(driver, "hrv", expected["hrv"])
            compare_chart(driver, "weight", expected["weight"])
            compare_chart(driver, "bmi", expected["bmi"])
            compare_chart(driver, "blood-pressure", expected["blood-pressure"], columns=2)
            # Sleep: per night, each stage's time, in bed and asleep in all.
            if check(driver.find_elements(By.ID, "chart-sleep"), "the sleep chart is missing"):
                header, rows = table(driver, "sleep")
                names = {"Deep": 4, "Core": 3, "REM": 5, "Asleep": 1, "Awake": 2}
                check(sorted(rows) == sorted(nights), f"sleep: the nights {sorted(rows)} are not the vault's {sorted(nights)}")
                for night, line in nights.items():
                    stages = {value["value"]: value["duration"] for value in line["values"]}
                    cells = dict(zip(header[1:], rows.get(night, [])))
                    for column, value in names.items():
                        if column in cells:
                            check(cells[column] == hours_minutes(stages.get(value, 0)),
                                  f"sleep {night} {column}: {cells[column]}, the vault {hours_minutes(stages.get(value, 0))}")
                    check(cells.get("In bed") == hours_minutes(stages.get(0, 0)), f"sleep {night}: in bed {cells.get('In bed')}")
                    check(cells.get("Asleep in all") == hours_minutes(line.get("asleepDuration") or 0),
                          f"sleep {night}: asleep {cells.get('Asleep in all')}")
            # Sources: each type's samples per source, as the vault counts them (every sample of
            # the test lies in the report's days).
            shown = {}
            for row in driver.find_elements(By.CSS_SELECTOR, 'table[data-list="sources"] tbody tr'):
                cells = [cell.get_attribute("textContent") for cell in row.find_elements(By.TAG_NAME, "td")]
                shown[(row.get_attribute("data-type"), row.get_attribute("data-source"))] = int(number(cells[2]))
            held = {(line["type"], source["bundleIdentifier"]): source["count"]
                    for line in vault.lines("data") for source in line["sources"]}
            check(shown == held, f"sources: the page counts {shown}, the vault {held}")
            for mark in driver.find_elements(By.CSS_SELECTOR, 'svg[data-chart="sources"] .mark'):
                key = (mark.get_attribute("data-type"), mark.get_attribute("data-source"))
                check(held.get(key) == int(mark.get_attribute("data-value")), f"sources chart: {key}")
            # Workouts: one row per workout the vault lists in the days.
            workouts = [w for w in vault.lines("workouts", "list") if args.first <= day_of(w["startDate"], zone) <= args.last]
            rows = driver.find_elements(By.CSS_SELECTOR, 'table[data-list="workouts"] tbody tr')
            check(len(rows) == len(workouts), f"workouts: {len(rows)} rows, the vault {len(workouts)}")
            minutes = sum(w["duration"] for w in workouts) / 60
            if check(driver.find_elements(By.ID, "chart-workout-duration"), "the workout time chart is missing"):
                _, weeks = table(driver, "workout-duration")
                check(abs(sum(number(cells[0]) for cells in weeks.values()) - minutes) <= len(weeks) * 0.5,
                      f"workouts: the weeks' minutes {weeks} do not add up to {minutes}")
            # The access history: the audit log verified, an app's table.
            check("verified" in driver.find_element(By.ID, "audit-status").get_attribute("class").split(),
                  "the audit log is not shown verified")
            check(driver.find_elements(By.CSS_SELECTOR, "table.access"), "no access history table")

        # Nothing overflows, at a desktop's and a phone's width; screenshots of the window's size
        # with chart marks in their colours.
        for width in (1280, 375):
            set_width(driver, width)
            driver.get("file://" + os.path.abspath(args.report))
            inner, scroll = driver.execute_script(
                "return [window.innerWidth, document.documentElement.scrollWidth]")
            check(scroll <= inner, f"at {width}px the page is {scroll}px wide in a {inner}px window")
            wide = driver.execute_script(
                "return Array.from(document.querySelectorAll('body *')).filter(e => "
                "e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest('.scroll, .sr-only'))"
                ".map(e => e.tagName + '.' + e.className).slice(0, 5)")
            check(not wide, f"at {width}px these reach past the window: {wide}")
            probes = [] if args.empty else driver.execute_script(
                "return Array.from(document.querySelectorAll('svg[data-chart=steps] rect.bar')).slice(0, 3).map(r => {"
                "const b = r.getBoundingClientRect(); r.scrollIntoView({block: 'center'});"
                "const c = r.getBoundingClientRect(); return [c.x + c.width / 2, c.y + c.height / 2, c.width, c.height]; })")
            for x, y, w, h in probes:
                if w < 2 or h < 2:
                    continue
                driver.execute_script("window.scrollTo(0, 0)")
                driver.execute_script("document.querySelectorAll('svg[data-chart=steps] rect.bar')[0].scrollIntoView({block: 'center'})")
                break
            picture = driver.get_screenshot_as_png()
            if args.screenshots:
                with open(os.path.join(args.screenshots, f"report-{width}.png"), "wb") as file:
                    file.write(picture)
            png_width, png_height, pixel = png_pixels(picture)
            check(png_width == width, f"at {width}px the screenshot is {png_width}px wide")
            check(png_height == 900, f"at {width}px the screenshot is {png_height}px high, not the window's 900")
            if not args.empty:
                centres = driver.execute_script(
                    "return Array.from(document.querySelectorAll('svg[data-chart=steps] rect.bar')).map(r => {"
                    "const b = r.getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2, b.width, b.height]; })"
                    ".filter(b => b[1] > 0 && b[1] < window.innerHeight && b[2] >= 2 && b[3] >= 2)")
                check(centres, f"at {width}px no steps bar is in sight")
                for x, y, _, _ in centres[:3]:
                    colour = pixel(int(x), int(y))
                    check(close(colour, SERIES_COLOURS["s0"]), f"at {width}px a steps bar's pixel is {colour}")
                # The page's background is white where nothing is drawn: the top-left corner.
                check(close(pixel(1, 1), (255, 255, 255), 8), f"at {width}px the corner is {pixel(1, 1)}")

        # Printed: the cover, then each section with data from a page of its own. How many pages
        # each takes is measured under the print stylesheet at Letter's printable size (Chromium's
        # default paper: 8.5 x 11 in, 12 mm margins), in CSS pixels of 1/96 in.
        set_width(driver, round(8.5 * 96 - 2 * 12 / 25.4 * 96))
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        driver.get("file://" + os.path.abspath(args.report))
        page_height = 11 * 96 - 2 * 12 / 25.4 * 96
        starts = driver.execute_script(
            "const s = Array.from(document.querySelectorAll('section.has-data'));"
            "return [s.map(e => [e.id, e.getBoundingClientRect().top + window.scrollY]),"
            " document.documentElement.scrollHeight];")
        tops, height = starts
        edges = [0] + [top for _, top in tops] + [height]
        expected_pages = sum(max(1, -(-(edges[i + 1] - edges[i] - 1) // page_height)) for i in range(len(edges) - 1))
        expected_pages = int(expected_pages)
        sections = [name for name, _ in tops]

        # On A4 too (8.27 x 11.69 in, the same margins): nothing wider than the printable width,
        # and Chromium's own printing at A4 starts each section with data on a page of its own.
        a4_width = round(8.27 * 96 - 2 * 12 / 25.4 * 96)
        set_width(driver, a4_width)
        driver.get("file://" + os.path.abspath(args.report))
        widest = driver.execute_script("return document.documentElement.scrollWidth")
        check(widest <= a4_width, f"printed on A4 the page is {widest}px wide, more than the {a4_width}px printable")
        printed = driver.execute_cdp_cmd("Page.printToPDF", {
            "paperWidth": 8.27, "paperHeight": 11.69, "preferCSSPageSize": False, "printBackground": True})
        a4_pdf = base64.b64decode(printed["data"])
    finally:
        driver.quit()

    with tempfile.TemporaryDirectory() as folder:
        pdf = os.path.join(folder, "a4.pdf")
        with open(pdf, "wb") as file:
            file.write(a4_pdf)
        info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True, check=True).stdout
        size = next((line for line in info.splitlines() if line.startswith("Page size:")), "")
        check("595" in size and "841" in size, f"the A4 PDF's pages are {size!r}")
        a4_pages = int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))
        a4_first = []
        for page in range(1, a4_pages + 1):
            text = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), pdf, "-"],
                                  capture_output=True, text=True).stdout
            a4_first.append(next((line.strip() for line in text.splitlines() if line.strip()), ""))
        a4_titles = {"activity": "Activity", "heart": "Heart", "sleep": "Sleep", "body": "Body",
                     "workouts": "Workouts", "sources": "Sources", "access": "Access history"}
        check(a4_first and a4_first[0] == "Health report", f"the A4 PDF's first page begins with {a4_first[:1]!r}")
        check([line for line in a4_first if line in a4_titles.values()] == [a4_titles[name] for name in sections],
              f"on A4 the sections with data {sections} do not each start a page: pages begin {a4_first}")

    with tempfile.TemporaryDirectory() as folder:
        pdf = os.path.join(folder, "report.pdf")
        vault.run("report", "--from", args.first, "--to", args.last, "--pdf", pdf)
        info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True, check=True).stdout
        pages = int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))
        first_lines = []
        for page in range(1, pages + 1):
            text = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), pdf, "-"],
                                  capture_output=True, text=True).stdout
            first_lines.append(next((line.strip() for line in text.splitlines() if line.strip()), ""))
        titles = {"activity": "Activity", "heart": "Heart", "sleep": "Sleep", "body": "Body", "workouts": "Workouts",
                  "sources": "Sources", "access": "Access history"}
        starting = [line for line in first_lines if line in titles.values()]
        check(first_lines[0] == "Health report", f"the PDF's first page begins with {first_lines[0]!r}")
        check(starting == [titles[name] for name in sections],
              f"the sections with data {sections} do not each start a page: pages begin {first_lines}")
        if not check(pages == expected_pages, f"the PDF has {pages} pages, not the {expected_pages} measured"):
            for page in range(1, pages + 1):
                text = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), "-layout", pdf, "-"],
                                      capture_output=True, text=True).stdout
                FAILURES.append(f"  page {page}: " + " / ".join(line.strip() for line in text.splitlines() if line.strip())[:300])
        check(oct(os.stat(pdf).st_mode & 0o777) == "0o600", "the PDF is not owner-only")

    if FAILURES:
        print(f"{len(FAILURES)} of {CHECKS} checks failed:")
        for failure in FAILURES:
            print("  " + failure)
        return 1
    print(f"report in a browser: {CHECKS} passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
