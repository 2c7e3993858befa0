// libi2c's SMBus calls with libc's error convention.
//
// libi2c 4.x (i2c-tools lib/smbus.c) returns the ioctl's failure as a negative errno
// ("err = -errno") and leaves errno alone, unlike the header-only smbus.h of i2c-tools 3.x that
// returned -1 with errno set. B1 observed -25 (-ENOTTY) on /dev/null. Linking -li2c means 4.x,
// so every negative result is -errno: -1 is EPERM here, not "see errno".
// Without libi2c-dev this compiles to nothing (see CLinuxHardware.h, TH_NEEDS_LIBI2C).
#if __has_include(<i2c/smbus.h>)
#include <errno.h>
#include <i2c/smbus.h>
#include <linux/i2c.h>

#include "CLinuxHardware.h"

static int from_libi2c(__s32 result) {
    if (result < 0) {
        errno = -result;
        return -1;
    }
    return result;
}

int th_smbus_read_byte_data(int fd, uint8_t reg) {
    return from_libi2c(i2c_smbus_read_byte_data(fd, reg));
}

int th_smbus_write_byte_data(int fd, uint8_t reg, uint8_t value) {
    return from_libi2c(i2c_smbus_write_byte_data(fd, reg, value));
}

int th_smbus_read_i2c_block_data(int fd, uint8_t reg, uint8_t length, uint8_t *values) {
    // libi2c would clamp a longer length to 32 without saying so; the caller must know.
    if (length == 0 || length > I2C_SMBUS_BLOCK_MAX) {
        errno = EINVAL;
        return -1;
    }
    return from_libi2c(i2c_smbus_read_i2c_block_data(fd, reg, length, values));
}

#endif  // __has_include(<i2c/smbus.h>)
