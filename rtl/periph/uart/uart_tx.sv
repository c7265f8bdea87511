// 8N1 transmitter: start bit, eight data bits LSB first, stop bit.
module uart_tx (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [15:0] divisor_i,  // cycles per bit
  input  logic        valid_i,    // a byte is waiting
  input  logic [7:0]  data_i,
  output logic        ready_o,    // byte taken this cycle
  output logic        busy_o,
  output logic        tx_o
);

  logic [9:0]  shift_q;   // {stop, data, start}; bit 0 is on the line
  logic [3:0]  bits_q;    // bit periods still to send
  logic [15:0] count_q;

  assign busy_o  = (bits_q != '0);
  assign ready_o = valid_i && !busy_o;
  assign tx_o    = shift_q[0];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      shift_q <= '1;
      bits_q  <= '0;
      count_q <= '0;
    end else if (ready_o) begin
      shift_q <= {1'b1, data_i, 1'b0};
      bits_q  <= 4'd10;
      count_q <= '0;
    end else if (busy_o) begin
      if (count_q + 16'd1 >= divisor_i) begin
        count_q <= '0;
        shift_q <= {1'b1, shift_q[9:1]};
        bits_q  <= bits_q - 4'd1;
      end else begin
        count_q <= count_q + 16'd1;
      end
    end
  end

endmodule : uart_tx
