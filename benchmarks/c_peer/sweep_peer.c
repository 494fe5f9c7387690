/* The C brute force a user would write instead of fpinspector's sweep: every f32 sqrt or
 * every f16 x f16 mul in a range of patterns, under the D3D11 rules, with the summary
 * fpinspector's sweep prints (|error| histogram in ULPs of the exact result, max |error|,
 * operand and result classes, NaN results, non-conformant results).
 *
 *   sweep_peer sqrt LO HI          f32 patterns LO..HI (inclusive)
 *   sweep_peer mul16 ALO AHI BLO BHI   f16 patterns A x B
 *
 * Prints one JSON object. Written independently of fpinspector's engine: the hardware's
 * sqrtf and double sqrt, a table decode of f16 and a hand rounding to f16 (the product of
 * two f16 values is exact in double). Non-conformant: a finite |error| above 0.5 ULP (D3D11
 * asks for the correctly rounded result; an overflow to INF is the rounding of a value of at
 * least 65520 and is allowed). D3D11: f32 denormal inputs flush to a zero of their
 * sign (F32-FTZ), sqrt of a negative is NaN; f16 keeps denormals (F16-DENORM). The ULP is
 * that of the exact value's binade (2^(k-F) for |x| in [2^k, 2^(k+1)), the denormal spacing
 * below the smallest normal), as fpinspector defines it; NaN vs NaN and equal infinities are
 * an error of 0.
 *
 * Build: cc -O3 -march=native -fopenmp sweep_peer.c -o sweep_peer -lm
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NBINS 37 /* 0, (0,.5], (.5,1], (1,2] ... (2^30,2^31], (2^31,max], inf, nan */

typedef struct {
    uint64_t hist[NBINS];
    uint64_t cls0[5], cls1[5], model[5]; /* zero, denormal, normal, infinity, nan */
    uint64_t nonconformant; /* finite |error| above 0.5 ULP: outside D3D11's correctly rounded result */
    double max_err;
} summary;

static uint64_t bits_of(double x) {
    uint64_t u;
    memcpy(&u, &x, 8);
    return u;
}

static double pow2(int k) { /* 2^k for a normal double exponent, from its bits */
    uint64_t u = (uint64_t)(k + 1023) << 52;
    double x;
    memcpy(&x, &u, 8);
    return x;
}

static int bin_of(double e) {
    e = fabs(e);
    if (e != e) return 36;
    if (e == 0.0) return 0;
    if (e <= 0.5) return 1;
    if (e <= 1.0) return 2;
    if (isinf(e)) return 35;
    if (e > 2147483648.0) return 34;
    /* e in (2^(j-1), 2^j]: the predecessor of e has the exponent j - 1 */
    return 3 + (int)((bits_of(e) - 1) >> 52) - 1023;
}

static int class_of(double v) {
    if (v != v) return 4;
    if (isinf(v)) return 3;
    if (v == 0.0) return 0;
    return 2; /* denormal decided by the caller (format-specific) */
}

static void add_err(summary *s, double model, double exact, double ulp) {
    double e;
    if (model != model && exact != exact) e = 0.0;
    else if (model == exact) e = 0.0;
    else e = (model - exact) / ulp;
    s->hist[bin_of(e)]++;
    double a = fabs(e);
    if (a == a && a > s->max_err) s->max_err = a;
    if (a == a && !isinf(a) && a > 0.5) s->nonconformant++;
}

static void merge(summary *into, const summary *s) {
    for (int i = 0; i < NBINS; i++) into->hist[i] += s->hist[i];
    for (int i = 0; i < 5; i++) {
        into->cls0[i] += s->cls0[i];
        into->cls1[i] += s->cls1[i];
        into->model[i] += s->model[i];
    }
    into->nonconformant += s->nonconformant;
    if (s->max_err > into->max_err) into->max_err = s->max_err;
}

/* ---- f32 sqrt ---- */
static int f32_class(uint32_t b) {
    uint32_t m = b & 0x7fffffffu;
    if (m == 0) return 0;
    if (m < 0x00800000u) return 1;
    if (m < 0x7f800000u) return 2;
    if (m == 0x7f800000u) return 3;
    return 4;
}

static double ulp_f32(double x) {
    x = fabs(x);
    if (x < 0x1p-126) return 0x1p-149;
    int e = (int)(bits_of(x) >> 52) - 1023; /* x in [2^e, 2^(e+1)) */
    if (e > 127) e = 127;
    return pow2(e - 23);
}

