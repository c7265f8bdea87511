// The far end of the SoC's UART line: decodes what the SoC transmits and
// serialises host bytes onto its receive line, at the SoC's bit divisor.
#pragma once
#include <cstddef>
#include <cstdint>
#include <deque>

class UartModel {
 public:
  explicit UartModel(uint32_t cycles_per_bit) : div_(cycles_per_bit) {}
  // Call once per clock with the SoC's tx pin and its clear-to-send (its
  // RTS, active); returns the level for its rx pin. A byte starts only while
  // clear to send. A byte completed by the SoC is stored in *out with true
  // returned in *got.
  uint8_t tick(uint8_t tx_line, bool cts, bool *got, uint8_t *out);
  void send(uint8_t byte) { to_soc_.push_back(byte); }
  size_t queued() const { return to_soc_.size(); }
  // Nothing on either line and nothing left to send.
  bool idle() const { return to_soc_.empty() && rx_bit_ < 0 && !tx_busy_; }

 private:
  uint32_t div_;
  // Decoding the SoC's transmissions.
  bool tx_busy_ = false;
  uint32_t tx_count_ = 0;
  int tx_bit_ = 0;
  uint8_t tx_byte_ = 0;
  // Driving the SoC's receive line.
  std::deque<uint8_t> to_soc_;
  int rx_bit_ = -1;  // -1 idle, 0 start, 1..8 data, 9 stop, 10 gap
  uint32_t rx_count_ = 0;
  uint8_t rx_byte_ = 0;
};
