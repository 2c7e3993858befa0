"""The weather service inside the VM, on 127.0.0.1 only: the project's own loopback forecast
server (scripts/forecast_server.py, copied into the image with the scripts) answering every GET
with one recorded Open-Meteo body (the VM has no network; the board's baseURL points here).

  forecast.py BODY.json PORT
"""
import sys
import threading

sys.path.insert(0, "/opt/vboard/src/scripts")
import forecast_server  # noqa: E402

forecast_server.serve(body=open(sys.argv[1], "rb").read(), port=int(sys.argv[2]))
threading.Event().wait()
