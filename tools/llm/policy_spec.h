/* The host tools' spelling of a pruning policy: the console's words joined
   by colons, e.g. "NAME:64" or "NAME:128:k=32:m=12" (kv_policy.h). */
#ifndef TOOLS_POLICY_SPEC_H
#define TOOLS_POLICY_SPEC_H

#include "kv_policy.h"

/* NULL, or the reason (in ERR) the spec is refused; SLOTS per bank. */
const char *policy_from_spec(kv_policy_t *p, const char *spec, int max_budget, int slots, char *err, size_t size);

#endif
