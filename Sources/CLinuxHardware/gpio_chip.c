// Opening gpiochips by path, label or line name, with libgpiod 1.6 or 2.x.
//
// Chip numbers are not stable (Pi 5: gpiochip4 before kernel 6.6.45, gpiochip0 after, only
// gpiochip11-15 on some 6.12 kernels), so the device is found by label or line name. libgpiod
// 1.6 has gpiod_chip_open_by_label and gpiod_line_find, but its chip iterator gives up on the
// first chip it cannot open (lib/iter.c), and 2.x has neither: both versions use the scan below,
// which skips unreadable chips and reports EACCES only if nothing matched.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#ifdef TH_HAVE_GPIOD  // see internal.h

const char *th_gpiod_version(void) {
#ifdef TH_GPIOD_V1
    return gpiod_version_string();
#else
    return gpiod_api_version();
#endif
}

int th_gpiod_api(void) {
#ifdef TH_GPIOD_V1
    return 1;
#else
    return 2;
#endif
}

th_gpio_chip *th_gpio_chip_open_path(const char *path) {
    struct gpiod_chip *lib = gpiod_chip_open(path);
    if (!lib) return NULL;
    th_gpio_chip *chip = calloc(1, sizeof(*chip));
    if (!chip) {
        TH_PRESERVING_ERRNO(gpiod_chip_close(lib));
        return NULL;
    }
    chip->lib = lib;
#ifdef TH_GPIOD_V1
    chip->num_lines = gpiod_chip_num_lines(lib);
#else
    // v2 keeps the chip's name, label and line count in a separately allocated info object.
    struct gpiod_chip_info *info = gpiod_chip_get_info(lib);
    if (!info) {
        TH_PRESERVING_ERRNO({ gpiod_chip_close(lib); free(chip); });
        return NULL;
    }
    chip->num_lines = (unsigned int)gpiod_chip_info_get_num_lines(info);
    gpiod_chip_info_free(info);
#endif
    return chip;
}

unsigned int th_gpio_chip_line_count(const th_gpio_chip *chip) { return chip->num_lines; }

void th_gpio_chip_close(th_gpio_chip *chip) {
    if (!chip) return;
    gpiod_chip_close(chip->lib);
    free(chip);
}

int th_gpio_chip_find_line(th_gpio_chip *chip, const char *name) {
#ifdef TH_GPIOD_V1
    // Walks the chip's lines comparing names; NULL + ENOENT when none matches (lib/helpers.c).
    struct gpiod_line *line = gpiod_chip_find_line(chip->lib, name);
    if (!line) return -1;
    return (int)gpiod_line_offset(line);
#else
    return gpiod_chip_get_line_offset_from_name(chip->lib, name);
#endif
}

/// 1 if the chip's label is `label`, 0 if not, -1 + errno if it cannot be read.
static int label_matches(th_gpio_chip *chip, const char *label) {
#ifdef TH_GPIOD_V1
    return strcmp(gpiod_chip_label(chip->lib), label) == 0;
#else
    struct gpiod_chip_info *info = gpiod_chip_get_info(chip->lib);
    if (!info) return -1;
    int same = strcmp(gpiod_chip_info_get_label(info), label) == 0;
    gpiod_chip_info_free(info);
    return same;
#endif
}

static int is_gpiochip_entry(const struct dirent *entry) {
    return strncmp(entry->d_name, "gpiochip", 8) == 0;
}

/// Opens each `dir`/gpiochip* in numeric order (versionsort: gpiochip2 before gpiochip10) and
/// returns the first for which `match` says 1. `match` reports -1 + errno for a chip it could
/// not inspect; that chip is skipped like one that could not be opened.
static th_gpio_chip *scan(const char *dir, int (*match)(th_gpio_chip *, const char *, unsigned int *),
                          const char *key, unsigned int *offset) {
    struct dirent **entries = NULL;
    int n = scandir(dir, &entries, is_gpiochip_entry, versionsort);
    if (n < 0) return NULL;
    th_gpio_chip *found = NULL;
    int denied = 0;
    char path[4096];
    for (int i = 0; i < n; i++) {
        if (!found && snprintf(path, sizeof(path), "%s/%s", dir, entries[i]->d_name) < (int)sizeof(path)) {
            th_gpio_chip *chip = th_gpio_chip_open_path(path);
            int m = chip ? match(chip, key, offset) : -1;
            if (m == 1) {
                found = chip;
            } else {
                if (m < 0 && (errno == EACCES || errno == EPERM) && !denied) denied = errno;
                if (chip) TH_PRESERVING_ERRNO(th_gpio_chip_close(chip));
            }
        }
        free(entries[i]);
    }
    free(entries);
    if (!found) errno = denied ? denied : ENOENT;
    return found;
}

static int match_label(th_gpio_chip *chip, const char *label, unsigned int *unused) {
    (void)unused;
    return label_matches(chip, label);
}

static int match_line_name(th_gpio_chip *chip, const char *name, unsigned int *offset) {
    int found = th_gpio_chip_find_line(chip, name);
    if (found >= 0) {
        *offset = (unsigned int)found;
        return 1;
    }
    return errno == ENOENT ? 0 : -1;
}

th_gpio_chip *th_gpio_chip_open_label(const char *dir, const char *label) {
    return scan(dir, match_label, label, NULL);
}

th_gpio_chip *th_gpio_chip_open_line_name(const char *dir, const char *name, unsigned int *offset) {
    return scan(dir, match_line_name, name, offset);
}

int th_gpio_bias_library_value(th_gpio_bias bias) {
    switch (bias) {
#ifdef TH_GPIOD_V1
    case TH_GPIO_BIAS_AS_IS: return 0;
    case TH_GPIO_BIAS_DISABLED: return GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE;
    case TH_GPIO_BIAS_PULL_UP: return GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP;
    case TH_GPIO_BIAS_PULL_DOWN: return GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN;
#else
    case TH_GPIO_BIAS_AS_IS: return GPIOD_LINE_BIAS_AS_IS;
    case TH_GPIO_BIAS_DISABLED: return GPIOD_LINE_BIAS_DISABLED;
    case TH_GPIO_BIAS_PULL_UP: return GPIOD_LINE_BIAS_PULL_UP;
    case TH_GPIO_BIAS_PULL_DOWN: return GPIOD_LINE_BIAS_PULL_DOWN;
#endif
    }
    errno = EINVAL;
    return -1;
}

#endif  // TH_HAVE_GPIOD
