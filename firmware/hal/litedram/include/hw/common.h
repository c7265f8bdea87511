/* LiteX's <hw/common.h>, which LiteDRAM's generated sdram_phy.h includes:
   its CSR accessors are litedram_init.c's, through DRAMCTL. */
