/* The host tools' spelling of a pruning policy: the console's words joined
   by colons, e.g. "h2o:64", "unicaim:128:k=32:m=12". */
#ifndef TOOLS_POLICY_SPEC_H
#define TOOLS_POLICY_SPEC_H

#include "kvcache.h"

/* 0, or -1 for a spec kv_policy_parse refuses. */
int policy_from_spec(kv_policy_t *p, const char *spec, int max_budget);

#endif
