#include "CPlaceCount.h"

/* The same operations, in the same order, as the Swift code it stands for
   (PlaceCellCount.verdict): no fused multiply-add, so every bound is the
   same float and the same points are left undecided. */
#pragma clang fp contract(off)

#if defined(__x86_64__)

#include <immintrin.h>

/* One point's verdict, as PlaceCellCount.verdict: 1 inside, 0 outside,
   -1 undecided. */
static inline int verdict(
    uint32_t offset, float base_x, float base_y, float step, float error, float cos_low,
    float cos_high, float third, float inside_term, float outside_term) {
  float half_x = base_x + (float)(offset & 0xFFFF) * step;
  float half_y = base_y + (float)(offset >> 16) * step;
  float far_x = (half_x < 0 ? -half_x : half_x) + error;
  float far_y = (half_y < 0 ? -half_y : half_y) + error;
  float near_x = (half_x < 0 ? -half_x : half_x) - error;
  float near_y = (half_y < 0 ? -half_y : half_y) - error;
  near_x = 0 >= near_x ? 0 : near_x;
  near_y = 0 >= near_y ? 0 : near_y;
  float high_x = far_x * far_x, high_y = far_y * far_y;
  float largest = high_x >= high_y ? high_x : high_y;
  float high = high_y + cos_high * high_x;
  float low = (near_y * near_y + cos_low * (near_x * near_x)) * (1 - largest * third);
  if (!(largest <= 0.0025f)) return -1;
  if (high <= inside_term) return 1;
  if (low > outside_term) return 0;
  return -1;
}

int cplacecount_is_wide(void) {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}

/* The offsets of a span, asked for ahead of their count. Sixteen offsets
   are one cache line of 64 bytes. */
static inline void prefetch(const uint32_t *offsets, const cplacecount_span *span) {
  for (int64_t i = span->start; i < span->end; i += 16) __builtin_prefetch(offsets + i);
}

__attribute__((target("avx2")))
int64_t cplacecount_cells(
    const uint32_t *offsets, const cplacecount_span *spans, int64_t count, float step,
    float error, float third, float inside_term, float outside_term, int32_t *undecided,
    int64_t *undecided_count) {
  const __m256 st = _mm256_set1_ps(step), er = _mm256_set1_ps(error);
  const __m256 th = _mm256_set1_ps(third), one = _mm256_set1_ps(1.0f);
  const __m256 zero = _mm256_setzero_ps(), near = _mm256_set1_ps(0.0025f);
  const __m256 it = _mm256_set1_ps(inside_term), ot = _mm256_set1_ps(outside_term);
  const __m256 magnitude = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF));
  const __m256i low16 = _mm256_set1_epi32(0xFFFF);
  __m256i inside = _mm256_setzero_si256();
  int64_t count_tail = 0;
  int64_t left = 0;
  for (int64_t n = 0; n < count && n < 2; n++) prefetch(offsets, spans + n);
  for (int64_t n = 0; n < count; n++) {
    if (n + 2 < count) prefetch(offsets, spans + n + 2);
    const cplacecount_span *span = spans + n;
    const __m256 bx = _mm256_set1_ps(span->base_x), by = _mm256_set1_ps(span->base_y);
    const __m256 cl = _mm256_set1_ps(span->cos_low), ch = _mm256_set1_ps(span->cos_high);
    int64_t i = span->start;
    for (; i + 8 <= span->end; i += 8) {
      __m256i packed = _mm256_loadu_si256((const __m256i *)(offsets + i));
      __m256 east = _mm256_cvtepi32_ps(_mm256_and_si256(packed, low16));
      __m256 north = _mm256_cvtepi32_ps(_mm256_srli_epi32(packed, 16));
      __m256 half_x = _mm256_add_ps(bx, _mm256_mul_ps(east, st));
      __m256 half_y = _mm256_add_ps(by, _mm256_mul_ps(north, st));
      __m256 abs_x = _mm256_and_ps(half_x, magnitude), abs_y = _mm256_and_ps(half_y, magnitude);
      __m256 far_x = _mm256_add_ps(abs_x, er), far_y = _mm256_add_ps(abs_y, er);
      /* max_ps(a, 0) is a > 0 ? a : 0, as 0 >= a ? 0 : a. */
      __m256 near_x = _mm256_max_ps(_mm256_sub_ps(abs_x, er), zero);
      __m256 near_y = _mm256_max_ps(_mm256_sub_ps(abs_y, er), zero);
      __m256 high_x = _mm256_mul_ps(far_x, far_x), high_y = _mm256_mul_ps(far_y, far_y);
      __m256 largest =
          _mm256_blendv_ps(high_y, high_x, _mm256_cmp_ps(high_x, high_y, _CMP_GE_OQ));
      __m256 high = _mm256_add_ps(high_y, _mm256_mul_ps(ch, high_x));
      __m256 low = _mm256_mul_ps(
          _mm256_add_ps(
              _mm256_mul_ps(near_y, near_y), _mm256_mul_ps(cl, _mm256_mul_ps(near_x, near_x))),
          _mm256_sub_ps(one, _mm256_mul_ps(largest, th)));
      __m256 is_near = _mm256_cmp_ps(largest, near, _CMP_LE_OQ);
      __m256 is_inside = _mm256_and_ps(is_near, _mm256_cmp_ps(high, it, _CMP_LE_OQ));
      __m256 is_outside = _mm256_and_ps(is_near, _mm256_cmp_ps(low, ot, _CMP_GT_OQ));
      /* All-ones lanes are -1 as integers. */
      inside = _mm256_sub_epi32(inside, _mm256_castps_si256(is_inside));
      unsigned open = ~(unsigned)_mm256_movemask_ps(_mm256_or_ps(is_inside, is_outside)) & 0xFF;
      while (open) {
        undecided[left++] = (int32_t)(i + __builtin_ctz(open));
        open &= open - 1;
      }
    }
    for (; i < span->end; i++) {
      int v = verdict(
          offsets[i], span->base_x, span->base_y, step, error, span->cos_low, span->cos_high,
          third, inside_term, outside_term);
      if (v < 0) {
        undecided[left++] = (int32_t)i;
      } else {
        count_tail += v;
      }
    }
  }
  int32_t lanes[8];
  _mm256_storeu_si256((__m256i *)lanes, inside);
  int64_t total = count_tail;
  for (int lane = 0; lane < 8; lane++) total += lanes[lane];
  *undecided_count = left;
  return total;
}

#else

/* Elsewhere (arm64 among them) the Swift loop runs instead. */
int cplacecount_is_wide(void) { return 0; }

int64_t cplacecount_cells(
    const uint32_t *offsets, const cplacecount_span *spans, int64_t count, float step,
    float error, float third, float inside_term, float outside_term, int32_t *undecided,
    int64_t *undecided_count) {
  *undecided_count = 0;
  return 0;
}

#endif

void cplacecount_prefetch_bytes(const void *start, int64_t count) {
  const char *bytes = (const char *)start;
  for (int64_t offset = 0; offset < count; offset += 64) __builtin_prefetch(bytes + offset);
}
