// 8N1 receiver: synchronises the line, waits for a start bit, samples each
// bit in its middle and checks the stop bit.
module uart_rx (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [15:0] divisor_i,
  input  logic        rx_i,
  output logic        valid_o,       // one cycle: data_o received
  output logic [7:0]  data_o,
  output logic        frame_error_o  // one cycle: stop bit was low
);

  typedef enum logic [1:0] { IDLE, START, DATA, STOP } state_e;

  state_e      state_q;
  logic [2:0]  sync_q;
  logic [15:0] count_q;
  logic [2:0]  bit_q;
  logic [7:0]  data_q;
  logic        rx;

  assign rx     = sync_q[2];
  assign data_o = data_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sync_q        <= '1;
      state_q       <= IDLE;
      count_q       <= '0;
      bit_q         <= '0;
      data_q        <= '0;
      valid_o       <= 1'b0;
      frame_error_o <= 1'b0;
    end else begin
      sync_q        <= {sync_q[1:0], rx_i};
      valid_o       <= 1'b0;
      frame_error_o <= 1'b0;
      count_q       <= count_q + 16'd1;
      unique case (state_q)
        IDLE: begin
          count_q <= '0;
          if (!rx) state_q <= START;
        end
        START: begin
          // Middle of the start bit: still low, or it was a glitch.
          if (count_q + 16'd1 >= divisor_i >> 1) begin
            count_q <= '0;
            bit_q   <= '0;
            state_q <= rx ? IDLE : DATA;
          end
        end
        DATA: begin
          if (count_q + 16'd1 >= divisor_i) begin
            count_q <= '0;
            data_q  <= {rx, data_q[7:1]};
            bit_q   <= bit_q + 3'd1;
            if (bit_q == 3'd7) state_q <= STOP;
          end
        end
        default: begin  // STOP
          if (count_q + 16'd1 >= divisor_i) begin
            count_q <= '0;
            state_q <= IDLE;
            if (rx) valid_o       <= 1'b1;
            else    frame_error_o <= 1'b1;
          end
        end
      endcase
    end
  end

endmodule : uart_rx
