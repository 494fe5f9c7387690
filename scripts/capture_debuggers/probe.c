/* Known bit patterns for the paste corpus: capture.py runs this under gdb and lldb.
 * Every value is set from its bits (memcpy), so what the debuggers print can be checked
 * against the exact pattern. Run with --manifest to print those patterns as JSON. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "manifest.h"

typedef float v4sf __attribute__((vector_size(16)));   /* gcc's vector type (no clang here) */
typedef double v2df __attribute__((vector_size(16)));

struct vec4 {            /* glm-like: each component has three names (x/r/s ...) */
    union { float x, r, s; };
    union { float y, g, t; };
    union { float z, b, p; };
    union { float w, a, q; };
};
struct acc {             /* fields named like hex digits */
    float acc0;
    float c0;
    double a1;
    _Float16 f4;
    float fade[2];
};

static const uint32_t F32[8] = {0x3f800000, 0x3fc00000, 0x80000000, 0x3dcccccd,
                                0x3eaaaaab, 0x00000001, 0x007fffff, 0x7f7fffff};
static const uint32_t F32S[6] = {0x7f800000, 0xff800000, 0x7fc00000, 0x7fc00001,
                                 0x7f800001, 0xffc00000};
static const uint64_t F64[6] = {0x3fd5555555555555, 0x3fb999999999999a, 0x0000000000000001,
                                0x8000000000000000, 0x7ff8000000000123, 0x7e37e43c8800759c};
static const uint16_t F16[8] = {0x3c00, 0x3555, 0x0001, 0x7e00, 0x8000, 0x7bff, 0xfc00,
                                0x2e66};
static const uint32_t U32[4] = {0x3f800000, 0x40490fdb, 0xbf800000, 0x00000000};
/* bfloat16 patterns (the top half of an f32): gdb's v8_bfloat16 views of xmm4 / ymm5 */
static const uint16_t BF16[16] = {0x3f80, 0x3eab, 0x0001, 0x7fc0, 0x8000, 0x7f7f, 0xff80,
                                  0x3dcd, 0x4049, 0xc000, 0x0080, 0x007f, 0x7f80, 0x7fc1,
                                  0xbf80, 0x4780};

float farr[8];
float fspec[6];
double darr[6];
_Float16 harr[8];
uint32_t uarr[4];
uint16_t bfarr[16];
float fone, fthird, fdenorm, fnan, fneg0, finf;
double done, dthird, ddenorm, dnan, dbig;
_Float16 hone, hthird, hdenorm, hnan;
long double ldthird;
struct vec4 color;
struct acc acc;
v4sf vsf;
v2df vdf;
float mat[2][3];

