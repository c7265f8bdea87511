/* The model image (tools/llm/convert.py output), linked into the firmware.
   MODEL_IMAGE is its path, given by the build; MODEL_SECTION, if given,
   its section (.ext.model: external memory, linker/ram.ld). Aligned as the
   image's grouped matrices are (LLM_GROUPED_ALIGN): the matrix-vector unit
   reads them in 64-byte bursts. */
#ifndef MODEL_SECTION
#define MODEL_SECTION .rodata.model
#endif
  .section MODEL_SECTION, "a"
  .balign 64
  .globl llm_model_image
llm_model_image:
  .incbin MODEL_IMAGE
  .globl llm_model_image_end
llm_model_image_end:
