// CLinuxHardware: GPIO, and libi2c (i2c-tools 4.x). Built only with the `Hardware` trait.
//
// GPIO two ways with one meaning, chosen per process on the Swift side (GPIOBackend):
// - libgpiod 2 (libgpiod.so.3: Debian 13, Raspberry Pi OS trixie, Ubuntu 24.04+), the design's
//   library, loaded at run time with dlopen: CLinuxHardwareLibgpiod.h, libgpiod_*.c.
// - Where it is missing, the kernel's GPIO character device through its uAPI v2 (<linux/gpio.h>,
//   Linux >= 5.10; Documentation/userspace-api/gpio/chardev.rst): ioctl(2) and read(2) on
//   /dev/gpiochipN, below. Debian 12's libgpiod 1.6 (libgpiod.so.2) is never used: it speaks only
//   the deprecated v1 uAPI (no sequence numbers, no debounce), which kernels built without
//   CONFIG_GPIO_CDEV_V1 refuse with EINVAL. The v2 uAPI is the same on every kernel since 5.10,
//   so one binary runs on Debian 12 and 13.
// Every call that can fail returns NULL or -1 and leaves the reason in errno, exactly as libc
// does; nothing here prints, aborts or retries.
#ifndef CLINUXHARDWARE_H
#define CLINUXHARDWARE_H

#include <linux/gpio.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

// libi2c is a -dev package: on a machine without it i2c_smbus.c compiles to nothing (a plain
// `swift build` compiles this target even with the Hardware trait off), and these declarations
// become unavailable, so a build *with* the trait stops at the first use with this message
// instead of a page of undefined references at link time. <linux/gpio.h> comes with the libc
// headers (linux-libc-dev), so the GPIO half needs no such gate.
#if __has_include(<i2c/smbus.h>)
#define TH_NEEDS_LIBI2C
#else
#define TH_NEEDS_LIBI2C \
    __attribute__((unavailable("the Hardware trait needs libi2c-dev (apt-get install libi2c-dev)")))
#endif

// ---------------------------------------------------------------------------------------------
// GPIO character device, uAPI v2

/// At most this many lines per request: `levels()` is a 32-bit mask (the uAPI allows 64,
/// GPIO_V2_LINES_MAX).
#define TH_GPIO_MAX_LINES 32
/// At most this many edges per th_gpio_read_edges_fd call: the records are read into a stack
/// array of this many `struct gpio_v2_line_event` (48 bytes each), so a read allocates nothing.
#define TH_GPIO_READ_BATCH 64

/// An open gpiochip: its descriptor and what GPIO_GET_CHIPINFO_IOCTL said.
typedef struct th_gpio_chip th_gpio_chip;
/// Input lines requested together with both-edge detection: one GPIO_V2_GET_LINE_IOCTL, one
/// descriptor for all of them.
typedef struct th_gpio_request th_gpio_request;

/// Pull resistor: GPIO_V2_LINE_FLAG_BIAS_* (gpio.h, enum gpio_v2_line_flag).
typedef enum th_gpio_bias {
    TH_GPIO_BIAS_AS_IS = 0,
    TH_GPIO_BIAS_DISABLED = 1,
    TH_GPIO_BIAS_PULL_UP = 2,
    TH_GPIO_BIAS_PULL_DOWN = 3,
} th_gpio_bias;

enum {
    TH_GPIO_EDGE_RISING = 1,
    TH_GPIO_EDGE_FALLING = 2,
};

/// One edge, decoded from a `struct gpio_v2_line_event`.
typedef struct th_gpio_edge {
    /// Index of the line in the request (0 = the first offset requested), not its offset.
    uint32_t line;
    /// TH_GPIO_EDGE_RISING or TH_GPIO_EDGE_FALLING.
    uint32_t type;
    /// Kernel timestamp in ns on CLOCK_MONOTONIC, the uAPI v2 default event clock (gpio.h,
    /// struct gpio_v2_line_event).
    uint64_t timestamp_ns;
    /// The record's `seqno`: the edge's number among all edges of the request, from 1 (equal to
    /// `line_seqno` for a one-line request).
    uint32_t seqno;
    /// The record's `line_seqno`: the edge's number among the edges of its line, from 1. The
    /// kernel numbers an edge when it detects it and drops the oldest record when the request's
    /// buffer is full, so a gap between two numbers read is exactly how many it dropped
    /// (gpio-v2-line-event-read.rst: "Overflow can be detected from userspace by monitoring the
    /// event sequence numbers").
    uint32_t line_seqno;
} th_gpio_edge;

/// Opens the gpiochip character device at `path` (O_RDONLY | O_CLOEXEC: the ioctls need no
/// write access, as the kernel's tools/gpio open it). NULL + errno: ENOENT, EACCES, and ENOTTY
/// for a file that is not a gpiochip (GPIO_GET_CHIPINFO_IOCTL refused).
th_gpio_chip *th_gpio_chip_open_path(const char *path);
/// Opens the gpiochip in `dir` (normally "/dev") whose label is `label` ("pinctrl-rp1",
/// "pinctrl-bcm2711"). Chip numbers change across kernels; labels do not. NULL + ENOENT if no
/// chip has it (or `dir` does not exist), or + EACCES/EPERM if none matched but some chip could
/// not be opened.
th_gpio_chip *th_gpio_chip_open_label(const char *dir, const char *label);
/// Opens the chip in `dir` that has a line named `name` ("GPIO17") and stores the line's offset.
/// Same errors as th_gpio_chip_open_label.
th_gpio_chip *th_gpio_chip_open_line_name(const char *dir, const char *name, unsigned int *offset);
/// Number of lines on the chip.
unsigned int th_gpio_chip_line_count(const th_gpio_chip *chip);
/// Offset of the line named `name` on `chip` (GPIO_V2_GET_LINEINFO_IOCTL per line), or -1 +
/// ENOENT, or -1 + the ioctl's errno.
int th_gpio_chip_find_line(th_gpio_chip *chip, const char *name);
/// Closes the chip. Requests made on it stay valid: "Closing the chip_fd has no effect on
/// existing line requests" (gpio-v2-get-line-ioctl.rst).
void th_gpio_chip_close(th_gpio_chip *chip);