static float f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static double f64(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static _Float16 f16(uint16_t u) { _Float16 h; memcpy(&h, &u, 2); return h; }

static void fill(void) {
    for (int i = 0; i < 8; i++) farr[i] = f32(F32[i]);
    for (int i = 0; i < 6; i++) fspec[i] = f32(F32S[i]);
    for (int i = 0; i < 6; i++) darr[i] = f64(F64[i]);
    for (int i = 0; i < 8; i++) harr[i] = f16(F16[i]);
    memcpy(uarr, U32, sizeof uarr);
    memcpy(bfarr, BF16, sizeof bfarr);
    fone = f32(0x3f800000); fthird = f32(0x3eaaaaab); fdenorm = f32(0x00000001);
    fnan = f32(0x7fc00001); fneg0 = f32(0x80000000); finf = f32(0x7f800000);
    done = f64(0x3ff0000000000000); dthird = f64(0x3fd5555555555555);
    ddenorm = f64(0x0000000000000001); dnan = f64(0x7ff8000000000123);
    dbig = f64(0x7e37e43c8800759c);
    hone = f16(0x3c00); hthird = f16(0x3555); hdenorm = f16(0x0001); hnan = f16(0x7e00);
    ldthird = 1.0L / 3.0L;
    color.x = f32(0x3f800000); color.y = f32(0x3f000000); color.z = f32(0x3e800000);
    color.w = f32(0x3eaaaaab);
    acc.acc0 = f32(0x3fc00000); acc.c0 = f32(0x3dcccccd); acc.a1 = f64(0x3fd5555555555555);
    acc.f4 = f16(0x3555); acc.fade[0] = f32(0x40490fdb); acc.fade[1] = f32(0xc0000000);
    vsf = (v4sf){f32(0x3f800000), f32(0x3eaaaaab), f32(0x80000000), f32(0x7f800000)};
    vdf = (v2df){f64(0x3fd5555555555555), f64(0xbff8000000000000)};
    for (int i = 0; i < 6; i++) mat[i / 3][i % 3] = f32(0x3f800000 + ((uint32_t)i << 22));
}

/* A function of one instruction that touches no register: the debuggers stop in it with
 * the registers as load_regs left them. */
__asm__(".text\n.globl regs_ready\n.type regs_ready, @function\nregs_ready:\n\tret\n"
        ".size regs_ready, .-regs_ready\n");
void regs_ready(void);

/* xmm0 = farr[0..3], xmm1 = darr[0..1], xmm2 = harr[0..7], xmm4 = bfarr[0..7], xmm6 =
 * farr[0..1] with its top 64 bits zero (movq); ymm3 = farr[0..7], ymm5 = bfarr[0..15] (AVX). */
static void __attribute__((noinline)) load_regs(int avx) {
    __asm__ volatile("movups farr(%%rip), %%xmm0\n\t"
                     "movups darr(%%rip), %%xmm1\n\t"
                     "movups harr(%%rip), %%xmm2\n\t"
                     "movups bfarr(%%rip), %%xmm4\n\t"
                     "movq farr(%%rip), %%xmm6\n\t"
                     ::: "xmm0", "xmm1", "xmm2", "xmm4", "xmm6");
    if (avx)
        __asm__ volatile("vmovups farr(%%rip), %%ymm3\n\t"
                         "vmovups bfarr(%%rip), %%ymm5" ::: "xmm3", "xmm5");
    regs_ready();
}

static void __attribute__((noinline)) locals_ready(void) { __asm__ volatile("nop"); }

int main(int argc, char **argv) {
    fill();
    if (argc > 1 && strcmp(argv[1], "--manifest") == 0) {
        printf("{\n");
        hexs("farr", "f32", farr, 8, 4, 0); hexs("fspec", "f32", fspec, 6, 4, 0);
        hexs("darr", "f64", darr, 6, 8, 0); hexs("harr", "f16", harr, 8, 2, 0);
        hexs("uarr", "f32", uarr, 4, 4, 0); hexs("bfarr", "bf16", bfarr, 16, 2, 0);
        hexs("fone", "f32", &fone, 1, 4, 0); hexs("fthird", "f32", &fthird, 1, 4, 0);
        hexs("fdenorm", "f32", &fdenorm, 1, 4, 0); hexs("fnan", "f32", &fnan, 1, 4, 0);
        hexs("fneg0", "f32", &fneg0, 1, 4, 0); hexs("finf", "f32", &finf, 1, 4, 0);
        hexs("done", "f64", &done, 1, 8, 0); hexs("dthird", "f64", &dthird, 1, 8, 0);
        hexs("ddenorm", "f64", &ddenorm, 1, 8, 0); hexs("dnan", "f64", &dnan, 1, 8, 0);
        hexs("dbig", "f64", &dbig, 1, 8, 0);
        hexs("hone", "f16", &hone, 1, 2, 0); hexs("hthird", "f16", &hthird, 1, 2, 0);
        hexs("hdenorm", "f16", &hdenorm, 1, 2, 0); hexs("hnan", "f16", &hnan, 1, 2, 0);
        hexs("color", "f32", &color, 4, 4, 0);
        hexs("vsf", "f32", &vsf, 4, 4, 0); hexs("vdf", "f64", &vdf, 2, 8, 0);
        hexs("mat", "f32", mat, 6, 4, 0);
        hexs("acc.acc0", "f32", &acc.acc0, 1, 4, 0); hexs("acc.c0", "f32", &acc.c0, 1, 4, 0);
        hexs("acc.a1", "f64", &acc.a1, 1, 8, 0); hexs("acc.f4", "f16", &acc.f4, 1, 2, 0);
        hexs("acc.fade", "f32", acc.fade, 2, 4, 1);
        printf("}\n");
        return 0;
    }
    float lf[4] = {farr[0], farr[3], farr[4], farr[5]};   /* locals */
    double ld = dthird;
    _Float16 lh = hthird;
    locals_ready();
    load_regs(__builtin_cpu_supports("avx"));
    return (int)(lf[0] + (float)ld + (float)lh) - 2;
}
