#pragma once
// A 32-bit integer hash (xorshift-multiply), the same on the CPU side of the tests.
uint hash_u32(uint x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}
