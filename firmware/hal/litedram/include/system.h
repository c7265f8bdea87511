/* LiteX's <system.h>, which LiteDRAM's generated csr.h includes: it has
   nothing this firmware uses (cache and CPU helpers of LiteX's BIOS). */
