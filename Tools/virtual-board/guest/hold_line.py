"""Holds one GPIO line as an input, as another program would (gpiomon, a second daemon), until
killed: `hold_line.py gpiochipN OFFSET`. Speaks the kernel's GPIO uAPI v2 itself
(GPIO_V2_GET_LINE_IOCTL, include/uapi/linux/gpio.h), so it also works where the root's gpiod
tools are libgpiod 1.6, which needs the v1 uAPI this kernel does not have.
"""
import fcntl
import os
import signal
import struct
import sys

# struct gpio_v2_line_request: offsets[64] u32, consumer[32], config (flags u64, num_attrs u32,
# padding[5] u32, attrs[10] of 24 bytes), num_lines u32, event_buffer_size u32, padding[5] u32,
# fd s32 = 592 bytes. _IOWR(0xB4, 0x07, 592).
REQUEST_SIZE = 592
GPIO_V2_GET_LINE_IOCTL = (3 << 30) | (REQUEST_SIZE << 16) | (0xB4 << 8) | 0x07
GPIO_V2_LINE_FLAG_INPUT = 1 << 2

chip, offset = sys.argv[1], int(sys.argv[2])
request = bytearray(REQUEST_SIZE)
struct.pack_into("<I", request, 0, offset)
struct.pack_into("32s", request, 256, b"vboard-holder")
struct.pack_into("<Q", request, 288, GPIO_V2_LINE_FLAG_INPUT)
struct.pack_into("<I", request, 560, 1)  # num_lines
fd = os.open("/dev/" + chip, os.O_RDONLY)
fcntl.ioctl(fd, GPIO_V2_GET_LINE_IOCTL, request)
print("holding %s line %d" % (chip, offset), flush=True)
signal.pause()  # SIGTERM ends it, and the kernel releases the line
