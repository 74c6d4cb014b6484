#!/usr/bin/env python3
"""Screenshots of the web board for the README and docs/web.md (docs/img/web-*.png): starts
`chimera serve`, lets the engine play itself a few moves in chess, shogi, Vanguard and Alice
Guard, stops it (the engine plays its last move), turns analysis on, and saves what headless
Chromium shows. Needs chromium and chromedriver (Debian: chromium chromium-driver).

usage: tools/web_screenshots.py [path/to/chimera] [out-dir]
"""
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

CHIMERA = sys.argv[1] if len(sys.argv) > 1 else "target/release/chimera"
OUT = sys.argv[2] if len(sys.argv) > 2 else "docs/img"
# Variant, start FEN (None: the start position), seconds of engine-against-engine play at
# 150 ms a move, window size. Shogi starts from a middle game with promoted men and hands.
SHOGI = "lnsgk1snl/1r4g2/p1pp+Ppppp/9/1p7/2P6/PP1P1PPPP/7R1/LNSGKGSNL[BPb] w - - 0 1"
GAMES = [
    ("chess", None, 5, (1400, 900)),
    ("shogi", SHOGI, 4, (1400, 1000)),
    ("vanguard", None, 6, (1500, 1200)),
    ("aliceguard", None, 6, (1500, 820)),
]


def call(method, url, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        return json.loads(urllib.request.urlopen(req, timeout=60).read())
    except urllib.error.HTTPError as e:
        return json.loads(e.read())


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    server = subprocess.Popen([CHIMERA, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    url = server.stdout.readline().strip()
    port = free_port()
    driver = subprocess.Popen(["chromedriver", f"--port={port}"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    profile = tempfile.mkdtemp(prefix="chimera-shots-")
    wd = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                call("GET", wd + "/status")
                break
            except OSError:
                time.sleep(0.1)
        args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                f"--user-data-dir={profile}", "--window-size=1400,940", "--hide-scrollbars"]
        caps = {"capabilities": {"alwaysMatch": {"goog:chromeOptions": {"args": args}}}}
        session = call("POST", wd + "/session", caps)["value"]["sessionId"]
        s = f"{wd}/session/{session}"

        def run(script):
            return call("POST", s + "/execute/sync", {"script": script, "args": []})["value"]

        for variant, fen, seconds, (width, height) in GAMES:
            call("POST", s + "/window/rect", {"width": width, "height": height})
            page = f"{url}?variant={variant}&movetime=150"
            if fen:
                page += "&fen=" + urllib.parse.quote(fen)
            call("POST", s + "/url", {"url": page})
            time.sleep(1.5)
            run("document.getElementById('watch').click()")
            time.sleep(seconds)
            run("document.getElementById('stop').click()")
            time.sleep(0.5)
            run("const a = document.getElementById('analyse'); a.checked = true;"
                "document.getElementById('multipv').value = 2; a.dispatchEvent(new Event('change'))")
            time.sleep(2.5)
            png = call("GET", s + "/screenshot")["value"]
            os.makedirs(OUT, exist_ok=True)
            path = os.path.join(OUT, f"web-{variant}.png")
            with open(path, "wb") as f:
                f.write(base64.b64decode(png))
            print(path)
        call("DELETE", s)
    finally:
        driver.kill()
        server.kill()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
