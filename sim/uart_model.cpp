#include "uart_model.h"

uint8_t UartModel::tick(uint8_t tx_line, bool cts, bool *got, uint8_t *out) {
  *got = false;
  // Receive: start on a low line, then sample each bit in its middle.
  if (!tx_busy_) {
    if (!tx_line) {
      tx_busy_ = true;
      tx_count_ = 0;
      tx_bit_ = 0;
    }
  } else if (++tx_count_ == div_ / 2 + tx_bit_ * div_) {
    if (tx_bit_ == 0 && tx_line) {
      tx_busy_ = false;  // glitch, not a start bit
    } else if (tx_bit_ >= 1 && tx_bit_ <= 8) {
      tx_byte_ = uint8_t((tx_byte_ >> 1) | (tx_line ? 0x80 : 0));
    } else if (tx_bit_ == 9) {
      tx_busy_ = false;
      if (tx_line) {
        *got = true;
        *out = tx_byte_;
      }
    }
    tx_bit_++;
  }

  // Transmit the next host byte.
  if (rx_bit_ < 0) {
    if (to_soc_.empty() || !cts) return 1;
    rx_byte_ = to_soc_.front();
    to_soc_.pop_front();
    rx_bit_ = 0;
    rx_count_ = 0;
  }
  uint8_t level;
  if (rx_bit_ == 0) level = 0;
  else if (rx_bit_ <= 8) level = (rx_byte_ >> (rx_bit_ - 1)) & 1;
  else level = 1;  // stop bit and one idle bit between bytes
  if (++rx_count_ == div_) {
    rx_count_ = 0;
    if (++rx_bit_ > 10) rx_bit_ = -1;
  }
  return level;
}
