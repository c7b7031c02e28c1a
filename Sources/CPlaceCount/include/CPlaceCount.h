#ifndef CPLACECOUNT_H
#define CPLACECOUNT_H

#include <stdint.h>

/* PlaceCountBounds.verdicts (the first pass of the places index's count)
   four points at a time with AVX2: over points [start, end), how many the
   bounds put inside the circle, and how many they decide at all. */
typedef struct {
  int64_t inside;
  int64_t decided;
} cplacecount_verdicts;

/* Whether cplacecount_bounds runs here: an x86-64 processor with AVX2.
   Elsewhere it counts nothing and the Swift loop is used. */
int cplacecount_is_wide(void);

cplacecount_verdicts cplacecount_bounds(
    const double *xs, const double *ys, const double *cos_ys, int64_t start, int64_t end,
    double origin_x, double origin_y, double origin_cos, double scale, double third,
    double inside_term, double outside_term);

/* Asks the processor to bring points [start, end) of the three arrays
   into its caches (at most the first 512 bytes of each). */
void cplacecount_prefetch(
    const double *xs, const double *ys, const double *cos_ys, int64_t start, int64_t end);

#endif
