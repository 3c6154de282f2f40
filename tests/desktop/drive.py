#!/usr/bin/env python3
"""Drives the real petstore-desktop window through tauri-driver (W3C WebDriver).

Started by tests/desktop/run.sh, which sets up Xvfb, the temporary store and tauri-driver and
passes everything in the environment:

  DESKTOP_APP   the petstore-desktop binary        API       http://127.0.0.1:PORT (PETSTORE_BIND)
  ADMIN_KEY     PETSTORE_ADMIN_KEY                 SHOTS     folder for screenshots
  LAN_HOST      a non-loopback address of this machine (or of the host side of a veth pair)
  LAN_NETNS     if set, the network namespace to reach LAN_HOST from
  LAN_PORT      a free port for LAN access          CONFIG    the desktop settings file
  WEBDRIVER     tauri-driver's address (default http://127.0.0.1:4444)

Standard library only. Prints one "ok - ..." or "not ok - ..." line per check; run.sh counts
them. Never talks to any address but loopback and LAN_HOST (an address of this machine).
"""

import base64
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

ENV = os.environ
WEBDRIVER = ENV.get("WEBDRIVER", "http://127.0.0.1:4444")
API = ENV["API"]
KEY = ENV["ADMIN_KEY"]
SHOTS = ENV["SHOTS"]
LAN_HOST = ENV["LAN_HOST"]
LAN_PORT = int(ENV["LAN_PORT"])
LAN_NETNS = ENV.get("LAN_NETNS", "")
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"

failures = 0


def check(name, ok, detail=""):
    global failures
    if ok:
        print(f"ok - {name}", flush=True)
    else:
        failures += 1
        print(f"not ok - {name}" + (f": {detail}" if detail else ""), flush=True)
    return ok


