int th_hw_scaffold(void) { return 0; }
