// App: the device. `Device` owns the hardware (generic over the HAL), feeds its inputs to Core as
// events and carries out Core's effects; `SimulatedBoard` wires every part to its simulated twin;
// the loops drive a device through virtual time (tests, `simulate --headless`) or poll(2).
