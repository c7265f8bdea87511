#include "chat.h"

#include <string.h>

int llm_chat_prompt(const llm_model_t *m, const char *text, char *buf, size_t size) {
  if (!m->chat_system) return -1;
  const char *parts[] = {"<|im_start|>system\n", m->chat_system, "<|im_end|>\n<|im_start|>user\n", text,
                         "<|im_end|>\n<|im_start|>assistant\n"};
  size_t len = 0;
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
    size_t n = strlen(parts[i]);
    if (len + n >= size) return -1;
    memcpy(buf + len, parts[i], n);
    len += n;
  }
  buf[len] = '\0';
  return (int)len;
}
