"""The weather service inside the VM, on 127.0.0.1 only: answers every GET with one recorded
Open-Meteo body (the VM has no network; the daemon's board file points its baseURL here).

  forecast.py BODY.json PORT
"""
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

body = open(sys.argv[1], "rb").read()


class Forecast(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, fmt, *args):
        sys.stderr.write("forecast: %s\n" % (fmt % args))


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[2])), Forecast).serve_forever()
