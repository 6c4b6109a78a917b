/* ogham runtime, scalars: Futhark's scalar semantics without undefined
 * behaviour. Integer arithmetic wraps (done in the unsigned type); `/` and
 * `%` round toward negative infinity, `//` and `%%` toward zero; division by
 * zero is checked by the generated code before these are called; shifts by
 * an amount outside [0, bits) give 0 (or the sign for arithmetic right
 * shifts); float-to-integer conversion gives 0 for NaN and infinities and
 * otherwise truncates as x86 does (og_f2i_bits). */

typedef uint16_t og_f16; /* stored as IEEE binary16 bits; computed in float */

/* Whether a value is negative, written so that unsigned types do not trip -Wtype-limits. */
#define OG_NEG_S(x) ((x) < 0)
#define OG_NEG_U(x) ((void)(x), 0)

/* Float to integer as Futhark's compiled code: NaN and infinities give 0; a
 * finite value is truncated toward zero; an unsigned target takes it if it
 * is in range, else, as signed targets, it goes into the signed type of the
 * target's width (unsigned targets take its bits); out of the 32-bit (or,
 * for 64-bit targets, 64-bit) signed range it gives that range's minimum,
 * as x86 conversions do, narrowed for 8 and 16 bits. No undefined
 * behaviour: the bits are computed, not left to the C cast. */
static inline uint64_t og_f2i_bits(double x, int bits) {
  if (!isfinite(x)) return 0;
  double t = trunc(x);
  if (bits == 64)
    return (t >= -9223372036854775808.0 && t < 9223372036854775808.0) ? (uint64_t)(int64_t)t : (uint64_t)1 << 63;
  return (t >= -2147483648.0 && t < 2147483648.0) ? (uint64_t)(int64_t)t : (uint64_t)(int64_t)INT32_MIN;
}

#define OG_INT_OPS(T, U, BITS, SIGNED, NEG, MIN, MAX, UPLIM)                                           \
  static inline T og_add_##T(T a, T b) { return (T)((U)a + (U)b); }                        \
  static inline T og_sub_##T(T a, T b) { return (T)((U)a - (U)b); }                        \
  static inline T og_mul_##T(T a, T b) { return (T)((uint64_t)(U)a * (uint64_t)(U)b); }    \
  static inline T og_neg_##T(T a) { return (T)((U)0 - (U)a); }                             \
  static inline T og_quot_##T(T a, T b) {                                                 \
    if (SIGNED && b == (T)-1) return og_neg_##T(a);                                       \
    return (T)(a / b);                                                                    \
  }                                                                                       \
  static inline T og_rem_##T(T a, T b) {                                                  \
    if (SIGNED && b == (T)-1) return 0;                                                   \
    return (T)(a % b);                                                                    \
  }                                                                                       \
  static inline T og_div_##T(T a, T b) {                                                  \
    T q = og_quot_##T(a, b);                                                              \
    T r = og_rem_##T(a, b);                                                               \
    if (SIGNED && r != 0 && (NEG(r) != NEG(b))) q = og_sub_##T(q, 1);                   \
    return q;                                                                             \
  }                                                                                       \
  static inline T og_mod_##T(T a, T b) {                                                  \
    T r = og_rem_##T(a, b);                                                               \
    if (SIGNED && r != 0 && (NEG(r) != NEG(b))) r = og_add_##T(r, b);                   \
    return r;                                                                             \
  }                                                                                       \
  static inline T og_pow_##T(T a, T b) {                                                  \
    if (NEG(b)) return 0;                                                        \
    U base = (U)a, e = (U)b, r = 1;                                                       \
    while (e != 0) {                                                                      \
      if (e & 1) r = (U)((uint64_t)r * base);                                             \
      e >>= 1;                                                                            \
      base = (U)((uint64_t)base * base);                                                  \
    }                                                                                     \
    return (T)r;                                                                          \
  }                                                                                       \
  static inline T og_shl_##T(T a, T b) {                                                  \
    if ((U)b >= (U)BITS) return 0;                                                        \
    return (T)((U)a << (U)b);                                                             \
  }                                                                                       \
  static inline T og_ushr_##T(T a, T b) {                                                 \
    if ((U)b >= (U)BITS) return 0;                                                        \
    return (T)((U)a >> (U)b);                                                             \
  }                                                                                       \
  static inline T og_shr_##T(T a, T b) {                                                  \
    if (!SIGNED) return og_ushr_##T(a, b);                                                \
    bool neg = NEG(a);                                                                     \
    if ((U)b >= (U)BITS) return neg ? (T)-1 : 0;                                          \
    U r = (U)a >> (U)b;                                                                   \
    if (neg && b > 0) r |= (U) ~(U)0 << (U)(BITS - (U)b);                                 \
    return (T)r;                                                                          \
  }                                                                                       \
  static inline T og_min_##T(T a, T b) { return a < b ? a : b; }                          \
  static inline T og_max_##T(T a, T b) { return a > b ? a : b; }                          \
  static inline T og_abs_##T(T a) { return NEG(a) ? og_neg_##T(a) : a; }      \
  static inline T og_sgn_##T(T a) { return (T)((a > 0) - NEG(a)); }           \
  static inline int32_t og_popc_##T(T a) { return __builtin_popcountll((uint64_t)(U)a); } \
  static inline int32_t og_clz_##T(T a) {                                                 \
    U x = (U)a;                                                                           \
    if (x == 0) return BITS;                                                              \
    return __builtin_clzll((uint64_t)x) - (64 - BITS);                                    \
  }                                                                                       \
  static inline int32_t og_ctz_##T(T a) {                                                 \
    U x = (U)a;                                                                           \
    if (x == 0) return BITS;                                                              \
    return __builtin_ctzll((uint64_t)x);                                                  \
  }                                                                                       \
  static inline T og_from_f64_##T(double x) {                                            \
    if (!SIGNED && isfinite(x) && trunc(x) >= 0 && trunc(x) < 2.0 * (double)((U)1 << (BITS - 1))) \
      return (T)(U)trunc(x);                                                              \
    return (T)(U)og_f2i_bits(x, BITS);                                                    \
  }

OG_INT_OPS(int8_t, uint8_t, 8, 1, OG_NEG_S, INT8_MIN, INT8_MAX, 128.0)
OG_INT_OPS(int16_t, uint16_t, 16, 1, OG_NEG_S, INT16_MIN, INT16_MAX, 32768.0)
OG_INT_OPS(int32_t, uint32_t, 32, 1, OG_NEG_S, INT32_MIN, INT32_MAX, 2147483648.0)
OG_INT_OPS(int64_t, uint64_t, 64, 1, OG_NEG_S, INT64_MIN, INT64_MAX, 9223372036854775808.0)
OG_INT_OPS(uint8_t, uint8_t, 8, 0, OG_NEG_U, 0, UINT8_MAX, 256.0)
OG_INT_OPS(uint16_t, uint16_t, 16, 0, OG_NEG_U, 0, UINT16_MAX, 65536.0)
OG_INT_OPS(uint32_t, uint32_t, 32, 0, OG_NEG_U, 0, UINT32_MAX, 4294967296.0)
OG_INT_OPS(uint64_t, uint64_t, 64, 0, OG_NEG_U, 0, UINT64_MAX, 18446744073709551616.0)

/* The high half of the double-width product. */
static inline int8_t og_mulhi_int8_t(int8_t a, int8_t b) { return (int8_t)(((int16_t)a * (int16_t)b) >> 8); }
static inline int16_t og_mulhi_int16_t(int16_t a, int16_t b) { return (int16_t)(((int32_t)a * (int32_t)b) >> 16); }
static inline int32_t og_mulhi_int32_t(int32_t a, int32_t b) { return (int32_t)(((int64_t)a * (int64_t)b) >> 32); }
static inline int64_t og_mulhi_int64_t(int64_t a, int64_t b) { return (int64_t)(((__int128)a * (__int128)b) >> 64); }
static inline uint8_t og_mulhi_uint8_t(uint8_t a, uint8_t b) { return (uint8_t)(((uint32_t)a * (uint32_t)b) >> 8); }
static inline uint16_t og_mulhi_uint16_t(uint16_t a, uint16_t b) { return (uint16_t)(((uint32_t)a * (uint32_t)b) >> 16); }
static inline uint32_t og_mulhi_uint32_t(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * (uint64_t)b) >> 32); }
static inline uint64_t og_mulhi_uint64_t(uint64_t a, uint64_t b) {
  return (uint64_t)(((unsigned __int128)a * (unsigned __int128)b) >> 64);
}

