/// The reference build (`board/raspberry-pi-4.json`, docs/design/architecture.md#the-reference-device): what `simulate` runs
/// when no `--board` is given, so the binary needs no file from the repository. A test checks
/// that it is byte for byte the shipped file.
public enum ReferenceBoard {
    public static let fileName = "board/raspberry-pi-4.json"
    public static let json = #"""
{
  "schema": 1,
  "name": "Reference build (Pi 4)",
  "gps": {
    "device": "/dev/serial0",
    "baud": 9600
  },
  "display": {
    "kind": "ssd1306",
    "geometry": "128x64",
    "bus": "/dev/i2c-1",
    "address": "0x3C",
    "rotation": 0,
    "externalVCC": false
  },
  "buttons": [
    {
      "name": "A",
      "chip": "pinctrl-bcm2711",
      "line": "GPIO17",
      "activeLow": true,
      "bias": "pull-up",
      "press": "cycle-temperature-unit",
      "longPress": "next-location"
    },
    {
      "name": "B",
      "chip": "pinctrl-bcm2711",
      "line": "GPIO27",
      "activeLow": true,
      "bias": "pull-up",
      "press": "cycle-units",
      "longPress": "save-position"
    },
    {
      "name": "C",
      "chip": "pinctrl-bcm2711",
      "line": "GPIO22",
      "activeLow": true,
      "bias": "pull-up",
      "press": "cycle-time-notation",
      "longPress": "next-screen"
    }
  ],
  "sensor": {
    "kind": "bme280",
    "bus": "/dev/i2c-1",
    "address": "0x76",
    "temperatureOffset": 0
  },
  "defaultLocation": {
    "name": "Berlin",
    "latitude": 52.52,
    "longitude": 13.405
  }
}
"""#
}
