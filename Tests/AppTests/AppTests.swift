// Tests of App: the device end to end on the simulated board.