/* Float helpers shared by f32 and f64 (suffix f for float). */
#define OG_FLOAT_OPS(T, SFX, PI)                                                              \
  static inline T og_fmod_##T(T a, T b) {                                                     \
    T r = OG_LIBM(fmod##SFX(a, b));                                                           \
    if (r != 0 && ((r < 0) != (b < 0))) r += b;                                               \
    return r;                                                                                 \
  }                                                                                           \
  static inline T og_sgn_##T(T a) { return a > 0 ? (T)1 : a < 0 ? (T)-1 : a; }                \
  /* `min` and `max` ignore a NaN operand, as C's fmin and fmax do, but as \
     selects the C compiler inlines and vectorises (a call to fmin{f}    \
     otherwise: k-means' nearest centres spent 13% of their time there). \
     On equal operands (and so on zeros of either sign) the first wins. */ \
  static inline T og_fmin_##T(T a, T b) { return ((b < a) | (a != a)) ? b : a; }               \
  static inline T og_fmax_##T(T a, T b) { return ((b > a) | (a != a)) ? b : a; }               \
  static inline T og_lerp_##T(T v0, T v1, T t) { return v0 + (v1 - v0) * t; }                 \
  static inline T og_rsqrt_##T(T a) { return (T)1 / sqrt##SFX(a); }                           \
  static inline T og_sinpi_##T(T a) { return OG_LIBM(sin##SFX(PI * a)); }                     \
  static inline T og_cospi_##T(T a) { return OG_LIBM(cos##SFX(PI * a)); }                     \
  static inline T og_tanpi_##T(T a) { return OG_LIBM(tan##SFX(PI * a)); }                     \
  static inline T og_asinpi_##T(T a) { return OG_LIBM(asin##SFX(a)) / PI; }                   \
  static inline T og_acospi_##T(T a) { return OG_LIBM(acos##SFX(a)) / PI; }                   \
  static inline T og_atanpi_##T(T a) { return OG_LIBM(atan##SFX(a)) / PI; }

OG_FLOAT_OPS(float, f, 3.14159265358979323846f)
OG_FLOAT_OPS(double, , 3.14159265358979323846)

/* tanh, ogham's own rather than libm's (glibc's goes through expm1, and
   was half the time of an LSTM's gradient): the same operations as the
   interpreter's, `ogham_prim::ops::tanh`, which gives its accuracy (at
   most 1.5 ulp measured, glibc's 2.1), on constants the code generator
   defines from that crate's (OG_TANH_POLY, OG_TANH_POLY_BELOW). Below
   the switch, a + a(yP(y)) with y = a^2; from it on, 1 - 2/(e^(2a) + 1).
   f32 rounds the f64 result, as the interpreter does. */
static inline double og_tanh_double(double x) {
  static const double poly[11] = {OG_TANH_POLY};
  double a = fabs(x), r;
  if (a < OG_TANH_POLY_BELOW) {
    /* y P(y) by Estrin's scheme, as the interpreter groups it. */
    const double *c = poly;
    double y = a * a, y2 = y * y, y4 = y2 * y2, y8 = y4 * y4;
    double q0 = c[10] + c[9] * y, q1 = c[8] + c[7] * y, q2 = c[6] + c[5] * y;
    double q3 = c[4] + c[3] * y, q4 = c[2] + c[1] * y;
    double r0 = q0 + q1 * y2, r1 = q2 + q3 * y2, r2 = q4 + c[0] * y2;
    r = a + a * (y * ((r0 + r1 * y4) + r2 * y8));
  } else {
    r = 1 - 2 / (OG_LIBM(exp(2 * a)) + 1);
  }
  return copysign(r, x);
}
static inline float og_tanh_float(float x) { return (float)og_tanh_double((double)x); }

