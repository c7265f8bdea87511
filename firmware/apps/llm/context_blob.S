/* A saved context (tools/llm/llm_context.c output, firmware/lib/llm/
   llm_context.h), linked into a bench build (empty in the others): CONTEXT_IMAGE is its path,
   given by the build; CONTEXT_SECTION, if given, its section (.ext.context:
   external memory, with the model). */
#ifndef CONTEXT_SECTION
#define CONTEXT_SECTION .rodata.context
#endif
  .section CONTEXT_SECTION, "a"
  .balign 16
  .globl llm_context_image
llm_context_image:
#ifdef CONTEXT_IMAGE /* else empty: the app's plain builds */
  .incbin CONTEXT_IMAGE
#endif
  .globl llm_context_image_end
llm_context_image_end:
