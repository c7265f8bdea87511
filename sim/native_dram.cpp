#include "native_dram.h"

namespace {

// Bits [LO, LO + N) of a little-endian array of 32-bit words (N <= 32).
uint32_t bits(const uint32_t *w, unsigned lo, unsigned n) {
  uint64_t v = w[lo / 32];
  if (lo % 32 + n > 32) v |= uint64_t(w[lo / 32 + 1]) << 32;
  v >>= lo % 32;
  return n == 32 ? uint32_t(v) : uint32_t(v) & ((1u << n) - 1);
}

// soc_bus_pkg's fields, from the least significant bit.
constexpr unsigned kRdataReady = 0, kWdataWe = 1, kWdata = 17, kWdataValid = 145, kCmdAddr = 146, kCmdWe = 170,
                   kCmdValid = 171, kAddrBits = 24;
constexpr unsigned kRdata = 0, kRdataValid = 128, kWdataReady = 129, kCmdReady = 130;
constexpr unsigned kWbStb = 63, kWbCyc = 64;
constexpr unsigned kWbInitDone = 1, kWbAck = 35;

}  // namespace

NativeReq unpack_native_req(const uint32_t *native, const uint32_t *wb) {
  NativeReq r{};
  r.cmd_valid = bits(native, kCmdValid, 1);
  r.cmd_we = bits(native, kCmdWe, 1);
  r.cmd_addr = bits(native, kCmdAddr, kAddrBits);
  r.wdata_valid = bits(native, kWdataValid, 1);
  if (r.wdata_valid) {
    for (unsigned i = 0; i < 4; i++) r.wdata[i] = bits(native, kWdata + 32 * i, 32);
    r.wdata_we = uint16_t(bits(native, kWdataWe, 16));
  }
  r.rdata_ready = bits(native, kRdataReady, 1);
  r.wb_cyc = bits(wb, kWbCyc, 1);
  r.wb_stb = bits(wb, kWbStb, 1);
  return r;
}

void pack_native_rsp(const NativeRsp &r, uint32_t *native, uint64_t *wb) {
  static_assert(kRdata == 0 && kRdataValid == 128 && kWdataReady == 129 && kCmdReady == 130, "word 4's bits");
  for (unsigned i = 0; i < 4; i++) native[i] = r.rdata[i];
  native[4] = uint32_t(r.rdata_valid) | uint32_t(r.wdata_ready) << 1 | uint32_t(r.cmd_ready) << 2;
  *wb = (uint64_t(r.wb_ack) << kWbAck) | (uint64_t(1) << kWbInitDone);
}

void NativeDram::clock(uint64_t cycle, const NativeReq &req) {
  if (req.cmd_valid && rsp_.cmd_ready)
    (req.cmd_we ? writes_ : reads_).push_back({req.cmd_we, req.cmd_addr, cycle + kReadLatency});
  if (req.wdata_valid && rsp_.wdata_ready) {
    uint32_t *w = native_word(writes_.front().addr);
    for (unsigned i = 0; i < 16; i++) {
      if (!((req.wdata_we >> i) & 1)) continue;
      unsigned shift = 8 * (i % 4);
      w[i / 4] = (w[i / 4] & ~(0xffu << shift)) | (((req.wdata[i / 4] >> shift) & 0xffu) << shift);
    }
    writes_.pop_front();
  }
  if (req.rdata_ready && rsp_.rdata_valid) reads_.pop_front();
  rsp_.wb_ack = req.wb_cyc && req.wb_stb && !rsp_.wb_ack;
  rsp_.wdata_ready = !writes_.empty();
  rsp_.rdata_valid = !reads_.empty() && reads_.front().ready <= cycle + 1;
  if (rsp_.rdata_valid) {
    const uint32_t *w = native_word(reads_.front().addr);
    for (unsigned i = 0; i < 4; i++) rsp_.rdata[i] = w[i];
  }
}