/* IEEE binary16 <-> binary32, round to nearest even. */
static inline float og_f16_to_f32(og_f16 h) {
  uint32_t sign = (uint32_t)(h >> 15) << 31;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {
      int e = -1;
      do {
        e++;
        mant <<= 1;
      } while ((mant & 0x400) == 0);
      bits = sign | ((uint32_t)(127 - 15 - e) << 23) | ((mant & 0x3ff) << 13);
    }
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

static inline og_f16 og_f32_to_f16(float f) {
  uint32_t bits;
  memcpy(&bits, &f, 4);
  uint16_t sign = (uint16_t)((bits >> 16) & 0x8000);
  uint32_t exp = (bits >> 23) & 0xff;
  uint32_t mant = bits & 0x7fffff;
  if (exp == 0xff) return (og_f16)(sign | 0x7c00 | (mant ? 0x200 : 0));
  int32_t e = (int32_t)exp - 127 + 15;
  if (e >= 0x1f) return (og_f16)(sign | 0x7c00);
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    uint32_t shift = (uint32_t)(14 - e);
    uint32_t half = mant >> shift;
    uint32_t rest = mant & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1))) half++;
    return (og_f16)(sign | half);
  }
  uint32_t half = ((uint32_t)e << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1))) half++;
  return (og_f16)(sign | half);
}

/* binary64 -> binary16, rounded once (going through float would round twice). */
static inline og_f16 og_f16_from_f64(double x) {
  uint64_t bits;
  memcpy(&bits, &x, 8);
  uint16_t sign = (uint16_t)((bits >> 48) & 0x8000);
  uint32_t exp = (uint32_t)((bits >> 52) & 0x7ff);
  uint64_t mant = bits & 0xfffffffffffffULL;
  if (exp == 0x7ff) return (og_f16)(sign | 0x7c00 | (mant ? 0x200 : 0));
  int32_t e = (int32_t)exp - 1023 + 15;
  if (e >= 0x1f) return (og_f16)(sign | 0x7c00);
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 1ULL << 52;
    uint32_t shift = (uint32_t)(43 - e);
    uint64_t half = mant >> shift;
    uint64_t rest = mant & ((1ULL << shift) - 1);
    uint64_t halfway = 1ULL << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1))) half++;
    return (og_f16)(sign | half);
  }
  uint64_t half = ((uint64_t)e << 10) | (mant >> 42);
  uint64_t rest = mant & ((1ULL << 42) - 1);
  if (rest > (1ULL << 41) || (rest == (1ULL << 41) && (half & 1))) half++;
  return (og_f16)(sign | half);
}

/* The next binary16 value after x in the direction of y. */
static inline og_f16 og_nextafter_f16(og_f16 x, og_f16 y) {
  float a = og_f16_to_f32(x), b = og_f16_to_f32(y);
  if (isnan(a) || isnan(b)) return (og_f16)0x7e00;
  if (a == b) return y;
  if (a == 0) return (og_f16)(b < a ? 0x8001 : 0x0001);
  bool away = (b > a) == (a > 0);
  return (og_f16)(away ? x + 1 : x - 1);
}

/* v0 + (v1 - v0) * t with every step rounded to binary16, as f16 arithmetic is. */
static inline og_f16 og_lerp_f16(og_f16 v0, og_f16 v1, og_f16 t) {
  og_f16 d = og_f32_to_f16(og_f16_to_f32(v1) - og_f16_to_f32(v0));
  og_f16 s = og_f32_to_f16(og_f16_to_f32(d) * og_f16_to_f32(t));
  return og_f32_to_f16(og_f16_to_f32(v0) + og_f16_to_f32(s));
}

/* Bit reinterpretation between types of the same width. */
#define OG_BITCAST(FROM, TO) \
  static inline TO og_bitcast_##FROM##_##TO(FROM x) { TO y; memcpy(&y, &x, sizeof y); return y; }
