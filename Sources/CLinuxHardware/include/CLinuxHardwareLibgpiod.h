// GPIO through libgpiod 2 (libgpiod.so.3: Debian 13, Raspberry Pi OS trixie, Ubuntu 24.04 and
// later; bookworm-backports), loaded at run time with dlopen as CTLS loads libssl: no gpiod.h and
// no libgpiod-dev to build, and the same binary still starts where libgpiod 2 is missing (Debian
// 12 ships only libgpiod 1.6, libgpiod.so.2, a different API over the v1 uAPI), where the Swift
// side falls back to the uAPI v2 calls of CLinuxHardware.h.
//
// The same calls as the uAPI half, with the same meaning and the same errno, so that the Swift
// side has one contract: inputs with both-edge detection, a bias, an optional kernel debounce,
// CLOCK_MONOTONIC stamps, both sequence numbers, non-blocking reads that allocate nothing, the
// levels as a mask. libgpiod sets errno on every failure ("all functions exported by libgpiod
// that can fail, set errno", gpiod.h); these pass it on, NULL or -1 as libc does.
//
// The few libgpiod functions used (gpiod.h of libgpiod 2.0 onward, https://libgpiod.readthedocs.io):
// gpiod_api_version; gpiod_chip_open/close/get_info/get_line_offset_from_name/get_line_info/
// request_lines; gpiod_chip_info_get_label/get_num_lines/free; gpiod_line_info_get_debounce_period_us
// /free; gpiod_line_settings_new/free/set_direction/set_edge_detection/set_bias/set_event_clock/
// set_debounce_period_us; gpiod_line_config_new/free/add_line_settings; gpiod_request_config_new/
// free/set_consumer; gpiod_line_request_get_fd/get_values_subset/read_edge_events/release;
// gpiod_edge_event_buffer_new/free/get_event; gpiod_edge_event_get_event_type/timestamp_ns/
// line_offset/global_seqno/line_seqno. check/libgpiod-check.c compares every declaration and
// constant of the shim with a real gpiod.h.
#ifndef CLINUXHARDWARE_LIBGPIOD_H
#define CLINUXHARDWARE_LIBGPIOD_H

// Included by CLinuxHardware.h, after th_gpio_bias, th_gpio_edge and TH_GPIO_MAX_LINES.
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The soname of libgpiod 2.x (Debian package libgpiod3).
#define TH_LIBGPIOD_SONAME "libgpiod.so.3"

/// libgpiod, opened and bound: never closed, shared by every chip and request of the process.
typedef struct th_gpiod_library th_gpiod_library;
/// A chip opened through libgpiod, with its label and line count.
typedef struct th_gpiod_chip th_gpiod_chip;
/// Input lines requested through libgpiod, with a preallocated edge-event buffer.
typedef struct th_gpiod_request th_gpiod_request;

/// Opens libgpiod by file name (TH_LIBGPIOD_SONAME, or a path) and takes every function listed
/// above; refuses a library whose gpiod_api_version() is not 2.x. Thread-safe; a library opened
/// once is returned again (CDynamicLibrary's cache). On failure NULL and one line in `error`:
/// "libgpiod.so.3 not found: apt install libgpiod3", "… lacks gpiod_chip_request_lines: not a
/// libgpiod 2", "… is libgpiod 1.6.3, not 2.x".
const th_gpiod_library *th_gpiod_open(const char *library_name, char *error, size_t error_size);
/// gpiod_api_version(): "2.2.1".
const char *th_gpiod_version(const th_gpiod_library *library);

/// gpiod_chip_open(`path`) and its info. NULL + errno: ENOENT, EACCES, ENOTTY (not a character
/// device), ENODEV (a character device that is not a gpiochip: libgpiod checks sysfs).
th_gpiod_chip *th_gpiod_chip_open_path(const th_gpiod_library *library, const char *path);
/// The chip in `dir` labelled `label`; as th_gpio_chip_open_label (libgpiod 2 has no lookup by
/// label: every `dir`/gpiochip* is opened in numeric order).
th_gpiod_chip *th_gpiod_chip_open_label(const th_gpiod_library *library, const char *dir, const char *label);
/// The chip in `dir` with a line called `name`, and the line's offset; as th_gpio_chip_open_line_name.
th_gpiod_chip *th_gpiod_chip_open_line_name(const th_gpiod_library *library, const char *dir, const char *name,
                                            unsigned int *offset);
unsigned int th_gpiod_chip_line_count(const th_gpiod_chip *chip);
/// gpiod_chip_get_line_offset_from_name: the offset, or -1 + ENOENT or the ioctl's errno.
int th_gpiod_chip_find_line(th_gpiod_chip *chip, const char *name);
/// gpiod_chip_close. Requests made on the chip stay valid.
void th_gpiod_chip_close(th_gpiod_chip *chip);

/// As th_gpio_request_inputs: `count` (1...TH_GPIO_MAX_LINES) inputs with both-edge detection,
/// `bias` (a th_gpio_bias), CLOCK_MONOTONIC stamps, a kernel debounce of `debounce_us` (0 = none),
/// labelled `consumer`, the descriptor made non-blocking. NULL + errno as there.
th_gpiod_request *th_gpiod_request_inputs(th_gpiod_chip *chip, const unsigned int *offsets, size_t count,
                                          th_gpio_bias bias, uint32_t debounce_us, const char *consumer);
/// The debounce period the kernel applies (the smallest over the lines), 0 when none was asked for.
uint32_t th_gpiod_request_debounce_us(const th_gpiod_request *request);
/// gpiod_line_request_get_fd: owned by the request, never close it.
int th_gpiod_request_fd(const th_gpiod_request *request);
/// Up to `capacity` pending edges through
/// gpiod_line_request_read_edge_events into the request's buffer: no allocation, never blocks.
/// The count, 0 when none is pending, or -1 + errno (EIO for an offset or type it did not ask for).
ssize_t th_gpiod_request_read_edges(th_gpiod_request *request, th_gpio_edge *edges, size_t capacity);
/// The physical level of every line (none is active-low): bit i = line i. 0 or -1 + errno.
int th_gpiod_request_get_values(th_gpiod_request *request, uint32_t *mask);
/// gpiod_line_request_release (closes the descriptor, releasing the lines) and frees the buffer.
void th_gpiod_request_release(th_gpiod_request *request);

#ifdef __cplusplus
}
#endif

#endif
