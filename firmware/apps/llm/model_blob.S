/* The model image (tools/llm/convert.py output), linked into the firmware.
   MODEL_IMAGE is its path, given by the build. */
  .section .rodata.model, "a"
  .balign 16
  .globl llm_model_image
llm_model_image:
  .incbin MODEL_IMAGE
  .globl llm_model_image_end
llm_model_image_end:
