#include "CPlaceCount.h"

/* The same operations, in the same order, as the Swift code it stands for
   (PlaceCountBounds.verdict): no fused multiply-add, so every bound is the
   same double and the count's second pass finds the same points
   undecided. */
#pragma clang fp contract(off)

#if defined(__x86_64__)

#include <immintrin.h>

int cplacecount_is_wide(void) {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}

__attribute__((target("avx2")))
cplacecount_verdicts cplacecount_bounds(
    const double *xs, const double *ys, const double *cos_ys, int64_t start, int64_t end,
    double origin_x, double origin_y, double origin_cos, double scale, double third,
    double inside_term, double outside_term) {
  const __m256d ox = _mm256_set1_pd(origin_x), oy = _mm256_set1_pd(origin_y);
  const __m256d oc = _mm256_set1_pd(origin_cos), sc = _mm256_set1_pd(scale);
  const __m256d th = _mm256_set1_pd(third), one = _mm256_set1_pd(1.0);
  const __m256d near = _mm256_set1_pd(0.0025);
  const __m256d it = _mm256_set1_pd(inside_term), ot = _mm256_set1_pd(outside_term);
  __m256i inside = _mm256_setzero_si256(), decided = _mm256_setzero_si256();
  int64_t i = start;
  for (; i + 4 <= end; i += 4) {
    __m256d half_y = _mm256_mul_pd(_mm256_sub_pd(_mm256_loadu_pd(ys + i), oy), sc);
    __m256d half_x = _mm256_mul_pd(_mm256_sub_pd(_mm256_loadu_pd(xs + i), ox), sc);
    __m256d square_y = _mm256_mul_pd(half_y, half_y);
    __m256d square_x = _mm256_mul_pd(half_x, half_x);
    /* Swift's max(a, b) is b >= a ? b : a. */
    __m256d largest = _mm256_blendv_pd(
        square_y, square_x, _mm256_cmp_pd(square_x, square_y, _CMP_GE_OQ));
    __m256d high = _mm256_add_pd(
        square_y, _mm256_mul_pd(_mm256_mul_pd(oc, _mm256_loadu_pd(cos_ys + i)), square_x));
    __m256d low = _mm256_mul_pd(high, _mm256_sub_pd(one, _mm256_mul_pd(largest, th)));
    __m256d is_near = _mm256_cmp_pd(largest, near, _CMP_LE_OQ);
    __m256d is_inside = _mm256_and_pd(is_near, _mm256_cmp_pd(high, it, _CMP_LE_OQ));
    __m256d is_outside = _mm256_and_pd(is_near, _mm256_cmp_pd(low, ot, _CMP_GT_OQ));
    /* All-ones lanes are -1 as integers. */
    inside = _mm256_sub_epi64(inside, _mm256_castpd_si256(is_inside));
    decided = _mm256_sub_epi64(
        decided, _mm256_castpd_si256(_mm256_or_pd(is_inside, is_outside)));
  }
  int64_t in[4], de[4];
  _mm256_storeu_si256((__m256i *)in, inside);
  _mm256_storeu_si256((__m256i *)de, decided);
  cplacecount_verdicts result = {in[0] + in[1] + in[2] + in[3], de[0] + de[1] + de[2] + de[3]};
  for (; i < end; i++) {
    double half_y = (ys[i] - origin_y) * scale;
    double half_x = (xs[i] - origin_x) * scale;
    double square_y = half_y * half_y;
    double square_x = half_x * half_x;
    double largest = square_x >= square_y ? square_x : square_y;
    double high = square_y + origin_cos * cos_ys[i] * square_x;
    double low = high * (1 - largest * third);
    int is_near = largest <= 0.0025;
    int is_inside = is_near & (high <= inside_term);
    int is_outside = is_near & (low > outside_term);
    result.inside += is_inside;
    result.decided += is_inside | is_outside;
  }
  return result;
}

#else

/* Elsewhere (arm64 among them) the Swift loop runs instead. */
int cplacecount_is_wide(void) { return 0; }

cplacecount_verdicts cplacecount_bounds(
    const double *xs, const double *ys, const double *cos_ys, int64_t start, int64_t end,
    double origin_x, double origin_y, double origin_cos, double scale, double third,
    double inside_term, double outside_term) {
  cplacecount_verdicts none = {0, 0};
  return none;
}

#endif

/* A hint: the count reads the points it is given right after. Eight doubles
   are one cache line of 64 bytes. */
void cplacecount_prefetch(
    const double *xs, const double *ys, const double *cos_ys, int64_t start, int64_t end) {
  int64_t last = end - start > 64 ? start + 64 : end;
  for (int64_t i = start; i < last; i += 8) {
    __builtin_prefetch(xs + i);
    __builtin_prefetch(ys + i);
    __builtin_prefetch(cos_ys + i);
  }
}
