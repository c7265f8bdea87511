/* dense: every position stays and every step attends to all of them (the
   reference the others are measured against). */
#include "kv_policy.h"

const kv_policy_ops_t kv_policy_dense = {
    .name = "dense",
    .summary = "every position kept and attended (the reference)",
    .flags = KV_POLICY_NO_BUDGET,
};
