#ifndef CPLACECOUNT_H
#define CPLACECOUNT_H

#include <stdint.h>

/* One cell on a circle's edge, for cplacecount_cells: its points' positions,
   the half angles (radians) of its corner's offset from the centre, and the
   centre's cosine times the least and the greatest cosine of a latitude in
   its row. */
typedef struct {
  int64_t start;
  int64_t end;
  float base_x;
  float base_y;
  float cos_low;
  float cos_high;
} cplacecount_span;

/* PlaceCellCount.count (the first pass of the places index's count of a
   circle's edge cells) eight points at a time with AVX2, on the points'
   packed offsets from their cell's corner (low 16 bits east, high 16 bits
   north): returns how many points of `spans` the bounds put inside the
   circle, and writes the positions of those they leave undecided to
   `undecided` (room for all the spans' points), their number to
   `undecided_count`. Each cell's offsets are fetched two cells ahead. */
int64_t cplacecount_cells(
    const uint32_t *offsets, const cplacecount_span *spans, int64_t count, float step,
    float error, float third, float inside_term, float outside_term, int32_t *undecided,
    int64_t *undecided_count);

/* Whether cplacecount_cells runs here: an x86-64 processor with AVX2.
   Elsewhere it counts nothing and the Swift loop is used. */
int cplacecount_is_wide(void);

/* Asks the processor to bring bytes [start, start + count) into its caches:
   the row cache's rows of a page, before they are copied. */
void cplacecount_prefetch_bytes(const void *start, int64_t count);

#endif