def http(method, url, body=None, key=None, timeout=30):
    """(status, decoded JSON or text); raises only for connection-level errors."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method)
    if body is not None:
        req.add_header("Content-Type", "application/json")
    if key:
        req.add_header("X-API-Key", key)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            status, raw = resp.status, resp.read()
    except urllib.error.HTTPError as err:
        status, raw = err.code, err.read()
    try:
        return status, json.loads(raw) if raw else None
    except ValueError:
        return status, raw.decode(errors="replace")


def lan_get(path, key=None):
    """GET on the LAN address: the status code, or the name of the connection error."""
    url = f"http://{LAN_HOST}:{LAN_PORT}{path}"
    if LAN_NETNS:
        cmd = ["ip", "netns", "exec", LAN_NETNS, "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}",
               "--max-time", "10"] + (["-H", f"X-API-Key: {key}"] if key else []) + [url]
        out = subprocess.run(cmd, capture_output=True, text=True)
        return int(out.stdout) if out.stdout.strip() not in ("", "000") else f"curl exit {out.returncode}"
    try:
        return http("GET", url, key=key, timeout=10)[0]
    except (ConnectionRefusedError, urllib.error.URLError) as err:
        reason = getattr(err, "reason", err)
        return type(reason).__name__


class Session:
    def __init__(self, app):
        caps = {"capabilities": {"alwaysMatch": {"tauri:options": {"application": app}}}}
        status, body = http("POST", f"{WEBDRIVER}/session", caps, timeout=120)
        if status != 200:
            raise RuntimeError(f"new session: {status} {body}")
        self.id = body["value"]["sessionId"]
        self.base = f"{WEBDRIVER}/session/{self.id}"

    def cmd(self, method, path, body=None, timeout=60):
        body = body if body is not None else ({} if method == "POST" else None)
        for attempt in range(4):
            try:
                status, resp = http(method, self.base + path, body, timeout=timeout)
                break
            except ConnectionError:
                # tauri-driver now and then reuses a connection to WebKitWebDriver that the
                # latter has closed, and drops ours ("client error (SendRequest)"): the
                # command never reached the browser, so sending it again is safe.
                if attempt == 3:
                    raise
                time.sleep(0.2)
        if status != 200:
            raise RuntimeError(f"{method} {path}: {status} {resp}")
        return resp["value"]

    def js(self, script, *args):
        return self.cmd("POST", "/execute/sync", {"script": script, "args": list(args)})

    def js_async(self, script, *args):
        return self.cmd("POST", "/execute/async", {"script": script, "args": list(args)})

    def wait(self, script, timeout=20, what="condition"):
        end = time.monotonic() + timeout
        last = None
        while time.monotonic() < end:
            try:
                last = self.js(script)
                if last:
                    return last
            except RuntimeError as err:
                last = err
            time.sleep(0.1)
        raise TimeoutError(f"waited {timeout}s for {what}; last: {last}")

    def find(self, css, within=None):
        path = f"/element/{within}/element" if within else "/element"
        return self.cmd("POST", path, {"using": "css selector", "value": css})[ELEMENT]

    def click(self, element):
        self.cmd("POST", f"/element/{element}/click")

    def type(self, element, text):
        self.cmd("POST", f"/element/{element}/value", {"text": text})

    def screenshot(self, path):
        with open(path, "wb") as out:
            out.write(base64.b64decode(self.cmd("GET", "/screenshot")))

    def invoke(self, command, args=None):
        """window.__TAURI__.core.invoke(command, args) inside the window; errors come back as {__rejected}."""
        return self.js_async(
            "const [cmd, args, done] = arguments;"
            "window.__TAURI__.core.invoke(cmd, args).then(done, (e) => done({__rejected: String(e)}));",
            command, args or {})

    def close(self):
        http("DELETE", self.base, timeout=60)


def seed_pet():
    """A category and a pet with 5 in stock, made through the API the window uses."""
    stamp = str(int(time.time() * 1000))[-6:]
    status, category = http("POST", f"{API}/categories", {"name": f"Dogs {stamp}"}, KEY)
    if status != 201:
        raise RuntimeError(f"POST /categories: {status} {category}")
    status, pet = http("POST", f"{API}/pets", {"name": f"Biscuit {stamp}", "categoryId": category["id"], "status": "available"}, KEY)
    if status != 201:
        raise RuntimeError(f"POST /pets: {status} {pet}")
    status, item = http("PUT", f"{API}/store/inventory/{pet['id']}", {"quantity": 5}, KEY)
    if status != 200:
        raise RuntimeError(f"PUT /store/inventory: {status} {item}")
    return pet


def root_screenshot(path):
    """The whole X screen, as a person would see it (ImageMagick's own import)."""
    subprocess.run(["/usr/bin/import", "-window", "root", path], check=False)


def staff_ui_flow(s, pet):
    started = time.monotonic()
    s.wait("return document.readyState === 'complete' && !!document.querySelector('header.top nav.nav a')",
           timeout=30, what="the signed-in staff UI")
    print(f"# signed-in staff UI ready {time.monotonic() - started:.2f}s after the WebDriver session opened", flush=True)

    session = s.js("const x = window.__PETSTORE_SESSION__; return x ? {desktop: x.desktop, keyLength: x.key.length, href: location.href, signIn: !!document.querySelector('.signin')} : null")
    check("the window is signed in by the injected session, with no sign-in page",
          bool(session) and session["desktop"] is True and session["keyLength"] > 0 and not session["signIn"], str(session))
    key = s.js("return window.__PETSTORE_SESSION__.key")
    check("the session key is not in the window's URL", key not in (session or {}).get("href", key), session and session["href"])
    check("the session key is not the admin key from the environment", key != KEY)
    check("the session key answers the API as an admin", http("GET", f"{API}/admin/keys", key=key)[0] == 200)
    check("the window's page sees window.__TAURI__.core.invoke", s.js("return typeof window.__TAURI__?.core?.invoke") == "function")

    # One flow a person does: adjust a pet's stock from the Inventory page.
    s.js("location.hash = '#/inventory'")
    row_css = f'tr[data-pet-id="{pet["id"]}"]'
    s.wait(f"return !!document.querySelector('{row_css}')", what="the pet's row on the Inventory page")
    before = s.wait(f"const r = document.querySelector('{row_css}'); return r && [...r.cells].some(c => c.textContent.trim() === '5') && r.innerText",
                    what="the row to show 5 in stock")
    check("the Inventory page shows the pet with 5 in stock", bool(before))
    # The button whose visible text starts with "Adjust" (its full text adds the pet's name).
    # The page may redraw the row right then (the event stream reports the seeding), which can
    # cost a click its element: find it afresh and try again.
    find_adjust = f"return [...document.querySelectorAll('{row_css} button')].find(b => b.textContent.startsWith('Adjust')) || null"
    time.sleep(0.5)
    for _ in range(3):
        adjust = s.js(find_adjust)
        if not adjust:
            break
        try:
            s.click(adjust[ELEMENT])
            break
        except (RuntimeError, ConnectionError) as err:
            print(f"# clicking Adjust failed ({type(err).__name__}); trying again", flush=True)
            time.sleep(0.5)
    if not check("the pet's row offers Adjust", bool(adjust), str(adjust)):
        return
    s.wait("return !!document.querySelector('dialog[open] input[name=delta]')", what="the Adjust dialog")
    s.type(s.find("dialog[open] input[name=delta]"), "1")
    s.type(s.find("dialog[open] input[name=reason]"), "Found one more in the back room")
    s.click(s.find("dialog[open] button[type=submit]"))
    shown = s.wait(f"const r = document.querySelector('{row_css}');"
                   " return r && !document.querySelector('dialog[open]') && [...r.cells].some(c => c.textContent.trim() === '6') && r.innerText",
                   what="the row to show 6 in stock")
    check("adjusting stock by +1 in the window shows 6 in the pet's row", bool(shown), str(shown))
    status, item = http("GET", f"{API}/store/inventory/{pet['id']}", key=KEY)
    check("the API agrees: 6 in stock", status == 200 and item.get("quantity") == 6, f"{status} {item}")
    status, history = http("GET", f"{API}/store/inventory/{pet['id']}/adjustments", key=KEY)
    latest = history[0] if status == 200 and history else {}
    check("the stock history names the window's key and the reason",
          latest.get("delta") == 1 and latest.get("keyName") == "desktop" and "back room" in (latest.get("reason") or ""), str(latest))

    time.sleep(0.5)  # let the toast and the row settle for the picture
    s.screenshot(os.path.join(SHOTS, "staff-ui-webview.png"))
    root_screenshot(os.path.join(SHOTS, "staff-ui-screen.png"))


def lan_flow(s):
    status = s.invoke("get_lan_status")
    check("get_lan_status answers {enabled, port, addresses, error}",
          isinstance(status, dict) and set(status) == {"enabled", "port", "addresses", "error"}, str(status))
    check("LAN access is off by default, on port 8080",
          status.get("enabled") is False and status.get("port") == 8080 and status.get("addresses") == [] and status.get("error") is None, str(status))
    check("with LAN access off the LAN address is refused", lan_get("/health") != 200, str(lan_get("/health")))

    status = s.invoke("set_lan", {"enabled": True, "port": LAN_PORT})
    want = f"http://{LAN_HOST}:{LAN_PORT}"
    check("set_lan on answers enabled, the port and this machine's address",
          status.get("enabled") is True and status.get("port") == LAN_PORT and want in status.get("addresses", []) and status.get("error") is None,
          str(status))
    check("the API answers on the LAN address with a key", lan_get("/store/inventory", KEY) == 200, str(lan_get("/store/inventory", KEY)))
    check("the API refuses the LAN address without a key", lan_get("/store/inventory") == 401, str(lan_get("/store/inventory")))
    try:
        with open(ENV["CONFIG"]) as f:
            text = f.read()
        saved = json.loads(text)
    except (OSError, ValueError) as err:
        text, saved = "", {"error": str(err)}
    check("the setting is remembered, with no secret in the file",
          saved.get("lan") == {"enabled": True, "port": LAN_PORT} and KEY not in text and "key" not in text.lower(), text or str(saved))

    status = s.invoke("set_lan", {"enabled": False})
    check("set_lan off answers enabled: false", status.get("enabled") is False and status.get("error") is None, str(status))
    after = lan_get("/health")
    check("after turning LAN access off the LAN address is refused", after != 200, str(after))
    check("the window's own loopback API still answers", http("GET", f"{API}/store/inventory", key=KEY)[0] == 200)

    # A port held by another program is said plainly, and nothing changes.
    holder = socket.socket()
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    holder.bind(("0.0.0.0", 0))
    holder.listen()
    taken = holder.getsockname()[1]
    try:
        status = s.invoke("set_lan", {"enabled": True, "port": taken})
        check("a taken port is said plainly",
              status.get("enabled") is False and status.get("error") ==
              f"Port {taken} is in use by another program. Choose another port or close that program.", str(status))
    finally:
        holder.close()
    own = int(API.rsplit(":", 1)[1])
    status = s.invoke("set_lan", {"enabled": True, "port": own})
    check("the window's own port is refused in words", status.get("enabled") is False and
          status.get("error") == f"Port {own} is already used by this app (PETSTORE_BIND). Choose another port.", str(status))
    for bad in (0, 70000, -1):
        status = s.invoke("set_lan", {"enabled": True, "port": bad})
        check(f"port {bad} is refused in words, not by a rejected call",
              status.get("enabled") is False and status.get("error") == "Choose a port from 1024 to 65535.", str(status))


def network_panel(s):
    """The staff UI's Network panel, once it has one: it shows the setting and the addresses."""
    find_link = "return [...document.querySelectorAll('a, button')].find(e => e.textContent.trim() === 'Network') || null"
    if not s.js(find_link):
        print("# the staff UI has no Network panel yet: its checks are skipped", flush=True)
        return
    s.invoke("set_lan", {"enabled": True, "port": LAN_PORT})
    s.click(s.js(find_link)[ELEMENT])
    want = f"{LAN_HOST}:{LAN_PORT}"
    text = s.wait("const t = document.body.innerText;"
                  f" return t.includes('Let devices on this network use the store') && t.includes('{want}') && t",
                  what="the Network panel with this machine's address")
    check("the Network panel shows the setting and the address for POS devices", bool(text))
    time.sleep(0.3)
    s.screenshot(os.path.join(SHOTS, "network-panel-webview.png"))
    root_screenshot(os.path.join(SHOTS, "network-panel-screen.png"))

    # A person picks a port another program holds: the panel says so, and another port works.
    holder = socket.socket()
    holder.bind(("0.0.0.0", 0))
    holder.listen()
    taken = holder.getsockname()[1]
    try:
        port_input = s.find("main input[type=number]")
        apply = s.js("return [...document.querySelectorAll('main button')].find(b => b.textContent.trim() === 'Apply') || null")
        s.cmd("POST", f"/element/{port_input}/clear")
        s.type(port_input, str(taken))
        s.click(apply[ELEMENT])
        said = s.wait(f"const t = document.body.innerText; return t.includes('Port {taken} is in use by another program') && t",
                      what="the taken port's message in the panel")
        check("a taken port typed into the Network panel is said plainly there", bool(said))
        time.sleep(0.3)
        root_screenshot(os.path.join(SHOTS, "network-port-taken-screen.png"))
        s.cmd("POST", f"/element/{port_input}/clear")
        s.type(port_input, str(LAN_PORT))
        s.click(apply[ELEMENT])
        back = s.wait(f"const t = document.body.innerText; return !t.includes('is in use by another program') && t.includes('{want}') && t",
                      what="the panel to recover with a free port")
        check("choosing a free port in the panel gets LAN access back", bool(back) and lan_get("/health") == 200)
    finally:
        holder.close()
        s.invoke("set_lan", {"enabled": False})


def main():
    os.makedirs(SHOTS, exist_ok=True)
    started = time.monotonic()
    s = Session(ENV["DESKTOP_APP"])
    print(f"# WebDriver session (app launched) in {time.monotonic() - started:.2f}s", flush=True)
    try:
        pet = seed_pet()  # through the app's own embedded server, which is up now
        for flow in (lambda: staff_ui_flow(s, pet), lambda: lan_flow(s), lambda: network_panel(s)):
            try:
                flow()
            except Exception as err:  # one broken flow must not hide the others
                check("a flow ran to the end", False, f"{type(err).__name__}: {err}")
                try:
                    s.screenshot(os.path.join(SHOTS, "failure.png"))
                except Exception:
                    pass
    finally:
        s.close()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
