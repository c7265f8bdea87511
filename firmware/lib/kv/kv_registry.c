/* Every pruning policy, in listing order: the one place that names them
   all. The first keeps everything (the dense reference). */
#include "kv_policy.h"

extern const kv_policy_ops_t kv_policy_dense, kv_policy_streamingllm, kv_policy_h2o, kv_policy_tova,
    kv_policy_snapkv, kv_policy_quest, kv_policy_unicaim, kv_policy_unicaim_plus;

const kv_policy_ops_t *const kv_policies[] = {
    &kv_policy_dense,  &kv_policy_streamingllm, &kv_policy_h2o,     &kv_policy_tova,
    &kv_policy_snapkv, &kv_policy_quest,        &kv_policy_unicaim, &kv_policy_unicaim_plus,
    0,
};
