// Not built by SwiftPM (excluded in Package.swift): checks the libgpiod 2 declarations of
// libgpiod_abi.h (every function's prototype, every constant) against a real gpiod.h, which the
// build itself never needs. Unpack the header into /tmp, not onto the system, and compile:
//
//   cd /tmp && apt-get download libgpiod-dev && dpkg-deb -x libgpiod-dev_*.deb hdr   # 2.x: trixie, bookworm-backports
//   cc -fsyntax-only -Werror -I Sources/CLinuxHardware/include -I Sources/CDynamicLibrary/include \
//      -I /tmp/hdr/usr/include Sources/CLinuxHardware/check/libgpiod-check.c
//
// Silence means every declaration and value matches (checked with 2.1.3 and 2.2.1).
#include <gpiod.h>

#include "../libgpiod_abi.h"

#define SAME(ours, theirs) _Static_assert((long long)(ours) == (long long)(theirs), #ours " == " #theirs)

SAME(TH_GPIOD_LINE_DIRECTION_INPUT, GPIOD_LINE_DIRECTION_INPUT);
SAME(TH_GPIOD_LINE_EDGE_BOTH, GPIOD_LINE_EDGE_BOTH);
SAME(TH_GPIOD_LINE_BIAS_AS_IS, GPIOD_LINE_BIAS_AS_IS);
SAME(TH_GPIOD_LINE_BIAS_DISABLED, GPIOD_LINE_BIAS_DISABLED);
SAME(TH_GPIOD_LINE_BIAS_PULL_UP, GPIOD_LINE_BIAS_PULL_UP);
SAME(TH_GPIOD_LINE_BIAS_PULL_DOWN, GPIOD_LINE_BIAS_PULL_DOWN);
SAME(TH_GPIOD_LINE_CLOCK_MONOTONIC, GPIOD_LINE_CLOCK_MONOTONIC);
SAME(TH_GPIOD_EDGE_EVENT_RISING_EDGE, GPIOD_EDGE_EVENT_RISING_EDGE);
SAME(TH_GPIOD_EDGE_EVENT_FALLING_EDGE, GPIOD_EDGE_EVENT_FALLING_EDGE);
SAME(GPIOD_LINE_VALUE_ACTIVE, 1);

// The table's member has the type of a pointer to the library's function: same return type and
// parameters (an enum without negative values is compatible with unsigned int, the one with -1
// with int).
#define TYPE(field, function)                                                                      \
    _Static_assert(__builtin_types_compatible_p(__typeof__(((struct th_gpiod_library *)0)->field), \
                                                __typeof__(&function)),                           \
                   #field " has the type of " #function)

TYPE(api_version, gpiod_api_version);
TYPE(chip_open, gpiod_chip_open);
TYPE(chip_close, gpiod_chip_close);
TYPE(chip_get_info, gpiod_chip_get_info);
TYPE(chip_get_line_offset_from_name, gpiod_chip_get_line_offset_from_name);
TYPE(chip_get_line_info, gpiod_chip_get_line_info);
TYPE(chip_request_lines, gpiod_chip_request_lines);
TYPE(chip_info_get_label, gpiod_chip_info_get_label);
TYPE(chip_info_get_num_lines, gpiod_chip_info_get_num_lines);
TYPE(chip_info_free, gpiod_chip_info_free);
TYPE(line_info_get_debounce_period_us, gpiod_line_info_get_debounce_period_us);
TYPE(line_info_free, gpiod_line_info_free);
TYPE(line_settings_new, gpiod_line_settings_new);
TYPE(line_settings_free, gpiod_line_settings_free);
TYPE(line_settings_set_direction, gpiod_line_settings_set_direction);
TYPE(line_settings_set_edge_detection, gpiod_line_settings_set_edge_detection);
TYPE(line_settings_set_bias, gpiod_line_settings_set_bias);
TYPE(line_settings_set_event_clock, gpiod_line_settings_set_event_clock);
TYPE(line_settings_set_debounce_period_us, gpiod_line_settings_set_debounce_period_us);
TYPE(line_config_new, gpiod_line_config_new);
TYPE(line_config_free, gpiod_line_config_free);
TYPE(line_config_add_line_settings, gpiod_line_config_add_line_settings);
TYPE(request_config_new, gpiod_request_config_new);
TYPE(request_config_free, gpiod_request_config_free);
TYPE(request_config_set_consumer, gpiod_request_config_set_consumer);
TYPE(line_request_release, gpiod_line_request_release);
TYPE(line_request_get_fd, gpiod_line_request_get_fd);
TYPE(line_request_get_values_subset, gpiod_line_request_get_values_subset);
TYPE(line_request_read_edge_events, gpiod_line_request_read_edge_events);
TYPE(edge_event_buffer_new, gpiod_edge_event_buffer_new);
TYPE(edge_event_buffer_free, gpiod_edge_event_buffer_free);
TYPE(edge_event_buffer_get_event, gpiod_edge_event_buffer_get_event);
TYPE(edge_event_get_event_type, gpiod_edge_event_get_event_type);
TYPE(edge_event_get_timestamp_ns, gpiod_edge_event_get_timestamp_ns);
TYPE(edge_event_get_line_offset, gpiod_edge_event_get_line_offset);
TYPE(edge_event_get_global_seqno, gpiod_edge_event_get_global_seqno);
TYPE(edge_event_get_line_seqno, gpiod_edge_event_get_line_seqno);
