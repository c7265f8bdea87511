// Matrix-vector unit: a grouped int8 matrix (llm_model.h's layout: tiles of
// 4 rows, per tile and 32-column group 8 blocks of 4 rows x 4 codes, then a
// scale and an offset per row and group) streamed from external memory
// past the data cache, times an int16 vector held here (X, with its group
// sums SUM). Per row r it returns, in 64 bits,
//   sum over groups j of scale(r,j) * (codes(r,j) . x_j) + offset(r,j) * SUM_j
// -- transformer.c's tile_groups, which is its definition; the CPU scales
// the sums. Only the weights cross the memory port, once: a SmolLM2 decode
// is memory-bound, and the core's loads of the same words cost 2 cycles a
// multiply-accumulate (docs/soc/mvu.md).
//
// Fetch: per pair of (tile, group) steps one 16-word command of parameters,
// then four of codes (two groups; two for an odd count's last pair, one
// step); data come back in order, so a word's
// place in the pair says what it is. Codes pass a 3-stage pipeline (x read,
// four int8 x int16 products, their sum into the row's 32-bit dot), one word
// a cycle, never stalling (the port has no back-pressure). At a group's end
// the four dots and SUM_j meet the parameters in one 32 x 32 multiplier,
// eight products in turn (a group's codes take 32 cycles or more), into the
// rows' 64-bit sums; at a tile's end those go to the result FIFO. A pair is
// asked for only while the FIFO has room for every result the pairs in
// flight may give, so no result is ever dropped when the CPU reads late.
module mvu
#(
  parameter int unsigned AddrW       = 23,  // word address bits of the memory
  parameter int unsigned MaxGroups   = 64,  // the X window: 32 * MaxGroups inputs
  parameter int unsigned ResultDepth = 32,
  localparam int unsigned XEntries   = MaxGroups * 8,  // 4 inputs an entry
  localparam int unsigned GroupW     = $clog2(MaxGroups),
  localparam int unsigned ResultW    = $clog2(ResultDepth)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Register port: req for one cycle, addr = offset in the MVU region;
  // answered with rvalid_o (the next cycle, or when a result is there).
  input  soc_bus_pkg::bus_req_t req_i,
  output soc_bus_pkg::bus_rsp_t rsp_o,
  output logic                  rvalid_o,
  // Memory port (sdram_ctrl's command port; reads only).
  output logic                  cmd_valid_o,
  input  logic                  cmd_ready_i,
  output logic [AddrW-1:0]      cmd_addr_o,
  output logic [3:0]            cmd_words_m1_o,
  input  logic [31:0]           rdata_i,
  input  logic                  rdata_valid_i
);
  initial begin
    if (MaxGroups < 2 || MaxGroups > 255 || (1 << GroupW) != MaxGroups)
      $fatal(1, "mvu: MaxGroups = %0d (a power of two, 2..128)", MaxGroups);
    if (ResultDepth < 16 || ResultDepth > 255 || (1 << ResultW) != ResultDepth)
      $fatal(1, "mvu: ResultDepth = %0d (a power of two, 16..128)", ResultDepth);
    if (soc_regs_pkg::MVU_X_WINDOW + soc_regs_pkg::MVU_X_WINDOW_SIZE != soc_regs_pkg::MVU_SIZE ||
        soc_regs_pkg::MVU_X_WINDOW_SIZE != XEntries * 8)
      $fatal(1, "mvu: the X window must end the region and hold MaxGroups * 32 inputs");
  end

  localparam int unsigned PairWords = 80;  // 16 of parameters, 2 x 32 of codes

  // Offsets in the region (regmap.toml).
  localparam int unsigned OffW = $clog2(soc_regs_pkg::MVU_SIZE);
  localparam logic [OffW-1:0] RegCtrl        = OffW'(soc_regs_pkg::MVU_CTRL_OFFSET);
  localparam logic [OffW-1:0] RegResultLo    = OffW'(soc_regs_pkg::MVU_RESULT_LO_OFFSET);
  localparam logic [OffW-1:0] RegResultHi    = OffW'(soc_regs_pkg::MVU_RESULT_HI_OFFSET);
  localparam logic [OffW-1:0] RegStatus      = OffW'(soc_regs_pkg::MVU_STATUS_OFFSET);
  localparam logic [OffW-1:0] RegCodes       = OffW'(soc_regs_pkg::MVU_CODES_OFFSET);
  localparam logic [OffW-1:0] RegParams      = OffW'(soc_regs_pkg::MVU_PARAMS_OFFSET);
  localparam logic [OffW-1:0] RegTiles       = OffW'(soc_regs_pkg::MVU_TILES_OFFSET);
  localparam logic [OffW-1:0] RegGroups      = OffW'(soc_regs_pkg::MVU_GROUPS_OFFSET);
  localparam logic [OffW-1:0] RegCaps        = OffW'(soc_regs_pkg::MVU_CAPS_OFFSET);
  localparam logic [OffW-1:0] RegBusyCycles  = OffW'(soc_regs_pkg::MVU_BUSY_CYCLES_OFFSET);
  localparam logic [OffW-1:0] RegStallCycles = OffW'(soc_regs_pkg::MVU_STALL_CYCLES_OFFSET);
  localparam logic [OffW-1:0] WinSum         = OffW'(soc_regs_pkg::MVU_SUM_WINDOW);
  localparam logic [OffW-1:0] WinSumEnd      = OffW'(soc_regs_pkg::MVU_SUM_WINDOW +
                                                   soc_regs_pkg::MVU_SUM_WINDOW_SIZE);
  localparam logic [OffW-1:0] WinX           = OffW'(soc_regs_pkg::MVU_X_WINDOW);  // to the region's end

  // ---------------------------------------------------------------------
  // Registers.
  logic [AddrW-1:0]   codes_q, params_q;      // word addresses
  logic [19:0]        tiles_q;
  logic [7:0]         groups_q;
  logic               run_q, err_start_q, err_write_q, err_empty_q;
  logic [31:0]        busy_cycles_q, stall_cycles_q;
  logic               steps_odd_q;            // tiles x groups is odd
  logic [25:0]        pairs_q;                // ceil(steps / 2)

  // The result FIFO.
  logic [ResultW:0]   res_count;
  logic [63:0]        res_head;
  logic               res_push, res_pop;
  logic [63:0]        res_wdata;

  // Fetch: pairs whose first command was taken, and the command within one.
  logic [25:0]        iss_pair_q, done_pairs_q;
  logic [2:0]         iss_sub_q;
  logic [AddrW-1:0]   iss_codes_q, iss_params_q;
  logic [3:0]         open_pairs;
  logic               room, cmd_take, asked_q;

  assign open_pairs = 4'(iss_pair_q - done_pairs_q);
  // Every open pair may still give 8 results (two tile ends). A pair's
  // first command, once asked for with room, stays asked for until taken
  // (the port's handshake): results that arrive meanwhile come from pairs
  // whose 8 were counted, so the room it was asked with is still there.
  assign room       = 32'(res_count) + 32'(open_pairs) * 8 + 8 <= ResultDepth;
  assign cmd_valid_o = run_q && (iss_sub_q != 0 || asked_q || (iss_pair_q < pairs_q && room));
  assign cmd_addr_o  = iss_sub_q == 0 ? iss_params_q : iss_codes_q;
  assign cmd_words_m1_o = 4'd15;
  assign cmd_take    = cmd_valid_o && cmd_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) asked_q <= 1'b0;
    else         asked_q <= cmd_valid_o && !cmd_ready_i;
  end

  // ---------------------------------------------------------------------
  // The register port.
  logic [OffW-1:0] off;
  logic            in_x, in_sum, whole_word, reg_write, start;
  logic            rd_wait_q, rd_hi_q;
  soc_bus_pkg::bus_rsp_t rsp_q;
  logic            rvalid_q;

  assign off        = req_i.addr[OffW-1:0];
  assign in_x       = off >= WinX;
  assign in_sum     = off >= WinSum && off < WinSumEnd;
  assign whole_word = req_i.be == 4'b1111;
  // A store of no bytes is cache maintenance (cbo.*): nothing to do here.
  assign reg_write  = req_i.req && req_i.we && req_i.be != 4'b0000;
  assign start      = reg_write && off == RegCtrl && req_i.wdata[soc_regs_pkg::MVU_CTRL_START_LSB];

  logic x_we, sum_we;
  assign x_we   = reg_write && in_x && whole_word && !run_q;
  assign sum_we = reg_write && in_sum && whole_word && !run_q;

  logic start_ok;
  assign start_ok = !run_q && codes_q[3:0] == 0 && params_q[3:0] == 0 && tiles_q != 0 && groups_q != 0 &&
                    groups_q <= 8'(MaxGroups);

  // A RESULT read is answered when the FIFO has a result, or at once (0,
  // ERR_EMPTY) when none is there and no run will give one.
  logic result_rd, rd_now, rd_ready;
  assign result_rd = req_i.req && !req_i.we && (off == RegResultLo || off == RegResultHi);
  assign rd_ready  = res_count != 0 || !run_q;
  assign rd_now    = (result_rd && rd_ready) || (rd_wait_q && rd_ready);
  logic rd_now_hi;
  assign rd_now_hi = rd_wait_q ? rd_hi_q : off == RegResultHi;
  assign res_pop   = rd_now && rd_now_hi && res_count != 0;

  logic [31:0] reg_rdata;
  always_comb begin
    reg_rdata = '0;
    unique case (off)
      RegStatus: begin
        reg_rdata[soc_regs_pkg::MVU_STATUS_BUSY_LSB]      = run_q;
        reg_rdata[soc_regs_pkg::MVU_STATUS_ERR_START_LSB] = err_start_q;
        reg_rdata[soc_regs_pkg::MVU_STATUS_ERR_BUSY_LSB]  = err_write_q;
        reg_rdata[soc_regs_pkg::MVU_STATUS_ERR_EMPTY_LSB] = err_empty_q;
        reg_rdata[soc_regs_pkg::MVU_STATUS_RESULTS_LSB +: soc_regs_pkg::MVU_STATUS_RESULTS_WIDTH] =
            soc_regs_pkg::MVU_STATUS_RESULTS_WIDTH'(res_count);
      end
      RegCodes:        reg_rdata = 32'({codes_q, 2'b00});
      RegParams:       reg_rdata = 32'({params_q, 2'b00});
      RegTiles:        reg_rdata = 32'(tiles_q);
      RegGroups:       reg_rdata = 32'(groups_q);
      RegCaps: begin
        reg_rdata[soc_regs_pkg::MVU_CAPS_MAX_GROUPS_LSB +: soc_regs_pkg::MVU_CAPS_MAX_GROUPS_WIDTH] =
            8'(MaxGroups);
        reg_rdata[soc_regs_pkg::MVU_CAPS_RESULT_DEPTH_LSB +: soc_regs_pkg::MVU_CAPS_RESULT_DEPTH_WIDTH] =
            8'(ResultDepth);
      end
      RegBusyCycles:  reg_rdata = busy_cycles_q;
      RegStallCycles: reg_rdata = stall_cycles_q;
      default: ;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rsp_q     <= '0;
      rvalid_q  <= 1'b0;
      rd_wait_q <= 1'b0;
      rd_hi_q   <= 1'b0;
    end else begin
      rvalid_q <= 1'b0;
      rsp_q    <= '0;
      if (rd_now) begin
        rvalid_q    <= 1'b1;
        rsp_q.rdata <= res_count == 0 ? '0 : rd_now_hi ? res_head[63:32] : res_head[31:0];
        rd_wait_q   <= 1'b0;
      end else if (result_rd) begin
        rd_wait_q <= 1'b1;
        rd_hi_q   <= off == RegResultHi;
      end else if (req_i.req) begin
        rvalid_q    <= 1'b1;
        rsp_q.rdata <= req_i.we ? '0 : reg_rdata;
      end
    end
  end
  assign rsp_o    = rsp_q;
  assign rvalid_o = rvalid_q;

  // ---------------------------------------------------------------------
  // Configuration, run state and counters.
  logic run_done;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      codes_q        <= '0;
      params_q       <= '0;
      tiles_q        <= '0;
      groups_q       <= '0;
      run_q          <= 1'b0;
      err_start_q    <= 1'b0;
      err_write_q    <= 1'b0;
      err_empty_q    <= 1'b0;
      busy_cycles_q  <= '0;
      stall_cycles_q <= '0;
      steps_odd_q    <= 1'b0;
      pairs_q        <= '0;
    end else begin
      if (run_q) busy_cycles_q <= busy_cycles_q + 1'b1;
      if (run_q && iss_sub_q == 0 && !asked_q && iss_pair_q < pairs_q && !room) stall_cycles_q <= stall_cycles_q + 1'b1;
      if (rd_now && res_count == 0) err_empty_q <= 1'b1;
      if (reg_write) begin
        if (run_q && off != RegStatus && off != RegCtrl) err_write_q <= 1'b1;
        if ((in_x || in_sum) && !whole_word) err_write_q <= 1'b1;
        if (!run_q)
          unique case (off)
            RegCodes:  codes_q  <= req_i.wdata[AddrW+1:2];
            RegParams: params_q <= req_i.wdata[AddrW+1:2];
            RegTiles:  tiles_q  <= req_i.wdata[soc_regs_pkg::MVU_TILES_COUNT_LSB +:
                                               soc_regs_pkg::MVU_TILES_COUNT_WIDTH];
            RegGroups: groups_q <= req_i.wdata[soc_regs_pkg::MVU_GROUPS_COUNT_LSB +:
                                               soc_regs_pkg::MVU_GROUPS_COUNT_WIDTH];
            default: ;
          endcase
        if (off == RegStatus) begin
          if (req_i.wdata[soc_regs_pkg::MVU_STATUS_ERR_START_LSB]) err_start_q <= 1'b0;
          if (req_i.wdata[soc_regs_pkg::MVU_STATUS_ERR_BUSY_LSB])  err_write_q <= 1'b0;
          if (req_i.wdata[soc_regs_pkg::MVU_STATUS_ERR_EMPTY_LSB]) err_empty_q <= 1'b0;
        end
      end
      if (start) begin
        if (start_ok) begin
          run_q   <= 1'b1;
          steps_odd_q <= tiles_q[0] && groups_q[0];
          pairs_q <= 26'((27'(tiles_q) * 27'(groups_q) + 1) >> 1);
        end else begin
          err_start_q <= 1'b1;
        end
      end else if (run_done) begin
        run_q <= 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------------
  // Fetch: the commands of each pair in turn.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      iss_pair_q   <= '0;
      iss_sub_q    <= '0;
      iss_codes_q  <= '0;
      iss_params_q <= '0;
    end else if (start && start_ok) begin
      iss_pair_q   <= '0;
      iss_sub_q    <= '0;
      iss_codes_q  <= codes_q;
      iss_params_q <= params_q;
    end else if (cmd_take) begin
      if (iss_sub_q == 0) begin
        iss_pair_q   <= iss_pair_q + 1'b1;
        iss_params_q <= iss_params_q + AddrW'(16);
      end else begin
        iss_codes_q <= iss_codes_q + AddrW'(16);
      end
      // The last pair of an odd count has one step: its codes end at sub 2
      // (asking for the second step's would read past the matrix, and a run
      // that ends first would withdraw the request).
      iss_sub_q <= iss_sub_q == 3'd4 || (iss_sub_q == 3'd2 && steps_odd_q && iss_pair_q == pairs_q) ? 3'd0
                                                                                                     : iss_sub_q + 1'b1;
    end
  end

  // ---------------------------------------------------------------------
  // Receive: a word's place in its pair says what it is.
  logic [6:0]        rx_word_q;
  logic [25:0]       rx_pair_q;
  logic [7:0]        rx_group_q;   // the group of the step being received
  logic              rx_code, rx_upper, rx_step_valid, rx_step_last;
  logic [4:0]        rx_index;     // the code word within its group: block, row
  logic [5:0]        rx_code_word;

  assign rx_code       = rx_word_q >= 7'd16;
  assign rx_code_word  = 6'(rx_word_q - 7'd16);
  assign rx_upper      = rx_code_word[5];
  assign rx_index      = rx_code_word[4:0];
  // The pair's second step is past the matrix when the steps are odd.
  assign rx_step_valid = !(rx_upper && steps_odd_q && rx_pair_q == pairs_q - 1'b1);
  assign rx_step_last  = rx_upper || (steps_odd_q && rx_pair_q == pairs_q - 1'b1);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rx_word_q  <= '0;
      rx_pair_q  <= '0;
      rx_group_q <= '0;
    end else if (start && start_ok) begin
      rx_word_q  <= '0;
      rx_pair_q  <= '0;
      rx_group_q <= '0;
    end else if (rdata_valid_i && run_q) begin
      rx_word_q <= rx_word_q == 7'(PairWords - 1) ? '0 : rx_word_q + 1'b1;
      if (rx_word_q == 7'(PairWords - 1)) rx_pair_q <= rx_pair_q + 1'b1;
      if (rx_code && rx_step_valid && rx_index == 5'd31)
        rx_group_q <= rx_group_q == groups_q - 1'b1 ? '0 : rx_group_q + 1'b1;
    end
  end

  // Parameters: slot {pair parity, step in pair, 8 words}.
  logic [4:0]  prm_raddr;
  logic [31:0] prm_rdata;
  lut_ram #(.Width(32), .Depth(32)) u_params (
    .clk_i,
    .we_i    (rdata_valid_i && run_q && !rx_code),
    .waddr_i ({rx_pair_q[0], rx_word_q[3:0]}),
    .wdata_i (rdata_i),
    .raddr_i (prm_raddr),
    .rdata_o (prm_rdata)
  );

  // The inputs: entry {group, block} holds x[4e .. 4e+3], low pair and high
  // pair in two RAMs (the window's even and odd words).
  logic [$clog2(XEntries)-1:0] x_waddr, x_raddr;
  logic [31:0] x_lo, x_hi;
  logic        x_read;
  assign x_waddr = off[3 +: $clog2(XEntries)];
  assign x_read  = rdata_valid_i && run_q && rx_code;
  assign x_raddr = {rx_group_q[GroupW-1:0], rx_index[4:2]};
  sdp_ram #(.Width(32), .Depth(XEntries)) u_x_lo (
    .clk_i,
    .we_i    (x_we && !off[2]),
    .waddr_i (x_waddr),
    .wdata_i (req_i.wdata),
    .re_i    (x_read),
    .raddr_i (x_raddr),
    .rdata_o (x_lo)
  );
  sdp_ram #(.Width(32), .Depth(XEntries)) u_x_hi (
    .clk_i,
    .we_i    (x_we && off[2]),
    .waddr_i (x_waddr),
    .wdata_i (req_i.wdata),
    .re_i    (x_read),
    .raddr_i (x_raddr),
    .rdata_o (x_hi)
  );

  logic [GroupW-1:0] sum_raddr;
  logic [31:0]       sum_rdata;
  lut_ram #(.Width(32), .Depth(MaxGroups)) u_sums (
    .clk_i,
    .we_i    (sum_we),
    .waddr_i (off[2 +: GroupW]),
    .wdata_i (req_i.wdata),
    .raddr_i (sum_raddr),
    .rdata_o (sum_rdata)
  );

  // ---------------------------------------------------------------------
  // Codes: stage 0 registers the word (x read meanwhile), stage 1 the four
  // products, stage 2 adds them into the row's dot.
  typedef struct packed {
    logic              valid;
    logic [1:0]        row;
    logic              last;       // the group's last word
    logic              tile_end;   // ... of the tile's last group
    logic              pair_last;  // ... of the pair's last step
    logic [1:0]        slot;       // {pair parity, step in pair}
    logic [GroupW-1:0] group;
  } tag_t;

  tag_t         s0_q, s1_q;
  logic [31:0]  s0_code_q;
  logic signed [23:0] s1_prod_q [4];
  logic signed [31:0] dot_q [4];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s0_q      <= '0;
      s0_code_q <= '0;
    end else begin
      s0_q.valid <= rdata_valid_i && run_q && rx_code && rx_step_valid;
      s0_q.row       <= rx_index[1:0];
      s0_q.last      <= rx_index == 5'd31;
      s0_q.tile_end  <= rx_group_q == groups_q - 1'b1;
      s0_q.pair_last <= rx_step_last;
      s0_q.slot      <= {rx_pair_q[0], rx_upper};
      s0_q.group     <= rx_group_q[GroupW-1:0];
      s0_code_q      <= rdata_i;
    end
  end

  logic [63:0] x4;
  assign x4 = {x_hi, x_lo};
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_q <= '0;
      for (int b = 0; b < 4; b++) s1_prod_q[b] <= '0;
    end else begin
      s1_q <= s0_q;
      for (int b = 0; b < 4; b++)
        s1_prod_q[b] <= $signed(s0_code_q[8*b +: 8]) * $signed(x4[16*b +: 16]);
    end
  end

  logic signed [31:0] word_dot;
  assign word_dot = 32'(s1_prod_q[0]) + 32'(s1_prod_q[1]) + 32'(s1_prod_q[2]) + 32'(s1_prod_q[3]);

  // The finished group: its four dots, SUM_j, where its parameters are.
  logic signed [31:0] fin_dot_q [4];
  logic signed [31:0] fin_sum_q;
  logic [1:0]         fin_slot_q;
  logic               fin_tile_end_q, fin_pair_last_q, fin_active_q;
  logic [2:0]         fin_n_q;
  assign sum_raddr = s1_q.group;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int k = 0; k < 4; k++) begin
        dot_q[k]     <= '0;
        fin_dot_q[k] <= '0;
      end
      fin_sum_q       <= '0;
      fin_slot_q      <= '0;
      fin_tile_end_q  <= 1'b0;
      fin_pair_last_q <= 1'b0;
    end else if (s1_q.valid) begin
      if (s1_q.last) begin
        for (int k = 0; k < 4; k++) begin
          fin_dot_q[k] <= 2'(k) == s1_q.row ? dot_q[k] + word_dot : dot_q[k];
          dot_q[k]     <= '0;
        end
        fin_sum_q       <= sum_rdata;
        fin_slot_q      <= s1_q.slot;
        fin_tile_end_q  <= s1_q.tile_end;
        fin_pair_last_q <= s1_q.pair_last;
      end else begin
        dot_q[s1_q.row] <= dot_q[s1_q.row] + word_dot;
      end
    end
  end

  // ---------------------------------------------------------------------
  // A group's end: eight products (scale x dot, offset x SUM for each row)
  // through one multiplier, operands registered, product registered, then
  // added to the row's sum; a tile's end pushes the four sums.
  logic               op_valid_q, prod_valid_q, op_final_q, prod_final_q;
  logic [1:0]         op_row_q, prod_row_q;
  logic signed [31:0] op_a_q, op_b_q;
  logic signed [63:0] prod_q;
  logic signed [63:0] acc_q [4];
  logic               push_active_q, push_pair_last_q;
  logic [1:0]         push_n_q;

  assign prm_raddr = {fin_slot_q, fin_n_q};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fin_active_q     <= 1'b0;
      fin_n_q          <= '0;
      op_valid_q       <= 1'b0;
      op_final_q       <= 1'b0;
      op_row_q         <= '0;
      op_a_q           <= '0;
      op_b_q           <= '0;
      prod_valid_q     <= 1'b0;
      prod_final_q     <= 1'b0;
      prod_row_q       <= '0;
      prod_q           <= '0;
      push_active_q    <= 1'b0;
      push_pair_last_q <= 1'b0;
      push_n_q         <= '0;
      for (int k = 0; k < 4; k++) acc_q[k] <= '0;
    end else begin
      if (s1_q.valid && s1_q.last) begin
        fin_active_q <= 1'b1;
        fin_n_q      <= '0;
      end else if (fin_active_q) begin
        fin_n_q <= fin_n_q + 1'b1;
        if (fin_n_q == 3'd7) fin_active_q <= 1'b0;
      end
      op_valid_q <= fin_active_q;
      op_final_q <= fin_active_q && fin_n_q == 3'd7;
      op_row_q   <= fin_n_q[2:1];
      op_a_q     <= prm_rdata;
      op_b_q     <= fin_n_q[0] ? fin_sum_q : fin_dot_q[fin_n_q[2:1]];
      prod_valid_q <= op_valid_q;
      prod_final_q <= op_final_q;
      prod_row_q   <= op_row_q;
      prod_q       <= op_a_q * op_b_q;
      if (prod_valid_q) acc_q[prod_row_q] <= acc_q[prod_row_q] + prod_q;
      // The last product lands in the cycle prod_final_q is seen: the
      // pushes start a cycle later, with every sum complete.
      if (prod_final_q) begin
        push_active_q    <= fin_tile_end_q;
        push_pair_last_q <= fin_pair_last_q;
        push_n_q         <= '0;
      end else if (push_active_q) begin
        acc_q[push_n_q] <= '0;
        push_n_q        <= push_n_q + 1'b1;
        if (push_n_q == 2'd3) push_active_q <= 1'b0;
      end
    end
  end

  assign res_push  = push_active_q;
  assign res_wdata = acc_q[push_n_q];

  // A pair is done when its last step's products are in (and pushed, at a
  // tile's end).
  logic pair_done;
  assign pair_done = (prod_final_q && fin_pair_last_q && !fin_tile_end_q) ||
                     (push_active_q && push_n_q == 2'd3 && push_pair_last_q);
  assign run_done  = run_q && done_pairs_q == pairs_q && iss_pair_q == pairs_q && !start;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) done_pairs_q <= '0;
    else if (start && start_ok) done_pairs_q <= '0;
    else if (pair_done) done_pairs_q <= done_pairs_q + 1'b1;
  end

  // ---------------------------------------------------------------------
  // The result FIFO.
  // Never pushed when full: a pair is asked for only with room for its results.
  /* verilator lint_off PINCONNECTEMPTY */  // res_count says both
  sync_fifo #(.Width(64), .Depth(ResultDepth)) u_results (
    .clk_i,
    .rst_ni,
    .push_i  (res_push),
    .data_i  (res_wdata),
    .pop_i   (res_pop),
    .data_o  (res_head),
    .empty_o (),
    .full_o  (),
    .level_o (res_count)
  );
  /* verilator lint_on PINCONNECTEMPTY */

endmodule : mvu
