#!/usr/bin/env python3
"""Opens mockstore's console in headless Chromium, checks the page does not scroll sideways at a laptop's and a
phone's width, clicks "Refund" for one transaction and waits until the page shows it refunded.

Usage: console_refund_click.py CHROMIUM CONSOLE_URL TRANSACTION_ID PROFILE_DIR [SCREENSHOT_DIR]

Chromium is driven by its DevTools protocol over a pipe (--remote-debugging-pipe: commands on its fd 3, answers on
its fd 4, each message JSON ended by a NUL), so no websocket and no port. Nothing here pauses: every wait is a
promise the page itself resolves (Runtime.evaluate with awaitPromise), bounded by one deadline. Prints one JSON
object: the widths checked and the refunded row's words. Exit status 0 when all held, 1 otherwise.
"""

import base64
import json
import os
import select
import subprocess
import sys
import time

DEADLINE = time.monotonic() + 480


class Browser:
    def __init__(self, chromium, profile):
        commands_read, self.commands = os.pipe()
        self.answers, answers_write = os.pipe()

        def wire_pipes():
            # Through copies: a pipe's own end may already be 3 or 4, and an inherited copy is what Chromium gets.
            commands, answers = os.dup(commands_read), os.dup(answers_write)
            os.dup2(commands, 3)
            os.dup2(answers, 4)

        self.process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
             "--remote-debugging-pipe", f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=None if os.environ.get("CONSOLE_CHROMIUM_LOG") else subprocess.DEVNULL, close_fds=False, preexec_fn=wire_pipes)
        os.close(commands_read)
        os.close(answers_write)
        self.buffer = b""
        self.next_id = 0
        self.session = None

    def send(self, method, params=None, session=True):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.commands, json.dumps(message).encode() + b"\0")
        return self.answer(self.next_id)

    def answer(self, wanted):
        while True:
            while b"\0" in self.buffer:
                raw, self.buffer = self.buffer.split(b"\0", 1)
                message = json.loads(raw)
                if message.get("id") == wanted:
                    if "error" in message:
                        raise RuntimeError(f"{message['error']}")
                    return message["result"]
            left = DEADLINE - time.monotonic()
            if left <= 0 or not select.select([self.answers], [], [], left)[0]:
                raise TimeoutError("Chromium did not answer in time")
            chunk = os.read(self.answers, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed its pipe")
            self.buffer += chunk

    def evaluate(self, expression):
        """The value of `expression` in the page (a promise is awaited). Retried while the page is still loading:
        an evaluation in a page that is being replaced ends with an error."""
        while True:
            try:
                result = self.send("Runtime.evaluate",
                                   {"expression": expression, "awaitPromise": True, "returnByValue": True})
            except RuntimeError:
                if time.monotonic() > DEADLINE:
                    raise
                continue
            if "exceptionDetails" in result:
                if time.monotonic() > DEADLINE:
                    raise RuntimeError(f"{result['exceptionDetails']}")
                continue
            return result["result"].get("value")

    def close(self):
        try:
            self.send("Browser.close", session=False)
        except Exception:
            pass
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def until(condition):
    """A promise, resolved with the condition's value once it is truthy (checked every 50 ms in the page)."""
    return ("new Promise((resolve) => { const check = () => { const value = (" + condition + ")(); "
            "if (value) resolve(value); else setTimeout(check, 50); }; check(); })")


def main():
    chromium, url, transaction, profile = sys.argv[1:5]
    screenshots = sys.argv[5] if len(sys.argv) > 5 else None
    browser = Browser(chromium, profile)
    try:
        target = browser.send("Target.createTarget", {"url": url}, session=False)["targetId"]
        browser.session = browser.send(
            "Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
        refund = f'button[data-path$="/{transaction}/refund"]'
        browser.evaluate(until(f"() => location.href === {json.dumps(url)} && document.querySelector('{refund}')"))
        widths = {}
        for width in (1280, 390):
            browser.send("Emulation.setDeviceMetricsOverride",
                         {"width": width, "height": 1800, "deviceScaleFactor": 1, "mobile": width < 600})
            widths[width] = browser.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            if screenshots:
                shot = browser.send("Page.captureScreenshot", {"format": "png"})
                with open(os.path.join(screenshots, f"console-{width}.png"), "wb") as file:
                    file.write(base64.b64decode(shot["data"]))
        browser.evaluate(f"document.querySelector('{refund}').click(), true")
        row = browser.evaluate(until(
            "() => { const row = [...document.querySelectorAll('#store tr')].find("
            f"(each) => each.textContent.includes({json.dumps(transaction)})); "
            "return row && row.querySelector('button[data-path$=\"/refund/reverse\"]') "
            "&& [row.textContent, document.getElementById('note').textContent]; }"))
        print(json.dumps({"widths": widths, "row": row[0], "note": row[1]}))
        fits = all(scroll <= inner for scroll, inner in widths.values())
        return 0 if fits and "refunded" in row[0] else 1
    finally:
        browser.close()


if __name__ == "__main__":
    sys.exit(main())
