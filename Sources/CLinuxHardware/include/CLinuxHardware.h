// CLinuxHardware: one C shim over libgpiod (1.6 = API v1, Debian 12; 2.x = API v2, Debian 13
// and bookworm-backports) and libi2c (i2c-tools 4.x), built only with the `Hardware` trait.
//
// The API below is version-neutral: Swift never sees <gpiod.h>, so the same Swift code binds
// either libgpiod. Which one the shim was compiled against is decided at build time: only the
// v1 header defines GPIOD_API (see internal.h). Every call that can fail returns NULL or -1 and
// leaves the reason in errno, exactly as libc does; nothing here prints, aborts or retries.
#ifndef CLINUXHARDWARE_H
#define CLINUXHARDWARE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

// On a machine without the -dev packages the shim's .c files compile to nothing (a plain
// `swift build` compiles this target even with the Hardware trait off; see internal.h), and
// these declarations become unavailable, so a build *with* the trait stops at the first use with
// this message instead of a page of undefined references at link time.
#if __has_include(<gpiod.h>)
#define TH_NEEDS_LIBGPIOD
#else
#define TH_NEEDS_LIBGPIOD \
    __attribute__((unavailable("the Hardware trait needs libgpiod-dev (apt-get install libgpiod-dev)")))
#endif
#if __has_include(<i2c/smbus.h>)
#define TH_NEEDS_LIBI2C
#else
#define TH_NEEDS_LIBI2C \
    __attribute__((unavailable("the Hardware trait needs libi2c-dev (apt-get install libi2c-dev)")))
#endif

// ---------------------------------------------------------------------------------------------
// libgpiod

/// At most this many lines per request: `levels()` is a 32-bit mask.
#define TH_GPIO_MAX_LINES 32
/// libgpiod 1.6 reads the kernel's whole v1 event FIFO (16 records) per call and drops what does
/// not fit the caller's array (lib/core.c, gpiod_line_event_read_fd_multiple), so the v1 read
/// below needs room for 16.
#define TH_GPIO_V1_EVENT_BATCH 16

/// A gpiochip opened through libgpiod (wraps `struct gpiod_chip`).
typedef struct th_gpio_chip th_gpio_chip;
/// Input lines requested together with both-edge detection (a v1 line bulk or a v2 request).
typedef struct th_gpio_request th_gpio_request;

/// Pull resistor. Needs Linux >= 5.5 (uAPI v1 bias flags) or >= 5.10 (uAPI v2).
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

/// One edge, decoded from `struct gpioevent_data` (v1) or `struct gpio_v2_line_event` (v2).
typedef struct th_gpio_edge {
    /// Index of the line in the request (0 = the first offset requested), not its offset.
    uint32_t line;
    /// TH_GPIO_EDGE_RISING or TH_GPIO_EDGE_FALLING.
    uint32_t type;
    /// Kernel timestamp in ns: CLOCK_MONOTONIC with uAPI v2 (libgpiod 2.x default event clock)
    /// and with uAPI v1 since Linux 5.7; CLOCK_REALTIME with uAPI v1 before 5.7.
    uint64_t timestamp_ns;
} th_gpio_edge;

/// The library's own version string ("1.6.3", "2.1.3").
const char *th_gpiod_version(void) TH_NEEDS_LIBGPIOD;
/// 1 or 2: the libgpiod API this shim was compiled against.
int th_gpiod_api(void) TH_NEEDS_LIBGPIOD;
/// The library's own value for `bias`: a GPIOD_LINE_REQUEST_FLAG_BIAS_* flag (v1) or an
/// `enum gpiod_line_bias` (v2). -1 and EINVAL for an unknown bias. For tests and diagnostics.
int th_gpio_bias_library_value(th_gpio_bias bias) TH_NEEDS_LIBGPIOD;

