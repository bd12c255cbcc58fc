"""A home network, for real: the server behind nginx on this machine's network address (not
loopback), once over plain http and once over HTTPS with the set-up docs/OPERATIONS.md gives
("HTTPS on a home network").  Over http the address is no secure context: the room plays as
ever, with no service worker, no wake lock and no notification offer.  Over HTTPS (a certificate
made here for the address; a phone would trust mkcert's CA, this browser is told to accept it)
the same page is a secure context: the worker takes control, the screen is kept on at the table
and notifications are offered.

Chromium registers no service worker for a page whose certificate it was told to overlook
(``ignore_https_errors``): the HTTPS test runs a browser of its own that trusts the test's
certificate by its key (``--ignore-certificate-errors-spki-list``), as a phone trusts a CA.
"""

from __future__ import annotations

import base64
import hashlib
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, BrowserType, Page, expect

from bench.nodes import NGINX, nginx_available
from scripts.lan_addresses import lan_addresses
from tests.browser.conftest import CHROMIUM
from tests.browser.servers import LIFTED, serve
from tests.browser.tables import DEVICES, LOCALES, PHONE, add_bots, new_room, take_seat, until
from tests.live import LiveServer
from tests.server_process import free_port

# The server block of docs/OPERATIONS.md, on a test's ports and files.
CONF = """
worker_processes 1;
error_log stderr crit;
pid {prefix}/nginx.pid;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    server {{
        listen {address}:{plain};
        listen {address}:{tls} ssl;
        ssl_certificate     {prefix}/uno-lan.pem;
        ssl_certificate_key {prefix}/uno-lan-key.pem;
        location / {{
            proxy_pass http://127.0.0.1:{app};
            proxy_http_version 1.1;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection "upgrade";
            proxy_read_timeout 1h;
        }}
    }}
}}
"""


@pytest.fixture(scope="module")
def lan() -> Iterator[tuple[str, str, LiveServer, str]]:
    """(the http address, the https address, the server behind them, the certificate's key hash)."""
    addresses = lan_addresses()
    if not nginx_available() or not addresses:
        pytest.skip("needs nginx and a network address other than loopback")
    address = addresses[0]
    prefix = Path(tempfile.mkdtemp(prefix="uno-lan-"))
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=uno-lan",
                    "-addext", f"subjectAltName=IP:{address}", "-keyout", str(prefix / "uno-lan-key.pem"),
                    "-out", str(prefix / "uno-lan.pem")], check=True, capture_output=True)
    for live in serve(**LIFTED, bot_delay_scale=0.05, rooms_per_address=100_000):
        plain, tls = free_port(), free_port()
        conf = prefix / "nginx.conf"
        conf.write_text(CONF.format(prefix=prefix, address=address, plain=plain, tls=tls, app=live.port))
        nginx = subprocess.Popen([NGINX, "-p", str(prefix), "-c", str(conf), "-g", "daemon off;"])
        try:
            deadline = time.monotonic() + 10
            while True:
                try:
                    httpx.get(f"http://{address}:{plain}/healthz", timeout=1)
                    break
                except httpx.HTTPError:
                    assert time.monotonic() < deadline, "nginx did not come up"
                    time.sleep(0.1)
            yield f"http://{address}:{plain}", f"https://{address}:{tls}", live, spki(prefix / "uno-lan.pem")
        finally:
            nginx.terminate()
            nginx.wait(10)


def spki(certificate: Path) -> str:
    """The base64 SHA-256 of the certificate's public key, as Chromium's SPKI allow-list takes it."""
    key = subprocess.run(["openssl", "x509", "-in", str(certificate), "-noout", "-pubkey"], check=True,
                         capture_output=True).stdout
    der = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "der"], input=key, check=True,
                         capture_output=True).stdout
    return base64.b64encode(hashlib.sha256(der).digest()).decode()


def phone_at(browser: Browser, base: str, live: LiveServer) -> Page:
    code = new_room(live, "classic", seats=2, target_score=500)
    ana = take_seat(live, code, "Ana")
    add_bots(live, code, ana, 1)
    context = browser.new_context(locale=LOCALES["en"], service_workers="allow", **DEVICES[PHONE])
    context.add_init_script(f"localStorage.setItem('uno.seat.{code}', JSON.stringify({{token: '{ana['token']}', "
                            f"seat: {ana['seat']}, name: 'Ana'}}))")
    context.add_init_script("window.wakeCalls = 0; if (navigator.wakeLock) { const r = navigator.wakeLock.request"
                            ".bind(navigator.wakeLock); navigator.wakeLock.request = (t) => { window.wakeCalls += 1; "
                            "return r(t); }; }")
    page = context.new_page()
    page.goto(f"{base}/r/{code}")
    expect(page.get_by_test_id("waiting-room")).to_be_visible()
    return page


def test_a_plain_http_home_network_plays_without_the_secure_offers(browser: Browser,
                                                                  lan: tuple[str, str, LiveServer, str]) -> None:
    plain, _, live, _ = lan
    page = phone_at(browser, plain, live)
    try:
        assert page.evaluate("window.isSecureContext") is False
        page.get_by_test_id("phone-toggle").click()
        expect(page.get_by_test_id("phone-insecure")).to_be_visible()
        expect(page.get_by_test_id("notify-offer")).to_have_count(0)
        page.keyboard.press("Escape")
        page.get_by_test_id("start-button").click()  # the game socket through nginx: the room plays
        expect(page.get_by_test_id("table")).to_have_attribute("data-status", "playing")
        page.wait_for_timeout(300)
        assert page.evaluate("window.wakeCalls") == 0
        assert page.evaluate("'serviceWorker' in navigator") is False  # no worker outside a secure context
    finally:
        page.context.close()


def test_the_same_network_over_https_has_them(browser_type: BrowserType,
                                              lan: tuple[str, str, LiveServer, str]) -> None:
    _, secure, live, key = lan
    trusting = browser_type.launch(executable_path=CHROMIUM, headless=True, args=[
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        f"--ignore-certificate-errors-spki-list={key}"])
    page = phone_at(trusting, secure, live)
    try:
        assert page.evaluate("window.isSecureContext") is True
        until(page, "!!navigator.serviceWorker.controller", "the worker never took control over HTTPS", 30)
        page.get_by_test_id("phone-toggle").click()
        expect(page.get_by_test_id("notify-offer")).to_be_visible()
        page.keyboard.press("Escape")
        page.get_by_test_id("start-button").click()
        expect(page.get_by_test_id("table")).to_have_attribute("data-status", "playing")
        until(page, "window.wakeCalls > 0", "no wake lock asked for at the table over HTTPS")
    finally:
        page.context.close()
        trusting.close()