/// Fills `request` for `count` (1...TH_GPIO_MAX_LINES) input lines with both-edge detection,
/// `bias`, a kernel debounce of `debounce_us` (0 = none; a GPIO_V2_LINE_ATTR_ID_DEBOUNCE
/// attribute on every line) and `consumer` (truncated to the 31 bytes the kernel keeps).
/// 0, or -1 + EINVAL (count, bias) or EBUSY (an offset given twice: the kernel would say EBUSY
/// for the second one anyway, gpiod_request_user). What th_gpio_request_inputs sends.
int th_gpio_line_request_init(struct gpio_v2_line_request *request, const unsigned int *offsets,
                              size_t count, th_gpio_bias bias, uint32_t debounce_us,
                              const char *consumer);

/// Requests the lines (th_gpio_line_request_init, then GPIO_V2_GET_LINE_IOCTL) and makes the
/// request's descriptor non-blocking (the kernel creates it O_RDONLY | O_CLOEXEC).
/// NULL + errno: EBUSY (in use, or an offset given twice), EINVAL (offset out of range, a count
/// out of range, or a configuration the kernel refuses), EPERM/EACCES, ENXIO (the line cannot
/// raise an interrupt, so no edge detection; gpiolib-cdev.c edge_detector_setup), ENODEV (the
/// chip went away), ENOMEM.
th_gpio_request *th_gpio_request_inputs(th_gpio_chip *chip, const unsigned int *offsets,
                                        size_t count, th_gpio_bias bias, uint32_t debounce_us,
                                        const char *consumer);
/// The debounce period the kernel applies to every line of the request, read back from
/// GPIO_V2_GET_LINEINFO_IOCTL after the request (the smallest over the lines): 0 when none was
/// asked for (the caller must then debounce in software).
uint32_t th_gpio_request_debounce_us(const th_gpio_request *request);
/// The request's one descriptor, to poll for POLLIN; owned by the request, never close it.
int th_gpio_request_fd(const th_gpio_request *request);
/// Copies up to `capacity` pending edges into `edges` without blocking (one read(2)); returns
/// how many (0 = none pending), or -1 + errno. See th_gpio_read_edges_fd.
ssize_t th_gpio_request_read_edges(th_gpio_request *request, th_gpio_edge *edges, size_t capacity);
/// The physical level of every line now (GPIO_V2_LINE_GET_VALUES_IOCTL; no line is requested
/// active-low): bit i = line i. 0 or -1 + errno.
int th_gpio_request_get_values(th_gpio_request *request, uint32_t *mask);
/// Closes the request's descriptor (which releases the lines) and frees it.
void th_gpio_request_release(th_gpio_request *request);

/// Reads `struct gpio_v2_line_event` records from `fd` with one read(2) of at most
/// min(capacity, TH_GPIO_READ_BATCH) records and decodes them: the line index is the record's
/// offset's position in `offsets` (`count` of them), the type its id. Edges keep the kernel's
/// order, which is the order it detected them in, across all lines of a request
/// (gpio-v2-line-event-read.rst), and their sequence numbers. Returns the count, 0 when nothing is pending (EAGAIN) or at
/// end of file, or -1 + errno: the read's, or EIO for a partial record, an offset not in
/// `offsets` or an unknown id (the kernel returns whole records of lines it was asked for).
ssize_t th_gpio_read_edges_fd(int fd, const unsigned int *offsets, size_t count,
                              th_gpio_edge *edges, size_t capacity);

// The same calls through libgpiod 2, loaded at run time where it is installed.
#include "CLinuxHardwareLibgpiod.h"

// ---------------------------------------------------------------------------------------------
// libi2c SMBus calls. libi2c 4.x returns -errno; these return -1 and set errno instead.
// The target address must already be selected on `fd` with the I2C_SLAVE ioctl.

/// SMBus "read byte data": the register's value 0...255, or -1 + errno.
int th_smbus_read_byte_data(int fd, uint8_t reg) TH_NEEDS_LIBI2C;
/// SMBus "write byte data": 0 or -1 + errno.
int th_smbus_write_byte_data(int fd, uint8_t reg, uint8_t value) TH_NEEDS_LIBI2C;
/// SMBus "I2C block read" of `length` (1...32) bytes from `reg` into `values`: the number of
/// bytes read, or -1 + errno (EINVAL for a length out of range).
int th_smbus_read_i2c_block_data(int fd, uint8_t reg, uint8_t length,
                                 uint8_t *values) TH_NEEDS_LIBI2C;

#ifdef __cplusplus
}
#endif

#endif
