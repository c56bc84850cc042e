#ifndef WEIGH_CRC32_H
#define WEIGH_CRC32_H

#include <stddef.h>
#include <stdint.h>

/// 1 when this processor has carry-less multiplication (x86-64 PCLMULQDQ with SSE4.1), so
/// that `weigh_crc32_fold` may be called; 0 otherwise (and on every other architecture).
int weigh_crc32_fold_available(void);

/// Runs the CRC-32 register `crc` (IEEE polynomial, reflected; the register, not the
/// complemented checksum) over `count` bytes at `bytes` by folding 16 bytes a step with
/// carry-less multiplication, and returns the new register. `count` must be a multiple of 16
/// and at least 16; call only when `weigh_crc32_fold_available()` is 1.
uint32_t weigh_crc32_fold(uint32_t crc, const uint8_t *bytes, size_t count);

#endif
