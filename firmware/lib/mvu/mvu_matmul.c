#include "mvu_matmul.h"

#include "dcache.h"
#include "fixmath.h"
#include "llm_kernels.h"
#include "mvu.h"

/* transformer.c's matmul_grouped on the unit: for each input, its rows'
   64-bit sums from the unit, scaled as the portable kernel scales them. A
   matrix the unit cannot take (not in external memory, or too wide) is
   left to the portable kernel. */
static int matmul_grouped_mvu(int32_t *out, size_t out_stride, const llm_qmat_t *w, const int16_t *xq,
                              size_t x_stride, const int32_t *xsum, size_t sum_stride, const int32_t *xs, int n,
                              int out_shift) {
  const unsigned tiles = (unsigned)(w->rows + 3) / 4, groups = (unsigned)(w->cols / LLM_GROUP);
  for (int b = 0; b < n; b++) {
    if (mvu_start(w->q, w->scale, tiles, groups, xq + (size_t)b * x_stride, xsum + (size_t)b * sum_stride) != MVU_OK)
      return 1; /* the first input's refusal: nothing written yet */
    int32_t *o = out + (size_t)b * out_stride;
    for (int r = 0; r < w->rows; r++) o[r] = llm_mul_round_shift(mvu_result(), xs[b], 38 + out_shift);
    for (unsigned r = (unsigned)w->rows; r < tiles * 4; r++) (void)mvu_result(); /* the last tile's padding */
  }
  return 0;
}

static const llm_kernels_t mvu_kernels = {.matmul_grouped = matmul_grouped_mvu};

static int installed;

int mvu_matmul_install(const void *image, size_t bytes) {
  if (!mvu_present() || dcache_clean(image, bytes) != DCACHE_OK) return 0;
  installed = 1;
  llm_kernels = &mvu_kernels;
  return 1;
}

void mvu_matmul_enable(int on) {
  if (installed) llm_kernels = on ? &mvu_kernels : NULL;
}

int mvu_matmul_enabled(void) { return installed && llm_kernels == &mvu_kernels; }
