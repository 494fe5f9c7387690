/* AArch64 registers for the paste corpus: capture.py builds this with
 * aarch64-linux-gnu-gcc (-static), runs it under qemu-aarch64 -g PORT and gdb-multiarch
 * (target remote). v0 = farr (4 f32), v1 = darr (2 f64), v2 = harr (8 f16), v3 = bfarr (8
 * bfloat16), each loaded from its bits, and v4 = farr[0..1] with its top 64 bits zero (ldr d4);
 * --manifest prints those patterns as JSON. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "manifest.h"

static const uint32_t F32[4] = {0x3f800000, 0x3fc00000, 0x80000000, 0x3dcccccd};
static const uint64_t F64[2] = {0x3fd5555555555555, 0x0000000000000001};
static const uint16_t F16[8] = {0x3c00, 0x3555, 0x0001, 0x7e00, 0x8000, 0x7bff, 0xfc00,
                                0x2e66};
static const uint16_t BF16[8] = {0x3f80, 0x3eab, 0x0001, 0x7fc0, 0x8000, 0x7f7f, 0xff80,
                                 0x3dcd};

float farr[4];
double darr[2];
_Float16 harr[8];
uint16_t bfarr[8];

/* A function of one instruction that touches no register: gdb stops in it with the
 * registers as load_regs left them. */
__asm__(".text\n.globl regs_ready\n.type regs_ready, %function\nregs_ready:\n\tret\n"
        ".size regs_ready, .-regs_ready\n");
void regs_ready(void);

static void __attribute__((noinline)) load_regs(void) {
    __asm__ volatile("ldr q0, [%0]\n\tldr q1, [%1]\n\tldr q2, [%2]\n\tldr q3, [%3]\n\t"
                     "ldr d4, [%0]\n\t"
                     :: "r"(farr), "r"(darr), "r"(harr), "r"(bfarr)
                     : "v0", "v1", "v2", "v3", "v4");
    regs_ready();
}

static void __attribute__((noinline)) locals_ready(void) { __asm__ volatile("nop"); }

int main(int argc, char **argv) {
    memcpy(farr, F32, sizeof farr);
    memcpy(darr, F64, sizeof darr);
    memcpy(harr, F16, sizeof harr);
    memcpy(bfarr, BF16, sizeof bfarr);
    if (argc > 1 && strcmp(argv[1], "--manifest") == 0) {
        printf("{\n");
        hexs("farr", "f32", farr, 4, 4, 0); hexs("darr", "f64", darr, 2, 8, 0);
        hexs("harr", "f16", harr, 8, 2, 0); hexs("bfarr", "bf16", bfarr, 8, 2, 1);
        printf("}\n");
        return 0;
    }
    locals_ready();
    load_regs();
    return 0;
}
