// Private to the shim: what this program needs of libgpiod 2's ABI, declared here instead of
// including gpiod.h (not installed on a build machine without libgpiod-dev, and a 1.6 gpiod.h
// where it is). Written from gpiod.h's documented API (libgpiod 2.0 to 2.2, the same in each);
// check/libgpiod-check.c compiles these declarations against the real header.
#ifndef CLINUXHARDWARE_LIBGPIOD_ABI_H
#define CLINUXHARDWARE_LIBGPIOD_ABI_H

#include <stddef.h>
#include <stdint.h>

#include "CLinuxHardware.h"

// libgpiod's objects are opaque: only pointers to them cross the library's boundary.
struct gpiod_chip;
struct gpiod_chip_info;
struct gpiod_line_info;
struct gpiod_line_settings;
struct gpiod_line_config;
struct gpiod_request_config;
struct gpiod_line_request;
struct gpiod_edge_event;
struct gpiod_edge_event_buffer;

// The values of gpiod.h's enums that are used. Those enums have no negative value, so C gives
// them the type unsigned int (GCC and Clang on every Linux ABI), which is what the table below
// passes; enum gpiod_line_value has -1 (GPIOD_LINE_VALUE_ERROR) and is an int.
enum {
    TH_GPIOD_LINE_DIRECTION_INPUT = 2,       // enum gpiod_line_direction: AS_IS = 1, INPUT, OUTPUT
    TH_GPIOD_LINE_EDGE_BOTH = 4,             // enum gpiod_line_edge: NONE = 1, RISING, FALLING, BOTH
    TH_GPIOD_LINE_BIAS_AS_IS = 1,            // enum gpiod_line_bias: AS_IS = 1, UNKNOWN, DISABLED,
    TH_GPIOD_LINE_BIAS_DISABLED = 3,         //   PULL_UP, PULL_DOWN
    TH_GPIOD_LINE_BIAS_PULL_UP = 4,
    TH_GPIOD_LINE_BIAS_PULL_DOWN = 5,
    TH_GPIOD_LINE_CLOCK_MONOTONIC = 1,       // enum gpiod_line_clock: MONOTONIC = 1, REALTIME, HTE
    TH_GPIOD_EDGE_EVENT_RISING_EDGE = 1,     // enum gpiod_edge_event_type
    TH_GPIOD_EDGE_EVENT_FALLING_EDGE = 2,
};

/// Every libgpiod function the shim calls, with gpiod.h's prototype.
struct th_gpiod_library {
    const char *(*api_version)(void);
    struct gpiod_chip *(*chip_open)(const char *path);
    void (*chip_close)(struct gpiod_chip *chip);
    struct gpiod_chip_info *(*chip_get_info)(struct gpiod_chip *chip);
    int (*chip_get_line_offset_from_name)(struct gpiod_chip *chip, const char *name);
    struct gpiod_line_info *(*chip_get_line_info)(struct gpiod_chip *chip, unsigned int offset);
    struct gpiod_line_request *(*chip_request_lines)(struct gpiod_chip *chip, struct gpiod_request_config *req_cfg,
                                                     struct gpiod_line_config *line_cfg);
    const char *(*chip_info_get_label)(struct gpiod_chip_info *info);
    size_t (*chip_info_get_num_lines)(struct gpiod_chip_info *info);
    void (*chip_info_free)(struct gpiod_chip_info *info);
    unsigned long (*line_info_get_debounce_period_us)(struct gpiod_line_info *info);
    void (*line_info_free)(struct gpiod_line_info *info);
    struct gpiod_line_settings *(*line_settings_new)(void);
    void (*line_settings_free)(struct gpiod_line_settings *settings);
    int (*line_settings_set_direction)(struct gpiod_line_settings *settings, unsigned int direction);
    int (*line_settings_set_edge_detection)(struct gpiod_line_settings *settings, unsigned int edge);
    int (*line_settings_set_bias)(struct gpiod_line_settings *settings, unsigned int bias);
    int (*line_settings_set_event_clock)(struct gpiod_line_settings *settings, unsigned int event_clock);
    void (*line_settings_set_debounce_period_us)(struct gpiod_line_settings *settings, unsigned long period);
    struct gpiod_line_config *(*line_config_new)(void);
    void (*line_config_free)(struct gpiod_line_config *config);
    int (*line_config_add_line_settings)(struct gpiod_line_config *config, const unsigned int *offsets,
                                         size_t num_offsets, struct gpiod_line_settings *settings);
    struct gpiod_request_config *(*request_config_new)(void);
    void (*request_config_free)(struct gpiod_request_config *config);
    void (*request_config_set_consumer)(struct gpiod_request_config *config, const char *consumer);
    void (*line_request_release)(struct gpiod_line_request *request);
    int (*line_request_get_fd)(struct gpiod_line_request *request);
    int (*line_request_get_values_subset)(struct gpiod_line_request *request, size_t num_values,
                                          const unsigned int *offsets, int *values);
    int (*line_request_read_edge_events)(struct gpiod_line_request *request, struct gpiod_edge_event_buffer *buffer,
                                         size_t max_events);
    struct gpiod_edge_event_buffer *(*edge_event_buffer_new)(size_t capacity);
    void (*edge_event_buffer_free)(struct gpiod_edge_event_buffer *buffer);
    struct gpiod_edge_event *(*edge_event_buffer_get_event)(struct gpiod_edge_event_buffer *buffer,
                                                            unsigned long index);
    unsigned int (*edge_event_get_event_type)(struct gpiod_edge_event *event);
    uint64_t (*edge_event_get_timestamp_ns)(struct gpiod_edge_event *event);
    unsigned int (*edge_event_get_line_offset)(struct gpiod_edge_event *event);
    unsigned long (*edge_event_get_global_seqno)(struct gpiod_edge_event *event);
    unsigned long (*edge_event_get_line_seqno)(struct gpiod_edge_event *event);
};

struct th_gpiod_chip {
    const th_gpiod_library *library;
    struct gpiod_chip *chip;
    unsigned int num_lines;
    char label[32];  // GPIO_MAX_NAME_SIZE: what the kernel keeps of a label
};

struct th_gpiod_request {
    const th_gpiod_library *library;
    struct gpiod_line_request *request;
    /// Made once with the request, so that reading edges allocates nothing: libgpiod reads the
    /// kernel's records into it and decodes them in place (lib/edge-event.c,
    /// gpiod_edge_event_buffer_read_fd: one read(2) and a loop, no malloc).
    struct gpiod_edge_event_buffer *events;
    int fd;
    size_t count;
    unsigned int offsets[TH_GPIO_MAX_LINES];
    uint32_t debounce_us;
};

#endif
