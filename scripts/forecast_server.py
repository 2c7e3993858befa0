"""A loopback server that answers every GET with one Open-Meteo body: the weather service that
scripts/check-unit.py and scripts/measure-run.py point the daemon at (127.0.0.1 only)."""
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CORPUS = os.environ.get(
    "THUNDERSTORM_CORPUS", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "corpus"))
FORECAST = os.path.join(CORPUS, "weather", "open-meteo-current-hourly-daily.json")


def serve(body=None, wrap=None, port=0):
    """Starts the server on `port` (default: a free one) of 127.0.0.1 in a thread; `body`
    defaults to the corpus forecast (or `{}` without the corpus); `wrap` turns the listening
    socket into a TLS one."""
    if body is None:
        body = b"{}"
        if os.path.exists(FORECAST):
            with open(FORECAST, "rb") as f:
                body = f.read()

    class Forecast(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Forecast)
    if wrap:
        server.socket = wrap(server.socket)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
