// Engine-style shared helpers: included by the corpus kernels, guarded.
#ifndef CORPUS_MATH_GLSL
#define CORPUS_MATH_GLSL
#include "hash.glsl"

float square(float x) { return x * x; }
uint rotate_left(uint x, uint k) { return (x << k) | (x >> (32u - k)); }
#endif