static void sweep_sqrt(uint64_t lo, uint64_t hi, summary *out) {
#pragma omp parallel
    {
        summary s;
        memset(&s, 0, sizeof s);
#pragma omp for schedule(static, 1 << 16) nowait
        for (int64_t i = (int64_t)lo; i <= (int64_t)hi; i++) {
            uint32_t b = (uint32_t)i;
            int c = f32_class(b);
            s.cls0[c]++;
            if (c == 1) b &= 0x80000000u; /* F32-FTZ: a denormal input is a zero of its sign */
            float x;
            memcpy(&x, &b, 4);
            float r = sqrtf(x);
            double exact = sqrt((double)x);
            uint32_t rb;
            memcpy(&rb, &r, 4);
            s.model[f32_class(rb)]++;
            add_err(&s, (double)r, exact, ulp_f32(exact));
        }
#pragma omp critical
        merge(out, &s);
    }
}

/* ---- f16 x f16 mul ---- */
static double F16[65536];

static void f16_table(void) {
    for (int h = 0; h < 65536; h++) {
        int e = (h >> 10) & 31, f = h & 1023;
        double v;
        if (e == 31) v = f ? NAN : INFINITY;
        else if (e == 0) v = ldexp((double)f, -24);
        else v = ldexp((double)(1024 + f), e - 25);
        F16[h] = (h & 0x8000) ? -v : v;
    }
}

static int f16_class_of(double v) {
    int c = class_of(v);
    if (c == 2 && fabs(v) < 0x1p-14) return 1;
    return c;
}

/* Round an exact double to f16 (ties to even, overflow to INF); its ULP at the exact value. */
static double round_f16(double x, double *ulp) {
    double a = fabs(x);
    if (a != a) { *ulp = 1.0; return x; }
    if (isinf(a)) { *ulp = 32.0; return x; }
    double u;
    int k = -24;
    if (a >= 0x1p-14) {
        int e = (int)(bits_of(a) >> 52) - 1023; /* a in [2^e, 2^(e+1)) */
        k = (e > 15 ? 15 : e) - 10;
    }
    u = pow2(k);
    *ulp = u;
    if (a >= 65520.0) return copysign(INFINITY, x);
    return rint(x * pow2(-k)) * u; /* scaling by powers of two: exact */
}

static void sweep_mul16(uint64_t alo, uint64_t ahi, uint64_t blo, uint64_t bhi, summary *out) {
    f16_table();
    int64_t nb = (int64_t)(bhi - blo + 1);
    int64_t n = (int64_t)(ahi - alo + 1) * nb;
#pragma omp parallel
    {
        summary s;
        memset(&s, 0, sizeof s);
#pragma omp for schedule(static, 1 << 16) nowait
        for (int64_t i = 0; i < n; i++) {
            double a = F16[alo + (uint64_t)(i / nb)], b = F16[blo + (uint64_t)(i % nb)];
            s.cls0[f16_class_of(a)]++;
            s.cls1[f16_class_of(b)]++;
            double exact = a * b, ulp;
            double model = round_f16(exact, &ulp);
            s.model[f16_class_of(model)]++;
            add_err(&s, model, exact, ulp);
        }
#pragma omp critical
        merge(out, &s);
    }
}

static void print_counts(const char *name, const uint64_t *c, int n, const char *end) {
    printf("\"%s\": [", name);
    for (int i = 0; i < n; i++) printf("%s%llu", i ? ", " : "", (unsigned long long)c[i]);
    printf("]%s", end);
}

int main(int argc, char **argv) {
    summary s;
    memset(&s, 0, sizeof s);
    uint64_t elements;
    if (argc == 4 && !strcmp(argv[1], "sqrt")) {
        uint64_t lo = strtoull(argv[2], 0, 0), hi = strtoull(argv[3], 0, 0);
        if (hi > 0xffffffffu || lo > hi) return 2;
        sweep_sqrt(lo, hi, &s);
        elements = hi - lo + 1;
    } else if (argc == 6 && !strcmp(argv[1], "mul16")) {
        uint64_t v[4];
        for (int i = 0; i < 4; i++) v[i] = strtoull(argv[2 + i], 0, 0);
        if (v[1] > 0xffff || v[3] > 0xffff || v[0] > v[1] || v[2] > v[3]) return 2;
        sweep_mul16(v[0], v[1], v[2], v[3], &s);
        elements = (v[1] - v[0] + 1) * (v[3] - v[2] + 1);
    } else {
        fprintf(stderr, "usage: sweep_peer sqrt LO HI | sweep_peer mul16 ALO AHI BLO BHI\n");
        return 2;
    }
    printf("{\"elements\": %llu, ", (unsigned long long)elements);
    print_counts("histogram", s.hist, NBINS, ", ");
    print_counts("operand0_class", s.cls0, 5, ", ");
    if (!strcmp(argv[1], "mul16")) print_counts("operand1_class", s.cls1, 5, ", ");
    print_counts("model_class", s.model, 5, ", ");
    printf("\"nonconformant\": %llu, \"max_error\": ", (unsigned long long)s.nonconformant);
    if (isinf(s.max_err)) printf("Infinity}\n"); /* as Python's json writes it */
    else printf("%.17g}\n", s.max_err);
    return 0;
}