/// Opens the gpiochip character device at `path`. NULL + errno (ENOENT, EACCES, and ENOTTY or
/// ENODEV for a file that is not a gpiochip).
th_gpio_chip *th_gpio_chip_open_path(const char *path) TH_NEEDS_LIBGPIOD;
/// Opens the gpiochip in `dir` (normally "/dev") whose label is `label` ("pinctrl-rp1",
/// "pinctrl-bcm2711"). Chip numbers change across kernels; labels do not. NULL + ENOENT if no
/// chip has it, or + EACCES/EPERM if none matched but some chip could not be opened.
th_gpio_chip *th_gpio_chip_open_label(const char *dir, const char *label) TH_NEEDS_LIBGPIOD;
/// Opens the chip in `dir` that has a line named `name` ("GPIO17") and stores the line's offset.
/// Same errors as th_gpio_chip_open_label.
th_gpio_chip *th_gpio_chip_open_line_name(const char *dir, const char *name,
                                          unsigned int *offset) TH_NEEDS_LIBGPIOD;
/// Number of lines on the chip.
unsigned int th_gpio_chip_line_count(const th_gpio_chip *chip) TH_NEEDS_LIBGPIOD;
/// Offset of the line named `name` on `chip`, or -1 + ENOENT.
int th_gpio_chip_find_line(th_gpio_chip *chip, const char *name) TH_NEEDS_LIBGPIOD;
/// Closes the chip. Release every request on it first (v1 lines belong to their chip).
void th_gpio_chip_close(th_gpio_chip *chip) TH_NEEDS_LIBGPIOD;

/// Requests `count` (1...TH_GPIO_MAX_LINES) lines of `chip` as inputs with both-edge detection,
/// `bias`, and `consumer` as the label other tools show. The descriptors are made non-blocking.
/// `debounce_us` > 0 asks the kernel to debounce every line by that period (libgpiod 2.x:
/// gpiod_line_settings_set_debounce_period_us; the kernel reports an edge once the line has
/// been stable that long). libgpiod 1.6 has no such setting and ignores it: see
/// th_gpio_request_debounce_us for what was applied.
/// NULL + errno: EBUSY (in use, or an offset given twice), EINVAL (offset out of range, or bias
/// the kernel does not know), EPERM/EACCES, ENODEV/ENXIO (line cannot raise interrupts).
th_gpio_request *th_gpio_request_inputs(th_gpio_chip *chip, const unsigned int *offsets,
                                        size_t count, th_gpio_bias bias, unsigned long debounce_us,
                                        const char *consumer) TH_NEEDS_LIBGPIOD;
/// The debounce period the kernel applies to the request's lines, as the kernel reports it in
/// the first line's info after the request: 0 with libgpiod 1.6, or when none was asked for (the
/// caller must then debounce in software).
unsigned long th_gpio_request_debounce_us(const th_gpio_request *request) TH_NEEDS_LIBGPIOD;
/// How many descriptors to poll for POLLIN: one per line (v1) or one for all (v2).
int th_gpio_request_fd_count(const th_gpio_request *request) TH_NEEDS_LIBGPIOD;
/// The descriptor at `index`; owned by the request, never close it.
int th_gpio_request_fd(const th_gpio_request *request, int index) TH_NEEDS_LIBGPIOD;
/// Copies up to `capacity` pending edges into `edges` without blocking; returns how many
/// (0 = none pending), or -1 + errno. Within one call edges are sorted by timestamp.
ssize_t th_gpio_request_read_edges(th_gpio_request *request, th_gpio_edge *edges,
                                   size_t capacity) TH_NEEDS_LIBGPIOD;
/// The physical level of every line now: bit i = line i. 0 or -1 + errno.
int th_gpio_request_get_values(th_gpio_request *request, uint32_t *mask) TH_NEEDS_LIBGPIOD;
/// Releases the lines and frees the request.
void th_gpio_request_release(th_gpio_request *request) TH_NEEDS_LIBGPIOD;

/// Reads uAPI v1 `struct gpioevent_data` records from a line-event descriptor `fd` through
/// libgpiod 1.6's gpiod_line_event_read_fd_multiple and stamps them with `line`. `capacity`
/// must be >= TH_GPIO_V1_EVENT_BATCH (EINVAL otherwise). Returns the count, 0 when nothing is
/// pending (EAGAIN), or -1 + errno (EIO for a short record). With libgpiod 2.x: -1 + EOPNOTSUPP.
ssize_t th_gpio_v1_read_event_fd(int fd, uint32_t line, th_gpio_edge *edges,
                                 size_t capacity) TH_NEEDS_LIBGPIOD;

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
