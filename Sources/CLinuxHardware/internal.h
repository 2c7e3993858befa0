// Private to the shim: the structs behind the opaque GPIO handles of CLinuxHardware.h, and the
// uAPI v2 layout they rely on.
#ifndef CLINUXHARDWARE_INTERNAL_H
#define CLINUXHARDWARE_INTERNAL_H

#include <errno.h>
#include <linux/gpio.h>
#include <stddef.h>

#include "CLinuxHardware.h"

// The uAPI's layout, pinned: the sizes follow from the field lists in <linux/gpio.h>, which
// pads every v2 struct to a multiple of 8 so that 32- and 64-bit processes share it (the kernel
// asserts the alignment in drivers/gpio/gpiolib-cdev.c). A header that disagrees is not the ABI
// this shim was written for, and the build stops here instead of the kernel answering EINVAL or
// a read returning records of the wrong size.
_Static_assert(GPIO_MAX_NAME_SIZE == 32, "gpio.h: name and label arrays");
_Static_assert(GPIO_V2_LINES_MAX == 64, "gpio.h: lines per request");
_Static_assert(GPIO_V2_LINE_NUM_ATTRS_MAX == 10, "gpio.h: attributes per config");
_Static_assert(sizeof(struct gpiochip_info) == 68, "gpiochip_info: name, label, lines");
_Static_assert(sizeof(struct gpio_v2_line_attribute) == 16, "id, padding, 8-byte union");
_Static_assert(sizeof(struct gpio_v2_line_config_attribute) == 24, "attribute + mask");
_Static_assert(sizeof(struct gpio_v2_line_config) == 272, "flags, num_attrs, padding[5], attrs[10]");
_Static_assert(sizeof(struct gpio_v2_line_request) == 592, "gpio_v2_line_request");
_Static_assert(offsetof(struct gpio_v2_line_request, consumer) == 256, "after offsets[64]");
_Static_assert(offsetof(struct gpio_v2_line_request, config) == 288, "after consumer[32]");
_Static_assert(offsetof(struct gpio_v2_line_request, num_lines) == 560, "after config");
_Static_assert(offsetof(struct gpio_v2_line_request, fd) == 588, "last field");
_Static_assert(sizeof(struct gpio_v2_line_info) == 256, "gpio_v2_line_info");
_Static_assert(offsetof(struct gpio_v2_line_info, flags) == 72, "after name, consumer, offset, num_attrs");
_Static_assert(offsetof(struct gpio_v2_line_info, attrs) == 80, "after flags");
_Static_assert(sizeof(struct gpio_v2_line_values) == 16, "bits, mask");
_Static_assert(sizeof(struct gpio_v2_line_event) == 48, "timestamp, id, offset, seqnos, padding[6]");
_Static_assert(offsetof(struct gpio_v2_line_event, id) == 8, "after timestamp_ns");
_Static_assert(offsetof(struct gpio_v2_line_event, offset) == 12, "after id");
_Static_assert(offsetof(struct gpio_v2_line_event, seqno) == 16, "after offset");
_Static_assert(offsetof(struct gpio_v2_line_event, line_seqno) == 20, "after seqno");
// The request numbers, from _IOR/_IOWR(0xB4, nr, struct): direction in bits 30-31, the struct's
// size in bits 16-29, the type 0xB4 and the number (asm-generic/ioctl.h). A size that moved
// would be a different ioctl to the kernel.
_Static_assert(GPIO_GET_CHIPINFO_IOCTL == 0x8044B401u, "_IOR(0xB4, 0x01, 68 bytes)");
_Static_assert(GPIO_V2_GET_LINEINFO_IOCTL == 0xC100B405u, "_IOWR(0xB4, 0x05, 256 bytes)");
_Static_assert(GPIO_V2_GET_LINE_IOCTL == 0xC250B407u, "_IOWR(0xB4, 0x07, 592 bytes)");
_Static_assert(GPIO_V2_LINE_GET_VALUES_IOCTL == 0xC010B40Eu, "_IOWR(0xB4, 0x0E, 16 bytes)");

struct th_gpio_chip {
    int fd;
    unsigned int num_lines;
    char label[GPIO_MAX_NAME_SIZE];
};

struct th_gpio_request {
    int fd;
    size_t count;
    unsigned int offsets[TH_GPIO_MAX_LINES];
    // What the kernel reported in the lines' info after the request; 0 if none was asked for.
    uint32_t debounce_us;
};

/// GPIO_V2_GET_LINEINFO_IOCTL for `offset` on the chip descriptor `fd` into `info` (zeroed
/// first: the kernel refuses non-zero padding with EINVAL). 0 or -1 + errno.
int th_gpio_line_info(int fd, unsigned int offset, struct gpio_v2_line_info *info);

/// Checks what every request of the shim must satisfy before the kernel or libgpiod sees it:
/// `count` in 1...TH_GPIO_MAX_LINES and a known `bias` (else EINVAL), no offset given twice
/// (else EBUSY: the kernel requests lines one by one and answers EBUSY for the second copy,
/// while libgpiod's line config would merge the copies into one line and shift every index).
/// 0 or -1 + errno.
int th_gpio_check_lines(const unsigned int *offsets, size_t count, th_gpio_bias bias);

/// Opens the chip at `path` and says whether it is the one sought: the handle if it is; NULL
/// with errno 0 if it is not; NULL + errno if it could not be opened or read.
typedef void *(*th_gpio_probe)(const char *path, void *context);
/// Runs `probe` on each `dir`/gpiochip* in numeric order (versionsort: gpiochip2 before
/// gpiochip10) until one matches, and returns its handle. A chip that cannot be opened or read is
/// skipped. NULL + ENOENT if none matched (or `dir` is missing), or + EACCES/EPERM if none matched
/// but some chip was denied. Shared by the uAPI chips and the libgpiod ones.
void *th_gpio_scan(const char *dir, th_gpio_probe probe, void *context);

// Runs `expr`, keeping errno as it was before: for clean-up on an error path.
#define TH_PRESERVING_ERRNO(expr) do { int saved_ = errno; expr; errno = saved_; } while (0)

#endif
